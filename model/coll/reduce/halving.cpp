#include "model/coll/reduce/halving.hpp"

namespace mpisim::coll::reduction {

Offsets even_blocks(std::int64_t count, int n) {
  Offsets start(static_cast<std::size_t>(n) + 1, 0);
  for (int b = 0; b < n; ++b)
    start[static_cast<std::size_t>(b) + 1] = start[static_cast<std::size_t>(b)] + count / n + (b < count % n ? 1 : 0);
  return start;
}

Task<void> fold_in(Rank& rank, const CollArgs& a, const Fold& f, Address acc, Address tmp, std::int64_t count,
                   const TypeRef& type) {
  if (f.sits_out()) {
    co_await send(rank, a, acc, count, type, a.me + 1);
  } else if (f.holds_pair(a.me)) {
    co_await recv(rank, a, tmp, count, type, a.me - 1);
    co_await combine(rank, *a.op, tmp, acc, count, type);  // acc = (me - 1) op me
  }
}

Task<void> halving(Rank& rank, const CollArgs& a, const Fold& f, Address acc, Address tmp, const Offsets& start,
                   const TypeRef& type, Address first_from) {
  const std::int64_t ext = type->extent();
  auto at = [&](int b) { return start[static_cast<std::size_t>(b)]; };
  int lo = 0;
  const std::int64_t base = at((f.newrank & (f.pof2 / 2)) != 0 ? f.pof2 / 2 : 0);  // where the first kept half starts
  for (int mask = f.pof2 / 2; mask > 0; mask /= 2) {
    const int partner = f.newrank ^ mask;
    const bool upper = (f.newrank & mask) != 0;
    const int keep_lo = upper ? lo + mask : lo, give_lo = upper ? lo : lo + mask;
    const std::int64_t keep = at(keep_lo + mask) - at(keep_lo), give = at(give_lo + mask) - at(give_lo);
    const Address into = tmp + (at(keep_lo) - base) * ext;
    mpi::Deferred got;
    // The lower new rank's data comes first: order kept for any operation.
    const Address kept = acc + at(keep_lo) * ext;
    const Address from = mask == f.pof2 / 2 ? first_from : acc;
    co_await exchange(rank, a, from + at(give_lo) * ext, give, type, f.real(partner), into, keep, type,
                      f.real(partner), got, *a.op, kept, from + at(keep_lo) * ext, /*inout_first=*/!upper);
    co_await combine(rank, *a.op, got, into, kept, from + at(keep_lo) * ext, keep, type, /*inout_first=*/!upper);
    lo = keep_lo;
  }
}

std::int64_t kept_first(const Fold& f, const Offsets& start) {
  if (f.pof2 < 2 || f.sits_out()) return 0;
  const int half = f.pof2 / 2;
  const std::size_t lo = (f.newrank & half) != 0 ? static_cast<std::size_t>(half) : 0;
  return start[lo + static_cast<std::size_t>(half)] - start[lo];
}

Task<void> doubling(Rank& rank, const CollArgs& a, const Fold& f, Address acc, const Offsets& start,
                    const TypeRef& type) {
  const std::int64_t ext = type->extent();
  auto at = [&](int b) { return start[static_cast<std::size_t>(b)]; };
  for (int mask = 1; mask < f.pof2; mask <<= 1) {
    const int partner = f.newrank ^ mask;
    const int mine = f.newrank & ~(mask - 1), theirs = partner & ~(mask - 1);
    co_await sendrecv(rank, a, acc + at(mine) * ext, at(mine + mask) - at(mine), type, f.real(partner),
                      acc + at(theirs) * ext, at(theirs + mask) - at(theirs), type, f.real(partner));
  }
}

Task<void> gather_to(Rank& rank, const CollArgs& a, const Fold& f, int newroot, Address acc, const Offsets& start,
                     const TypeRef& type) {
  const std::int64_t ext = type->extent();
  auto at = [&](int b) { return start[static_cast<std::size_t>(b)]; };
  const int u = f.newrank ^ newroot;
  for (int mask = 1; mask < f.pof2; mask <<= 1) {
    const int partner = f.newrank ^ mask;
    if (u & mask) {
      const int mine = f.newrank & ~(mask - 1);
      co_await send(rank, a, acc + at(mine) * ext, at(mine + mask) - at(mine), type, f.real(partner));
      co_return;
    }
    const int theirs = partner & ~(mask - 1);
    co_await recv(rank, a, acc + at(theirs) * ext, at(theirs + mask) - at(theirs), type, f.real(partner));
  }
}

}  // namespace mpisim::coll::reduction
