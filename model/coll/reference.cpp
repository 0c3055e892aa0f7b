// The standard's definition of every collective's result, computed directly from
// the members' contributions (MPI-4.1 chapter 6), to verify the algorithms:
//  - bcast: every buffer equals the root's;
//  - gather(v): the root's block i equals rank i's send buffer;
//  - scatter(v): rank i's buffer equals the root's block i;
//  - allgather(v): block i equals rank i's send buffer, at every rank;
//  - alltoall(v/w): block i at rank j equals rank i's block j;
//  - on an intercommunicator the same with the remote group's contributions (by
//    remote rank), the root passing MPI_ROOT (MPI-4.1 §6.2.2);
//  - neighbourhood collectives (MPI-4.1 §8.6): block k at rank r, from its k-th
//    source s, equals what s sends along that edge (its send buffer for
//    allgather(v), its block Topology::send_block for alltoall(v/w)); an
//    MPI_PROC_NULL source's block is not checked (the call leaves it alone);
//  - reductions: the operation applied to the contributions in rank order
//    (c0 op c1 op ... — for reduce and allreduce all of them, for reduce_scatter
//    the caller's block of that, for scan ranks 0..i, for exscan 0..i-1).
// Data are compared packed, as bytes; floating-point results of reductions with a
// relative tolerance, since the standard lets an implementation associate them
// in any order (MPI-4.1 §6.9.1).
#include <cmath>
#include <cstring>

#include "model/coll/coordinator.hpp"

namespace mpisim::coll::reference {
namespace {

std::vector<std::byte> pack(Rank& rank, Address at, std::int64_t count, const TypeRef& t) {
  std::vector<std::byte> out(static_cast<std::size_t>(count * t->size()));
  if (!out.empty()) mpi::pack(typed(rank, at, count, t), count * t->size(), out.data());
  return out;
}

void append(std::vector<std::byte>& out, const std::vector<std::byte>& part) { out.insert(out.end(), part.begin(), part.end()); }

double as_double(const std::byte* p, std::int64_t size) {
  if (size == 4) { float f; std::memcpy(&f, p, 4); return f; }
  if (size == 8) { double d; std::memcpy(&d, p, 8); return d; }
  long double ld; std::memcpy(&ld, p, sizeof ld); return static_cast<double>(ld);
}

// Equal, floating elements within a relative tolerance; else the first differing element's index.
std::string compare(const std::vector<std::byte>& want, const std::vector<std::byte>& got, const TypeRef& t,
                    bool tolerant, const std::string& what) {
  if (want.size() != got.size()) return what + ": " + std::to_string(got.size()) + " bytes, expected " + std::to_string(want.size());
  if (want == got) return {};
  std::size_t off = 0;
  std::int64_t element = 0;
  while (off < want.size()) {
    for (const auto& run : t->signature()) {
      const mpi::BasicType& b = mpi::basic_type(run.basic);
      for (std::int64_t k = 0; k < run.count && off < want.size(); ++k, ++element, off += static_cast<std::size_t>(b.size)) {
        if (std::memcmp(want.data() + off, got.data() + off, static_cast<std::size_t>(b.size)) == 0) continue;
        if (tolerant && (b.kind == mpi::ElementKind::floating || b.kind == mpi::ElementKind::complex)) {
          const std::int64_t part = b.kind == mpi::ElementKind::complex ? b.size / 2 : b.size;
          bool close = true;
          for (std::int64_t q = 0; q < b.size; q += part) {
            double x = as_double(want.data() + off + q, part), y = as_double(got.data() + off + q, part);
            if (!(std::fabs(x - y) <= 1e-6 * std::max({1.0, std::fabs(x), std::fabs(y)}))) close = false;
          }
          if (close) continue;
        }
        return what + ": basic element " + std::to_string(element) + " (" + std::string(b.name) + ") differs";
      }
    }
    if (t->signature().empty()) break;
  }
  return {};
}

// c0 op c1 op ... op c(n-1), left to right, on packed data; a user function runs
// for rank `acting`.
std::vector<std::byte> fold(const mpi::Op& op, const TypeRef& t, std::int64_t count, const Contributions& all, int from,
                            int to, std::int64_t acting) {
  std::vector<std::byte> acc = *all[static_cast<std::size_t>(from)].second;
  for (int i = from + 1; i < to; ++i) {
    std::vector<std::byte> next = *all[static_cast<std::size_t>(i)].second;
    mpi::reduce_packed(op, *t, count, acc.data(), next.data(), acting);  // next = acc op next
    acc = std::move(next);
  }
  return acc;
}

}  // namespace

std::vector<std::byte> contribution(Rank& rank, const CollArgs& a, std::vector<std::int64_t>* at) {
  std::vector<std::byte> out;
  // On an intercommunicator the root's group brings nothing but the root's own data
  // to the collectives that flow towards the root.
  if (a.inter() && rooted(a.kind) &&
      (a.root == mpi::PROC_NULL || (a.root == mpi::ROOT && (a.kind == Collective::gather ||
                                                             a.kind == Collective::gatherv || a.kind == Collective::reduce))))
    return out;
  switch (a.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      if (a.is_root()) out = pack(rank, a.recvbuf, a.recvcount, a.recvtype);
      break;
    case Collective::gather:
    case Collective::gatherv:
    case Collective::allgather:
    case Collective::allgatherv:
      if (a.in_place()) out = pack(rank, a.recvbuf + a.recv_offset(a.me), a.recv_count(a.me), a.recvtype);
      else out = pack(rank, a.sendbuf, a.sendcount, a.sendtype);
      break;
    case Collective::scatter:
    case Collective::scatterv:
      if (!a.is_root()) break;
      for (int i = 0; i < a.peers(); ++i) {
        at->push_back(static_cast<std::int64_t>(out.size()));
        append(out, pack(rank, a.sendbuf + a.send_offset(i), a.send_count(i), a.sendtype));
      }
      at->push_back(static_cast<std::int64_t>(out.size()));
      break;
    case Collective::alltoall:
    case Collective::alltoallv:
    case Collective::alltoallw:
      for (int i = 0; i < a.peers(); ++i) {
        at->push_back(static_cast<std::int64_t>(out.size()));
        if (a.in_place()) append(out, pack(rank, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recv_type(i)));
        else append(out, pack(rank, a.sendbuf + a.send_offset(i), a.send_count(i), a.send_type(i)));
      }
      at->push_back(static_cast<std::int64_t>(out.size()));
      break;
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::scan:
    case Collective::exscan:
      out = pack(rank, a.in_place() ? a.recvbuf : a.sendbuf, a.sendcount, a.sendtype);
      break;
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter: {
      std::int64_t total = 0;
      for (int i = 0; i < a.p; ++i) total += a.recv_count(i);
      out = pack(rank, a.in_place() ? a.recvbuf : a.sendbuf, total, a.recvtype);
      break;
    }
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
      out = pack(rank, a.sendbuf, a.sendcount, a.sendtype);
      break;
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw: {
      const auto out_degree = static_cast<int>(a.comm->topology()->destinations(a.me).size());
      for (int j = 0; j < out_degree; ++j) {
        at->push_back(static_cast<std::int64_t>(out.size()));
        append(out, pack(rank, a.sendbuf + a.send_offset(j), a.send_count(j), a.send_type(j)));
      }
      at->push_back(static_cast<std::int64_t>(out.size()));
      break;
    }
  }
  return out;
}

std::string verify(Rank& rank, const CollArgs& a, const Contributions& all,
                   const std::vector<const std::vector<std::int64_t>*>& offsets) {
  auto present = [&](int r) -> const std::vector<std::byte>& {
    const auto& c = all[static_cast<std::size_t>(r)];
    if (!c.first) throw std::logic_error("rank " + std::to_string(r) + " had not entered when rank " +
                                         std::to_string(a.me) + " left the collective that needs its data");
    return *c.second;
  };
  auto slice = [&](int r, int block) {
    const auto& at = *offsets[static_cast<std::size_t>(r)];
    const auto& c = present(r);
    return std::vector<std::byte>(c.begin() + at[static_cast<std::size_t>(block)], c.begin() + at[static_cast<std::size_t>(block) + 1]);
  };
  switch (a.kind) {
    case Collective::barrier: return {};
    case Collective::bcast:
      if (a.is_root() || (a.inter() && a.root == mpi::PROC_NULL)) return {};
      return compare(present(a.root), pack(rank, a.recvbuf, a.recvcount, a.recvtype), a.recvtype, false, "buffer");
    case Collective::gather:
    case Collective::gatherv:
      if (!a.is_root()) return {};
      [[fallthrough]];
    case Collective::allgather:
    case Collective::allgatherv:
      for (int i = 0; i < a.peers(); ++i) {
        std::string d = compare(present(i), pack(rank, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recvtype),
                                a.recvtype, false, "recvbuf block " + std::to_string(i));
        if (!d.empty()) return d;
      }
      return {};
    case Collective::scatter:
    case Collective::scatterv:
      if (a.is_root() && a.recvbuf == kInPlace) return {};
      if (a.inter() && (a.is_root() || a.root == mpi::PROC_NULL)) return {};
      return compare(slice(a.root, a.me), pack(rank, a.recvbuf, a.recvcount, a.recvtype), a.recvtype, false, "recvbuf");
    case Collective::alltoall:
    case Collective::alltoallv:
    case Collective::alltoallw:
      for (int i = 0; i < a.peers(); ++i) {
        std::string d = compare(slice(i, a.me), pack(rank, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recv_type(i)),
                                a.recv_type(i), false, "recvbuf block " + std::to_string(i));
        if (!d.empty()) return d;
      }
      return {};
    case Collective::reduce:
    case Collective::allreduce: {
      if (a.kind == Collective::reduce && !a.is_root()) return {};
      for (int i = 0; i < a.peers(); ++i) present(i);
      return compare(fold(*a.op, a.recvtype, a.recvcount, all, 0, a.peers(), rank.id()), pack(rank, a.recvbuf, a.recvcount, a.recvtype),
                     a.recvtype, true, "recvbuf");
    }
    case Collective::scan:
    case Collective::exscan: {
      const int to = a.kind == Collective::scan ? a.me + 1 : a.me;
      if (to == 0) return {};
      for (int i = 0; i < to; ++i) present(i);
      return compare(fold(*a.op, a.recvtype, a.recvcount, all, 0, to, rank.id()), pack(rank, a.recvbuf, a.recvcount, a.recvtype),
                     a.recvtype, true, "recvbuf");
    }
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter: {
      std::int64_t total = 0, start = 0;
      for (int i = 0; i < a.p; ++i) {  // the caller's group's blocks
        if (i == a.me) start = total;
        total += a.recv_count(i);
      }
      for (int i = 0; i < a.peers(); ++i) present(i);  // the contributing group (the remote one on an intercommunicator)
      std::vector<std::byte> full = fold(*a.op, a.recvtype, total, all, 0, a.peers(), rank.id());
      const std::int64_t size = a.recvtype->size();
      std::vector<std::byte> mine(full.begin() + start * size, full.begin() + (start + a.recv_count(a.me)) * size);
      return compare(mine, pack(rank, a.recvbuf, a.recv_count(a.me), a.recvtype), a.recvtype, true, "recvbuf");
    }
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw: {
      const mpi::Topology& t = *a.comm->topology();
      const std::vector<int> in = t.sources(a.me);
      const bool all_to_all = a.kind != Collective::neighbor_allgather && a.kind != Collective::neighbor_allgatherv;
      for (int k = 0; k < static_cast<int>(in.size()); ++k) {
        const int s = in[static_cast<std::size_t>(k)];
        if (s == mpi::PROC_NULL) continue;
        std::vector<std::byte> want;
        if (all_to_all) {
          const int j = t.send_block(a.me, k);
          if (j < 0) return "recvbuf block " + std::to_string(k) + ": rank " + std::to_string(s) + " has no edge to rank " +
                            std::to_string(a.me) + " for it";
          want = slice(s, j);
        } else {
          want = present(s);
        }
        std::string d = compare(want, pack(rank, a.recvbuf + a.recv_offset(k), a.recv_count(k), a.recv_type(k)),
                                a.recv_type(k), false, "recvbuf block " + std::to_string(k) + " (from rank " +
                                                           std::to_string(s) + ")");
        if (!d.empty()) return d;
      }
      return {};
    }
  }
  return {};
}

}  // namespace mpisim::coll::reference
