#include "model/program/globals.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "model/mpi/error.hpp"

namespace mpisim::program {
namespace {

struct Search {
  ElfW(Addr) base;
  const char* name;
  std::uintptr_t lo = 0, hi = 0;  // the writable data, less what relocation leaves read-only
  bool found = false;
};

int visit(dl_phdr_info* info, std::size_t, void* data) {
  auto* s = static_cast<Search*>(data);
  if (info->dlpi_addr != s->base || !info->dlpi_name || std::strcmp(info->dlpi_name, s->name) != 0) return 0;
  s->found = true;
  std::uintptr_t lo = UINTPTR_MAX, hi = 0, relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) {
      lo = std::min(lo, start);
      hi = std::max(hi, start + ph.p_memsz);
    } else if (ph.p_type == PT_GNU_RELRO) {
      // The loader makes the whole pages of this range read-only after relocation.
      const std::uintptr_t page = 4096;
      relro_end = (start + ph.p_memsz) / page * page;
    }
  }
  if (hi == 0) return 1;  // nothing writable
  s->lo = std::max(lo, relro_end);
  s->hi = hi;
  return 1;
}

}  // namespace

PrivateGlobals::PrivateGlobals(void* handle, std::uint32_t ranks) : copies_(ranks) {
  link_map* lm = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
    throw std::runtime_error("cannot find where the program was loaded");
  Search s{lm->l_addr, lm->l_name};
  dl_iterate_phdr(visit, &s);
  if (!s.found) throw std::runtime_error("cannot find the program's segments");
  if (s.hi <= s.lo) return;
  start_ = reinterpret_cast<std::byte*>(s.lo);
  bytes_ = s.hi - s.lo;
  initial_ = std::make_unique<std::byte[]>(bytes_);
  std::memcpy(initial_.get(), start_, bytes_);
}

std::byte* PrivateGlobals::locate(std::uint32_t r, std::uintptr_t addr, std::size_t len) {
  const auto lo = reinterpret_cast<std::uintptr_t>(start_);
  if (r == owner_ || addr + len <= lo || addr >= lo + bytes_) return nullptr;
  if (addr < lo || addr + len > lo + bytes_)
    throw mpi::MpiError(mpi::ErrorClass::buffer, "",
                        "a buffer starts in the program's global variables and runs past their end",
                        "MPI-4.1 §3.2.2: a buffer is the memory its type map describes (mpisim keeps each rank's "
                        "globals apart: docs/c-programs.md)");
  auto& copy = copies_[r];
  if (!copy) {
    copy = std::make_unique<std::byte[]>(bytes_);
    std::memcpy(copy.get(), initial_.get(), bytes_);
  }
  return copy.get() + (addr - lo);
}

void PrivateGlobals::swap(std::uint32_t r) {
  if (owner_ != UINT32_MAX) {
    auto& out = copies_[owner_];
    if (!out) out = std::make_unique<std::byte[]>(bytes_);
    std::memcpy(out.get(), start_, bytes_);
  }
  const auto& in = copies_[r];
  std::memcpy(start_, in ? in.get() : initial_.get(), bytes_);
  owner_ = r;
}

}  // namespace mpisim::program
