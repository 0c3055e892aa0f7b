#include "model/mpi/external32.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "model/mpi/error.hpp"
#include "model/mpi/overlap.hpp"

namespace mpisim::mpi {
namespace {

void check_datarep(std::string_view datarep) {
  if (datarep == "external32") return;
  std::string shown;
  for (char c : datarep) shown += (c >= 32 && c < 127) ? c : '?';
  throw MpiError(ErrorClass::arg, "datarep", "datarep \"" + shown + "\" is not external32",
                 "MPI-4.1 §5.2.3: datarep is \"external32\", the one portable representation (§13.5.2)");
}

// The external32 bytes of one element of `type`.
std::int64_t external_extent(const Datatype& type) {
  std::int64_t n = 0;
  for (const SignatureRun& r : type.signature()) n += r.count * external32_size(basic_type(r.basic));
  return n;
}

// The checks both calls share: the representation, a committed type, a count,
// room in the packed buffer from position on; returns the external bytes.
std::int64_t external_bytes(std::string_view datarep, const TypeRef& type, std::int64_t count, std::int64_t position,
                            std::int64_t limit, bool packing) {
  check_datarep(datarep);
  if (!type->committed())
    throw MpiError(ErrorClass::type, "datatype", "datatype " + type->name() + " is not committed",
                   "MPI-4.1 §5.2.3: the datatype of MPI_Pack_external and MPI_Unpack_external must be committed");
  if (count < 0)
    throw MpiError(ErrorClass::count, packing ? "incount" : "outcount", "the count is negative",
                   "MPI-4.1 §3.2.2: counts are non-negative");
  data_bytes(count, *type, packing ? "incount" : "outcount");  // the native size is bounded
  const std::int64_t bytes = count * external_extent(*type);
  if (position < 0 || position > limit || bytes > limit - position)
    throw MpiError(ErrorClass::truncate, packing ? "outsize" : "insize",
                   "position " + std::to_string(position) + " + " + std::to_string(bytes) +
                       " bytes of external32 data is beyond the packed buffer's " + std::to_string(limit) + " bytes",
                   "MPI-4.1 §5.2.3: the packed data must fit in outsize (MPI_Pack_external) or insize "
                   "(MPI_Unpack_external) bytes");
  return bytes;
}

// x87 extended precision (this platform's long double: 64-bit significand with
// an explicit integer bit, 15-bit exponent) to IEEE binary128, big-endian.
void long_double_out(const std::byte* native, std::byte* out) {
  std::uint64_t m;
  std::uint16_t se;
  std::memcpy(&m, native, 8);
  std::memcpy(&se, native + 8, 2);
  // binary128: sign and exponent as x87's; the 112-bit fraction starts with the
  // 63 bits below the explicit integer bit.
  const std::uint64_t frac_hi = (m << 1) >> 16;  // fraction bits 111..64
  const std::uint64_t frac_lo = m << 49;          // fraction bits 63..49
  const std::uint64_t hi = (static_cast<std::uint64_t>(se) << 48) | frac_hi;
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(hi >> (56 - 8 * i));
  for (int i = 0; i < 8; ++i) out[8 + i] = static_cast<std::byte>(frac_lo >> (56 - 8 * i));
}

void long_double_in(const std::byte* in, std::byte* native) {
  std::uint64_t hi = 0, lo = 0;
  for (int i = 0; i < 8; ++i) hi = (hi << 8) | static_cast<std::uint8_t>(in[i]);
  for (int i = 0; i < 8; ++i) lo = (lo << 8) | static_cast<std::uint8_t>(in[8 + i]);
  const auto se = static_cast<std::uint16_t>(hi >> 48);
  const std::uint64_t frac_hi = hi & 0xffffffffffffULL;  // 48 bits
  // The top 63 fraction bits, and the explicit integer bit (1 unless zero or subnormal).
  std::uint64_t m = (frac_hi << 15) | (lo >> 49);
  if ((se & 0x7fff) != 0) m |= 1ULL << 63;
  std::memset(native, 0, 16);
  std::memcpy(native, &m, 8);
  std::memcpy(native + 8, &se, 2);
}

// One element: `n` native bytes (little-endian) to `e` external bytes (big-endian).
void element_out(const BasicType& b, const std::byte* native, std::byte* out) {
  const std::int64_t e = external32_size(b);
  if (b.kind == ElementKind::floating && b.size == 16) return long_double_out(native, out);
  if (b.kind == ElementKind::complex) {
    const BasicType part{b.name, b.id, b.size / 2, b.alignment, ElementKind::floating, b.group};
    element_out(part, native, out);
    element_out(part, native + b.size / 2, out + e / 2);
    return;
  }
  // An integer wider here than in external32 keeps its low bytes.
  for (std::int64_t i = 0; i < e; ++i) out[i] = native[e - 1 - i];
}

void element_in(const BasicType& b, const std::byte* in, std::byte* native) {
  const std::int64_t e = external32_size(b);
  if (b.kind == ElementKind::floating && b.size == 16) return long_double_in(in, native);
  if (b.kind == ElementKind::complex) {
    const BasicType part{b.name, b.id, b.size / 2, b.alignment, ElementKind::floating, b.group};
    element_in(part, in, native);
    element_in(part, in + e / 2, native + b.size / 2);
    return;
  }
  for (std::int64_t i = 0; i < e; ++i) native[i] = in[e - 1 - i];
  // Widened: sign-extended for the signed integers, zero-extended otherwise.
  const bool negative = b.kind == ElementKind::signed_int && e > 0 && (static_cast<std::uint8_t>(in[0]) & 0x80);
  for (std::int64_t i = e; i < b.size; ++i) native[i] = negative ? std::byte{0xff} : std::byte{0};
}

// The checks on the two buffers, as MPI_Pack's: inside their allocations, not
// overlapping, not held by a pending operation.
void check_buffers(Memory& mem, const TypedBuffer& flat, std::int64_t flat_bytes, const TypedBuffer& typed,
                   std::int64_t typed_bytes, bool packing) {
  check_access(flat, flat_bytes, packing ? "outbuf" : "inbuf");
  check_access(typed, typed_bytes, packing ? "inbuf" : "outbuf");
  const Region f{flat.addr, flat_bytes, flat.type}, t{typed.addr, typed.count, typed.type};
  if (auto o = find_overlap({&f, 1}, {&t, 1}))
    throw MpiError(ErrorClass::buffer, "outbuf",
                   "outbuf and inbuf both hold " + describe_bytes(mem, o->first, o->bytes) +
                       ": the output buffer overlaps the input buffer",
                   "MPI-4.1 §2.3: an OUT argument must not be aliased with any other argument");
  check_not_held(mem, f, packing, packing ? "outbuf" : "inbuf");
  check_not_held(mem, t, !packing, packing ? "inbuf" : "outbuf");
}

const TypeRef& byte_type() {
  static const TypeRef byte = predefined_type("MPI_BYTE");
  return byte;
}

}  // namespace

std::int64_t external32_size(const BasicType& b) {
  const std::string_view n = b.name;
  if (n == "MPI_LONG" || n == "MPI_UNSIGNED_LONG") return 4;
  if (n == "MPI_WCHAR") return 2;
  return b.size;  // every other type has this platform's size in external32
}

std::int64_t pack_external_size(std::string_view datarep, std::int64_t count, const Datatype& type) {
  check_datarep(datarep);
  if (count < 0)
    throw MpiError(ErrorClass::count, "incount", "the count is negative", "MPI-4.1 §3.2.2: counts are non-negative");
  data_bytes(count, type, "incount");
  return count * external_extent(type);
}

void pack_external(Memory& mem, PayloadMode mode, std::string_view datarep, Address inbuf, std::int64_t incount,
                   const TypeRef& type, Address outbuf, std::int64_t outsize, std::int64_t& position) {
  const std::int64_t bytes = external_bytes(datarep, type, incount, position, outsize, true);
  const std::int64_t native = incount * type->size();
  const TypedBuffer flat{&mem, outbuf + position, bytes, byte_type().get()};
  const TypedBuffer typed{&mem, inbuf, incount, type.get()};
  check_buffers(mem, flat, bytes, typed, native, true);
  if (mode == PayloadMode::data) {
    std::vector<std::byte> in(static_cast<std::size_t>(native)), out(static_cast<std::size_t>(bytes));
    pack(typed, native, in.data());
    const std::byte* p = in.data();
    std::byte* q = out.data();
    for (std::int64_t k = 0; k < incount; ++k)
      for (const SignatureRun& r : type->signature()) {
        const BasicType& b = basic_type(r.basic);
        for (std::int64_t i = 0; i < r.count; ++i, p += b.size, q += external32_size(b)) element_out(b, p, q);
      }
    unpack(out.data(), bytes, flat);
  }
  position += bytes;
}

void unpack_external(Memory& mem, PayloadMode mode, std::string_view datarep, Address inbuf, std::int64_t insize,
                     std::int64_t& position, Address outbuf, std::int64_t outcount, const TypeRef& type) {
  const std::int64_t bytes = external_bytes(datarep, type, outcount, position, insize, false);
  const std::int64_t native = outcount * type->size();
  const TypedBuffer flat{&mem, inbuf + position, bytes, byte_type().get()};
  const TypedBuffer typed{&mem, outbuf, outcount, type.get()};
  check_buffers(mem, flat, bytes, typed, native, false);
  if (mode == PayloadMode::data) {
    std::vector<std::byte> in(static_cast<std::size_t>(bytes)), out(static_cast<std::size_t>(native));
    pack(flat, bytes, in.data());
    const std::byte* p = in.data();
    std::byte* q = out.data();
    for (std::int64_t k = 0; k < outcount; ++k)
      for (const SignatureRun& r : type->signature()) {
        const BasicType& b = basic_type(r.basic);
        for (std::int64_t i = 0; i < r.count; ++i, p += external32_size(b), q += b.size) element_in(b, p, q);
      }
    unpack(out.data(), native, typed);
  }
  position += bytes;
}

}  // namespace mpisim::mpi
