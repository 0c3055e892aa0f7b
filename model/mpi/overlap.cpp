#include "model/mpi/overlap.hpp"

#include <algorithm>
#include <vector>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"

namespace mpisim::mpi {

namespace {

struct Span {
  Address lo, hi;  // [lo, hi)
};

// The span of bytes a region's type map can touch, or nothing for a region of no
// data. The arguments have been checked against the allocations first (so no sum
// wraps; a product that would is no region at all).
std::optional<Span> hull(const Region& r) {
  std::int64_t step = 0;
  if (r.count <= 0 || r.type->size() == 0 || __builtin_mul_overflow(r.count - 1, r.type->extent(), &step))
    return std::nullopt;
  const Address base = r.addr + r.type->true_lb();
  return Span{base + std::min<std::int64_t>(0, step), base + std::max<std::int64_t>(0, step) + r.type->true_extent()};
}

std::optional<Span> hull(std::span<const Region> side) {
  std::optional<Span> all;
  for (const Region& r : side)
    if (auto h = hull(r)) all = all ? Span{std::min(all->lo, h->lo), std::max(all->hi, h->hi)} : *h;
  return all;
}

struct Run {
  Address lo, hi;
  int block;
  friend bool operator<(const Run& x, const Run& y) { return x.lo < y.lo; }
};

// The byte runs of the regions of `side` whose hulls meet `within`, sorted; false
// when there are more than kMaxRuns.
bool runs_of(std::span<const Region> side, Span within, std::vector<Run>& out) {
  for (const Region& r : side) {
    const auto h = hull(r);
    if (!h || h->hi <= within.lo || within.hi <= h->lo) continue;
    const TypedBuffer b{nullptr, r.addr, r.count, r.type};
    const std::size_t room = kMaxRuns - out.size();
    auto runs = byte_runs(b, r.count * r.type->size(), room + 1);
    if (runs.size() > room) return false;
    for (const auto& [at, len] : runs) out.push_back(Run{at, at + len, r.block});
  }
  std::sort(out.begin(), out.end());
  return true;
}

}  // namespace

std::optional<Overlap> find_overlap(std::span<const Region> a, std::span<const Region> b) {
  const auto ha = hull(a), hb = hull(b);
  if (!ha || !hb || ha->hi <= hb->lo || hb->hi <= ha->lo) return std::nullopt;
  const Span both{std::max(ha->lo, hb->lo), std::min(ha->hi, hb->hi)};
  std::vector<Run> ra, rb;
  if (!runs_of(a, both, ra) || !runs_of(b, both, rb)) return std::nullopt;
  // Both lists sorted by start: a run that ends before the other side's current
  // run starts can meet none of that side's later runs.
  for (std::size_t i = 0, j = 0; i < ra.size() && j < rb.size();) {
    if (ra[i].hi <= rb[j].lo) ++i;
    else if (rb[j].hi <= ra[i].lo) ++j;
    else {
      const Address lo = std::max(ra[i].lo, rb[j].lo), hi = std::min(ra[i].hi, rb[j].hi);
      return Overlap{lo, hi - lo, ra[i].block, rb[j].block};
    }
  }
  return std::nullopt;
}

std::optional<Overlap> find_self_overlap(std::span<const Region> side) {
  if (side.size() < 2) return std::nullopt;
  // Hulls in address order that do not meet (the usual layout of blocks) end it.
  std::vector<Span> hulls;
  hulls.reserve(side.size());
  for (const Region& r : side)
    if (auto h = hull(r)) hulls.push_back(*h);
  std::sort(hulls.begin(), hulls.end(), [](const Span& x, const Span& y) { return x.lo < y.lo; });
  bool meet = false;
  for (std::size_t i = 1; i < hulls.size() && !meet; ++i) meet = hulls[i].lo < hulls[i - 1].hi;
  if (!meet) return std::nullopt;
  std::vector<Run> runs;
  if (!runs_of(side, Span{hulls.front().lo, INT64_MAX}, runs)) return std::nullopt;
  // The run reaching furthest so far, and the furthest of another block than its.
  Run best{0, INT64_MIN, -2}, other{0, INT64_MIN, -2};
  for (const Run& r : runs) {
    const Run& meets = best.block != r.block ? best : other;
    if (meets.hi > r.lo) {
      const Address hi = std::min(meets.hi, r.hi);
      return Overlap{r.lo, hi - r.lo, meets.block, r.block};
    }
    if (r.hi > best.hi) {
      if (r.block != best.block) other = best;
      best = r;
    } else if (r.block != best.block && r.hi > other.hi) {
      other = r;
    }
  }
  return std::nullopt;
}

std::string describe_bytes(const Memory& memory, Address first, std::int64_t bytes) {
  const std::string range = bytes == 1 ? "byte " : "bytes ";
  // A C program's memory: its addresses change from run to run (address space
  // randomisation), and a trace must not, so only the count is told.
  if (memory.host()) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  if (const Allocation* a = memory.find(first, 1)) {
    const std::int64_t off = first - a->base;
    return range + std::to_string(off) + (bytes == 1 ? "" : ".." + std::to_string(off + bytes - 1)) + " of buffer '" +
           *a->name + "'";
  }
  return range + "at address " + std::to_string(first) + (bytes == 1 ? "" : " (" + std::to_string(bytes) + " bytes)");
}

void HeldBuffers::hold(Use use) {
  if (!hull(use.region())) return;
  if (uses_.capacity() == 0) uses_.reserve(2);  // a send and a receive, or a collective's two sides
  uses_.push_back(std::move(use));
}

bool HeldBuffers::release(const void* op) {
  return std::erase_if(uses_, [op](const Use& u) { return u.op == op; }) > 0;
}

bool HeldBuffers::holds(const void* op) const {
  return std::any_of(uses_.begin(), uses_.end(), [op](const Use& u) { return u.op == op; });
}

std::optional<std::pair<const HeldBuffers::Use*, Overlap>> HeldBuffers::conflict(const Region& r, bool writes) const {
  const auto h = hull(r);
  if (!h) return std::nullopt;
  for (const Use& use : uses_) {
    if (!writes && !use.writes) continue;  // reading what a send reads is allowed
    const Region held = use.region();
    const auto hh = hull(held);
    if (hh->hi <= h->lo || h->hi <= hh->lo) continue;
    if (auto o = find_overlap({&r, 1}, {&held, 1})) return std::pair{&use, *o};
  }
  return std::nullopt;
}

void check_not_held(const Memory& memory, const Region& r, bool writes, const char* argument) {
  const HeldBuffers* held = memory.held();
  if (!held || held->empty()) return;
  const auto c = held->conflict(r, writes);
  if (!c) return;
  const HeldBuffers::Use& use = *c->first;
  std::string op = std::string("the pending ") + use.call;
  if (use.point_to_point)
    op += std::string(use.writes ? " from " : " to ") +
          (use.peer == ANY_SOURCE ? std::string("MPI_ANY_SOURCE") : "rank " + std::to_string(use.peer)) + ", tag " +
          (use.tag == ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(use.tag));
  const bool collective = !use.point_to_point;
  throw MpiError(ErrorClass::buffer, argument,
                 std::string(*argument ? argument : "the step") + (writes ? " would write " : " would read ") +
                     describe_bytes(memory, c->second.first, c->second.bytes) + ", which " + op +
                     (use.writes ? " receives into (" : " sends from (") + use.argument +
                     (use.block >= 0 ? "'s block for process " + std::to_string(use.block) : std::string()) +
                     "); a wait or a test must complete it first",
                 use.writes ? std::string("MPI-4.1 §3.7.2") + (collective ? ", §6.12" : "") +
                                  ": the buffer of a pending receive must not be accessed until the operation completes"
                            : std::string("MPI-4.1 §3.7.2") + (collective ? ", §6.12" : "") +
                                  ": the buffer of a pending send must not be modified until the operation completes");
}

}  // namespace mpisim::mpi
