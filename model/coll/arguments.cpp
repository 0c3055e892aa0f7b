#include "model/coll/arguments.hpp"

#include <array>
#include <climits>
#include <string>
#include <vector>

#include "model/mpi/overlap.hpp"

namespace mpisim::coll {

namespace {

using mpi::ErrorClass;
using mpi::MpiError;

constexpr std::array<const char*, 18> kParamNames = {
    "buffer",    "count",     "datatype",   "root",    "op",      "sendbuf",  "sendcount", "sendtype",   "sendcounts",
    "sdispls",   "sendtypes", "recvbuf",    "recvcount", "recvtype", "recvcounts", "displs", "rdispls", "recvtypes"};

// The checks of one call, in the order the standard's definitions read the
// arguments; each argument is asked of the source only where it is significant.
class Reader {
 public:
  Reader(Rank& rank, ArgSource& source, CollArgs& a) : rank_(rank), src_(source), a_(a) {}

  void intra();
  void inter();
  // A neighbourhood collective: `in` sources, `out` destinations (MPI-4.1 §8.6).
  void neighbors(int in, int out);

 private:
  using P = Param;

  void need(P p, const char* why) {
    if (src_.given(p)) return;
    const char* name = param_name(p);
    throw MpiError(ErrorClass::arg, name,
                   std::string("parameter ") + name + " is missing" + (*why ? std::string(" ") + why : std::string()),
                   "MPI-4.1 §6.1: an argument that is significant at a process must be given there");
  }
  int rank_arg(P p) {
    const std::int64_t v = src_.integer(p);
    if (v < INT_MIN || v > INT_MAX) {
      const char* name = param_name(p);
      throw MpiError(ErrorClass::arg, name, std::string(name) + " = " + std::to_string(v) + " does not fit an int",
                     "MPI-4.1 §2.5.6: C int arguments");
    }
    return static_cast<int>(v);
  }
  std::int64_t count(P p) {
    const std::int64_t n = src_.integer(p);
    if (n < 0)
      throw MpiError(ErrorClass::count, param_name(p),
                     std::string(param_name(p)) + " = " + std::to_string(n) + " is negative",
                     "MPI-4.1 §3.2.2: counts are non-negative");
    return n;
  }
  // One entry per process of n (MPI-4.1 §6.6, §6.8), or per neighbour of a
  // neighbourhood collective (§8.6); counts are non-negative.
  std::vector<std::int64_t> per_process(P p, int n, bool counts) {
    std::vector<std::int64_t> v = src_.integers(p, static_cast<std::size_t>(n));
    const char* name = param_name(p);
    if (v.size() != static_cast<std::size_t>(n)) {
      if (neighborhood(a_.kind)) {
        const bool out = p == P::sendcounts || p == P::sdispls;
        throw MpiError(ErrorClass::arg, name,
                       std::string(name) + " has " + std::to_string(v.size()) + " entries; the process has " +
                           std::to_string(n) + (out ? " destinations" : " sources") + " in the topology of " +
                           a_.comm->name(),
                       "MPI-4.1 §8.6: the arrays of a neighbourhood collective have one entry per source (receive "
                       "side) or destination (send side) of the calling process");
      }
      throw MpiError(ErrorClass::arg, name,
                     std::string(name) + " has " + std::to_string(v.size()) + " entries; the group has " +
                         std::to_string(n) + " processes",
                     "MPI-4.1 §6.6: sendcounts and displs have one entry per process of the group");
    }
    if (counts)
      for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i] < 0)
          throw MpiError(ErrorClass::count, name,
                         std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(v[i]) + " is negative",
                         "MPI-4.1 §3.2.2: counts are non-negative");
    return v;
  }
  static void require_committed(const TypeRef& t, P p) {
    if (!t->committed())
      throw MpiError(ErrorClass::type, param_name(p), "datatype " + t->name() + " is not committed",
                     "MPI-4.1 §5.1.9: a datatype must be committed before it is used in communication");
  }
  TypeRef committed(P p) {
    TypeRef t = src_.datatype(p);
    require_committed(t, p);
    return t;
  }
  std::vector<TypeRef> types(P p, int n) {
    std::vector<TypeRef> v = src_.datatypes(p, static_cast<std::size_t>(n));
    if (static_cast<int>(v.size()) != n)
      throw MpiError(ErrorClass::arg, param_name(p),
                     std::string(param_name(p)) + " has " + std::to_string(v.size()) + " entries; " +
                         (neighborhood(a_.kind) ? "the process has " + std::to_string(n) +
                                                      (p == P::sendtypes ? " destinations" : " sources")
                                                : "the group has " + std::to_string(n) + " processes"),
                     neighborhood(a_.kind) ? "MPI-4.1 §8.6: sendtypes has one entry per destination, recvtypes one per source"
                                           : "MPI-4.1 §6.8: sendtypes and recvtypes have one entry per process of the group");
    for (const TypeRef& t : v) require_committed(t, p);
    return v;
  }
  // A buffer; MPI_IN_PLACE only where allowed (`rule` says where it is).
  Address buffer(P p, bool in_place_allowed, const char* rule) {
    const Address at = src_.buffer(p);
    if (at == kInPlace && !in_place_allowed)
      throw MpiError(ErrorClass::buffer, param_name(p),
                     std::string("MPI_IN_PLACE as ") + param_name(p) + " is not allowed here", rule);
    return at;
  }
  void check_block(Address at, std::int64_t n, const TypeRef& t, const char* argument) {
    if (at == kInPlace) return;
    mpi::check_access(mpi::TypedBuffer{&rank_.memory(), at, n, t.get()}, mpi::data_bytes(n, *t, argument), argument);
  }
  // Every per-process block of one side (processes 0..n-1) lies in the caller's memory.
  void check_blocks(bool send, int n) {
    for (int i = 0; i < n; ++i) {
      if (send) check_block(a_.sendbuf + a_.send_offset(i), a_.send_count(i), a_.send_type(i), "sendbuf");
      else check_block(a_.recvbuf + a_.recv_offset(i), a_.recv_count(i), a_.recv_type(i), "recvbuf");
    }
  }
  // The root's side of a gather(v) (send = false: recvbuf, recvcount or
  // recvcounts and displs, recvtype) or a scatter(v) (send = true: the send
  // arguments), with one block per process of n, each checked.
  void root_side(bool send, int n, const char* why, const char* buffer_rule) {
    const P buf = send ? P::sendbuf : P::recvbuf, type = send ? P::sendtype : P::recvtype;
    const P cnt = send ? P::sendcount : P::recvcount, counts = send ? P::sendcounts : P::recvcounts;
    need(buf, why);
    need(type, why);
    (send ? a_.sendbuf : a_.recvbuf) = buffer(buf, false, buffer_rule);
    (send ? a_.sendtype : a_.recvtype) = committed(type);
    if (a_.kind == Collective::gather || a_.kind == Collective::scatter) {
      need(cnt, why);
      (send ? a_.sendcount : a_.recvcount) = count(cnt);
    } else {
      need(counts, why);
      need(P::displs, why);
      (send ? a_.per_process().sendcounts : a_.per_process().recvcounts) = per_process(counts, n, true);
      (send ? a_.per_process().sdispls : a_.per_process().rdispls) = per_process(P::displs, n, false);
    }
    check_blocks(send, n);
  }
  // The sum of the receive counts of reduce-scatter, checked.
  static std::int64_t total_count(const CollArgs& a, int p) {
    std::int64_t total = 0;
    for (int i = 0; i < p; ++i)
      if (__builtin_add_overflow(total, a.recv_count(i), &total))
        throw MpiError(ErrorClass::count, "recvcounts", "the sum of recvcounts overflows a 64-bit count",
                       "MPI-4.1 §2.5.8: counts must be representable");
    return total;
  }
  // The receive side of an allgather(v) or alltoall, one block per process of n.
  void all_recv_side(int n, const char* buffer_rule) {
    a_.recvbuf = buffer(P::recvbuf, false, buffer_rule);
    a_.recvtype = committed(P::recvtype);
    if (a_.kind == Collective::allgatherv) {
      a_.per_process().recvcounts = per_process(P::recvcounts, n, true);
      a_.per_process().rdispls = per_process(P::displs, n, false);
    } else {
      a_.recvcount = count(P::recvcount);
    }
    check_blocks(false, n);
  }

  Rank& rank_;
  ArgSource& src_;
  CollArgs& a_;
};

// On an intracommunicator: the root a rank of the group, MPI_IN_PLACE where the
// standard allows it, every block checked.
void Reader::intra() {
  CollArgs& a = a_;
  const int p = a.p, me = a.me;
  const bool is_rooted = rooted(a.kind);
  if (is_rooted) {
    a.root = rank_arg(P::root);
    if (a.root < 0 || a.root >= p)
      throw MpiError(ErrorClass::root, "root",
                     "root = " + std::to_string(a.root) + " is not a rank of " + a.comm->name() + " (size " +
                         std::to_string(p) + ")",
                     "MPI-4.1 §6.1: root must be a valid rank of the group, the same on every process");
  }
  const bool at_root = is_rooted && me == a.root;
  const char* why = "at the root";
  auto send_side = [&](bool in_place_ok, const char* rule) {
    need(P::sendbuf, "");
    a.sendbuf = buffer(P::sendbuf, in_place_ok, rule);
    if (a.in_place()) return;
    need(P::sendcount, "unless sendbuf is MPI_IN_PLACE");
    need(P::sendtype, "unless sendbuf is MPI_IN_PLACE");
    a.sendcount = count(P::sendcount);
    a.sendtype = committed(P::sendtype);
    check_block(a.sendbuf, a.sendcount, a.sendtype, "sendbuf");
  };
  auto reduction = [&](bool in_place_ok, const char* in_place_rule, bool recv_here) {
    a.op = src_.op();
    a.sendtype = a.recvtype = committed(P::datatype);
    need(P::sendbuf, "");
    a.sendbuf = buffer(P::sendbuf, in_place_ok, in_place_rule);
    if (recv_here) {
      need(P::recvbuf, why);
      a.recvbuf = buffer(P::recvbuf, false, "MPI-4.1 §6.9: MPI_IN_PLACE is given as sendbuf, not recvbuf");
    }
  };
  switch (a.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      a.recvbuf = buffer(P::buffer, false, "MPI-4.1 §6.4: MPI_Bcast has no in-place option");
      a.recvcount = count(P::count);
      a.recvtype = committed(P::datatype);
      check_block(a.recvbuf, a.recvcount, a.recvtype, "buffer");
      break;
    case Collective::gather:
    case Collective::gatherv:
      send_side(at_root, "MPI-4.1 §6.5: MPI_IN_PLACE may be given as sendbuf only at the root");
      if (at_root) root_side(false, p, why, "MPI-4.1 §6.5: MPI_IN_PLACE is given as sendbuf, at the root");
      break;
    case Collective::scatter:
    case Collective::scatterv:
      need(P::recvbuf, "");
      a.recvbuf = buffer(P::recvbuf, at_root, "MPI-4.1 §6.6: MPI_IN_PLACE may be given as recvbuf only at the root");
      if (a.recvbuf != kInPlace) {
        need(P::recvcount, "unless recvbuf is MPI_IN_PLACE");
        need(P::recvtype, "unless recvbuf is MPI_IN_PLACE");
        a.recvcount = count(P::recvcount);
        a.recvtype = committed(P::recvtype);
        check_block(a.recvbuf, a.recvcount, a.recvtype, "recvbuf");
      }
      if (at_root) root_side(true, p, why, "MPI-4.1 §6.6: MPI_IN_PLACE is given as recvbuf, at the root");
      break;
    case Collective::allgather:
    case Collective::allgatherv:
    case Collective::alltoall:
      send_side(true, "");
      all_recv_side(p, "MPI-4.1 §6.7: MPI_IN_PLACE is given as sendbuf");
      if (a.kind == Collective::alltoall && !a.in_place()) check_blocks(true, p);
      break;
    case Collective::alltoallv:
    case Collective::alltoallw: {
      const bool w = a.kind == Collective::alltoallw;
      a.sendbuf = buffer(P::sendbuf, true, "");
      a.recvbuf = buffer(P::recvbuf, false, "MPI-4.1 §6.8: MPI_IN_PLACE is given as sendbuf");
      a.per_process().recvcounts = per_process(P::recvcounts, p, true);
      a.per_process().rdispls = per_process(P::rdispls, p, false);
      if (w) a.per_process().recvtypes = types(P::recvtypes, p);
      else a.recvtype = committed(P::recvtype);
      check_blocks(false, p);
      if (!a.in_place()) {
        const char* unless = "unless sendbuf is MPI_IN_PLACE";
        need(P::sendcounts, unless);
        need(P::sdispls, unless);
        need(w ? P::sendtypes : P::sendtype, unless);
        a.per_process().sendcounts = per_process(P::sendcounts, p, true);
        a.per_process().sdispls = per_process(P::sdispls, p, false);
        if (w) a.per_process().sendtypes = types(P::sendtypes, p);
        else a.sendtype = committed(P::sendtype);
        check_blocks(true, p);
      }
      break;
    }
    case Collective::reduce:
      reduction(at_root, "MPI-4.1 §6.9.1: MPI_IN_PLACE may be given as sendbuf only at the root", at_root);
      a.sendcount = a.recvcount = count(P::count);
      check_block(a.sendbuf, a.sendcount, a.sendtype, "sendbuf");
      if (at_root) check_block(a.recvbuf, a.recvcount, a.recvtype, "recvbuf");
      break;
    case Collective::allreduce:
    case Collective::scan:
    case Collective::exscan:
      reduction(true, "", true);
      a.sendcount = a.recvcount = count(P::count);
      check_block(a.sendbuf, a.sendcount, a.sendtype, "sendbuf");
      check_block(a.recvbuf, a.recvcount, a.recvtype, "recvbuf");
      break;
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter: {
      reduction(true, "", true);
      if (a.kind == Collective::reduce_scatter) a.per_process().recvcounts = per_process(P::recvcounts, p, true);
      else a.recvcount = count(P::recvcount);
      const std::int64_t total = total_count(a, p);
      a.sendcount = total;
      check_block(a.sendbuf, total, a.sendtype, "sendbuf");
      check_block(a.recvbuf, a.in_place() ? total : a.recv_count(me), a.recvtype, "recvbuf");
      break;
    }
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw: break;  // read by neighbors()
  }
}

// MPI-4.1 §8.6: the send side has one block (allgather) or one per destination
// (alltoall), the receive side one per source; no MPI_IN_PLACE.
void Reader::neighbors(int in, int out) {
  CollArgs& a = a_;
  const char* no_in_place = "MPI-4.1 §8.6: the neighbourhood collectives have no in-place option";
  const bool v = a.kind == Collective::neighbor_allgatherv || a.kind == Collective::neighbor_alltoallv;
  const bool w = a.kind == Collective::neighbor_alltoallw;
  const bool all_to_all = a.kind != Collective::neighbor_allgather && a.kind != Collective::neighbor_allgatherv;
  a.sendbuf = buffer(P::sendbuf, false, no_in_place);
  if (!all_to_all || !(v || w)) {
    a.sendcount = count(P::sendcount);
    a.sendtype = committed(P::sendtype);
  } else {
    a.per_process().sendcounts = per_process(P::sendcounts, out, true);
    a.per_process().sdispls = per_process(P::sdispls, out, false);
    if (w) a.per_process().sendtypes = types(P::sendtypes, out);
    else a.sendtype = committed(P::sendtype);
  }
  if (all_to_all) check_blocks(true, out);
  else check_block(a.sendbuf, a.sendcount, a.sendtype, "sendbuf");
  a.recvbuf = buffer(P::recvbuf, false, no_in_place);
  if (!(v || w)) {
    a.recvcount = count(P::recvcount);
    a.recvtype = committed(P::recvtype);
  } else {
    a.per_process().recvcounts = per_process(P::recvcounts, in, true);
    a.per_process().rdispls = per_process(all_to_all ? P::rdispls : P::displs, in, false);
    if (w) a.per_process().recvtypes = types(P::recvtypes, in);
    else a.recvtype = committed(P::recvtype);
  }
  check_blocks(false, in);
}

// On an intercommunicator (MPI-4.1 §6.2.2): the root's group passes MPI_ROOT at the
// root and MPI_PROC_NULL elsewhere (those processes' other arguments are not
// significant), the other group the root's rank; per-process arrays address the
// remote group (reduce-scatter's recvcounts: the local one); MPI_IN_PLACE is not
// available.
void Reader::inter() {
  CollArgs& a = a_;
  const int p = a.p, q = a.remote_p;
  const char* no_in_place = "MPI-4.1 §6.2.2: the in-place option is not available on intercommunicators";
  if (a.kind == Collective::scan || a.kind == Collective::exscan)
    throw MpiError(ErrorClass::comm, "comm",
                   std::string(call_name(a)) + " is defined for intracommunicators only, and " + a.comm->name() +
                       " is an intercommunicator",
                   "MPI-4.1 §6.11: the scans take an intracommunicator");
  const bool is_rooted = rooted(a.kind);
  if (is_rooted) {
    a.root = rank_arg(P::root);
    if (a.root != mpi::ROOT && a.root != mpi::PROC_NULL && (a.root < 0 || a.root >= q))
      throw MpiError(ErrorClass::root, "root",
                     "root = " + std::to_string(a.root) +
                         " is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group of " + a.comm->name() +
                         " (size " + std::to_string(q) + ")",
                     "MPI-4.1 §6.2.2: on an intercommunicator the root passes MPI_ROOT, the rest of its group "
                     "MPI_PROC_NULL, the other group the root's rank in the root's group");
    if (a.root == mpi::PROC_NULL) return;  // nothing else is significant
  }
  const bool root = is_rooted && a.root == mpi::ROOT;
  const char* why = "at the root (MPI_ROOT)";
  const char* sender = "in the group that sends to the root";
  // The caller's own single block: its send side, or its receive side.
  auto own = [&](bool send, const char* when) {
    const P buf = send ? P::sendbuf : P::recvbuf, cnt = send ? P::sendcount : P::recvcount;
    const P type = send ? P::sendtype : P::recvtype;
    need(buf, when);
    need(cnt, when);
    need(type, when);
    Address& at = send ? a.sendbuf : a.recvbuf;
    std::int64_t& n = send ? a.sendcount : a.recvcount;
    TypeRef& t = send ? a.sendtype : a.recvtype;
    at = buffer(buf, false, no_in_place);
    n = count(cnt);
    t = committed(type);
    check_block(at, n, t, send ? "sendbuf" : "recvbuf");
  };
  auto reduction = [&](bool send_here, bool recv_here, std::int64_t send_count) {
    a.op = src_.op();
    a.sendtype = a.recvtype = committed(P::datatype);
    a.sendcount = send_count;
    if (send_here) {
      need(P::sendbuf, sender);
      a.sendbuf = buffer(P::sendbuf, false, no_in_place);
      check_block(a.sendbuf, send_count, a.sendtype, "sendbuf");
    }
    if (recv_here) {
      need(P::recvbuf, why);
      a.recvbuf = buffer(P::recvbuf, false, no_in_place);
    }
  };
  switch (a.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      a.recvbuf = buffer(P::buffer, false, no_in_place);
      a.recvcount = count(P::count);
      a.recvtype = committed(P::datatype);
      check_block(a.recvbuf, a.recvcount, a.recvtype, "buffer");
      break;
    case Collective::gather:
    case Collective::gatherv:
      if (!root) {
        own(true, sender);
        break;
      }
      root_side(false, q, why, no_in_place);
      break;
    case Collective::scatter:
    case Collective::scatterv:
      if (!root) {
        own(false, "in the group the root sends to");
        break;
      }
      root_side(true, q, why, no_in_place);
      break;
    case Collective::allgather:
    case Collective::allgatherv:
    case Collective::alltoall:
      own(true, "");
      all_recv_side(q, no_in_place);
      if (a.kind == Collective::alltoall) check_blocks(true, q);
      break;
    case Collective::alltoallv:
    case Collective::alltoallw: {
      const bool w = a.kind == Collective::alltoallw;
      a.sendbuf = buffer(P::sendbuf, false, no_in_place);
      need(P::sendcounts, "");
      need(P::sdispls, "");
      need(w ? P::sendtypes : P::sendtype, "");
      a.per_process().sendcounts = per_process(P::sendcounts, q, true);
      a.per_process().sdispls = per_process(P::sdispls, q, false);
      if (w) a.per_process().sendtypes = types(P::sendtypes, q);
      else a.sendtype = committed(P::sendtype);
      a.recvbuf = buffer(P::recvbuf, false, no_in_place);
      a.per_process().recvcounts = per_process(P::recvcounts, q, true);
      a.per_process().rdispls = per_process(P::rdispls, q, false);
      if (w) a.per_process().recvtypes = types(P::recvtypes, q);
      else a.recvtype = committed(P::recvtype);
      check_blocks(true, q);
      check_blocks(false, q);
      break;
    }
    case Collective::reduce: {
      const std::int64_t n = count(P::count);
      reduction(!root, root, n);
      a.recvcount = n;
      if (root) check_block(a.recvbuf, n, a.recvtype, "recvbuf");
      break;
    }
    case Collective::allreduce: {
      const std::int64_t n = count(P::count);
      reduction(true, true, n);
      a.recvcount = n;
      check_block(a.recvbuf, n, a.recvtype, "recvbuf");
      break;
    }
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter: {
      if (a.kind == Collective::reduce_scatter) a.per_process().recvcounts = per_process(P::recvcounts, p, true);
      else a.recvcount = count(P::recvcount);
      const std::int64_t total = total_count(a, p);
      reduction(true, true, total);
      check_block(a.recvbuf, a.recv_count(a.me), a.recvtype, "recvbuf");
      break;
    }
    case Collective::scan:
    case Collective::exscan:
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw: break;  // no topology on an intercommunicator: refused before
  }
}

std::string block_name(const char* buffer, int block, bool many) {
  if (!many || block < 0) return buffer;
  return std::string(buffer) + "'s block for process " + std::to_string(block);
}

// MPI-4.1 §2.3: what the call writes at this process shares no byte with what it
// reads. And the definitions of the vector collectives: no location is written
// twice (gather, allgather, alltoall and their v and w forms), none of a scatter's
// root read twice. Only arguments significant at this process take part.
void check_aliasing(Rank& rank, const CollArgs& a) {
  auto overlap = [&](std::optional<mpi::Overlap> o, bool recv_blocks, bool send_blocks) {
    if (!o) return;
    throw MpiError(ErrorClass::buffer, "recvbuf",
                   block_name("recvbuf", o->block_a, recv_blocks) + " and " +
                       block_name("sendbuf", o->block_b, send_blocks) + " both hold " +
                       mpi::describe_bytes(rank.memory(), o->first, o->bytes) +
                       ": the receive buffer overlaps the send buffer",
                   std::string("MPI-4.1 §2.3: an OUT argument must not be aliased with any other argument") +
                       (a.inter() ? "" : "; MPI_IN_PLACE is the way to give one buffer for both"));
  };
  if (a.kind == Collective::barrier || a.kind == Collective::bcast) return;
  if (reduces(a.kind)) {  // one block each side, no vectors (the hot path of large runs)
    if (a.in_place() || (a.kind == Collective::reduce && (!a.is_root() || a.inter()))) return;
    const bool scatter = a.kind == Collective::reduce_scatter || a.kind == Collective::reduce_scatter_block;
    const mpi::Region s{a.sendbuf, a.sendcount, a.sendtype.get()};
    const mpi::Region r{a.recvbuf, scatter ? a.recv_count(a.me) : a.recvcount, a.recvtype.get()};
    overlap(mpi::find_overlap({&r, 1}, {&s, 1}), false, false);
    return;
  }
  std::vector<mpi::Region> send, recv;
  bool send_blocks = false, recv_blocks = false;
  for (const Touched& t : touched(a)) {
    (t.writes ? recv : send).push_back({t.addr, t.count, t.type.get(), t.block});
    (t.writes ? recv_blocks : send_blocks) |= t.block >= 0;
  }
  auto twice = [&](const std::vector<mpi::Region>& side, bool reads, const char* section) {
    const auto o = mpi::find_self_overlap(side);
    if (!o) return;
    const char* buf = reads ? "sendbuf" : "recvbuf";
    throw MpiError(ErrorClass::arg, buf,
                   std::string(buf) + "'s blocks for processes " + std::to_string(std::min(o->block_a, o->block_b)) +
                       " and " + std::to_string(std::max(o->block_a, o->block_b)) + " both hold " +
                       mpi::describe_bytes(rank.memory(), o->first, o->bytes) + ": the call would " +
                       (reads ? "read" : "write") + " that location twice",
                   std::string("MPI-4.1 ") + section + ": the counts, types and displacements must not cause any " +
                       "location" + (rooted(a.kind) ? " on the root" : "") + " to be " + (reads ? "read" : "written") +
                       " more than once");
  };
  switch (a.kind) {
    case Collective::gather:
    case Collective::gatherv: twice(recv, false, "§6.5"); break;
    case Collective::scatter:
    case Collective::scatterv: twice(send, true, "§6.6"); break;
    case Collective::allgather:
    case Collective::allgatherv: twice(recv, false, "§6.7"); break;
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw: twice(recv, false, "§8.6"); break;
    default: twice(recv, false, "§6.8"); break;  // the alltoalls
  }
  overlap(mpi::find_overlap(recv, send), recv_blocks, send_blocks);
}

}  // namespace

std::vector<Touched> touched(const CollArgs& a) {
  std::vector<Touched> out;
  if (a.inter() && rooted(a.kind) && a.root == mpi::PROC_NULL) return out;  // nothing significant
  if (neighborhood(a.kind)) {
    const mpi::Topology& t = *a.comm->topology();
    const auto in = static_cast<int>(t.sources(a.me).size()), out_degree = static_cast<int>(t.destinations(a.me).size());
    const bool all_to_all = a.kind != Collective::neighbor_allgather && a.kind != Collective::neighbor_allgatherv;
    if (all_to_all)
      for (int i = 0; i < out_degree; ++i)
        out.push_back({a.sendbuf + a.send_offset(i), a.send_count(i), a.send_type(i), i, false, "sendbuf"});
    else
      out.push_back({a.sendbuf, a.sendcount, a.sendtype, -1, false, "sendbuf"});
    for (int i = 0; i < in; ++i)
      out.push_back({a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recv_type(i), i, true, "recvbuf"});
    return out;
  }
  const bool root = a.is_root();
  const int n = a.peers();
  auto own_send = [&] { out.push_back({a.sendbuf, a.sendcount, a.sendtype, -1, false, "sendbuf"}); };
  auto own_recv = [&](std::int64_t count) { out.push_back({a.recvbuf, count, a.recvtype, -1, true, "recvbuf"}); };
  // Block `skip` (the caller's own, left in place) is neither read nor written.
  auto blocks = [&](bool send, int skip) {
    for (int i = 0; i < n; ++i)
      if (i != skip) {
        if (send) out.push_back({a.sendbuf + a.send_offset(i), a.send_count(i), a.send_type(i), i, false, "sendbuf"});
        else out.push_back({a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recv_type(i), i, true, "recvbuf"});
      }
  };
  const int own = a.in_place() && !a.inter() ? a.me : -1;
  switch (a.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      out.push_back({a.recvbuf, a.recvcount, a.recvtype, -1, !root, "buffer"});
      break;
    case Collective::gather:
    case Collective::gatherv:
      if (root) blocks(false, own);
      if (!(root && (a.inter() || a.in_place()))) own_send();
      break;
    case Collective::scatter:
    case Collective::scatterv:
      if (root) blocks(true, -1);
      if (!root || (!a.inter() && a.recvbuf != kInPlace)) own_recv(a.recvcount);
      break;
    case Collective::allgather:
    case Collective::allgatherv:
      blocks(false, own);
      if (!a.in_place()) own_send();
      break;
    case Collective::alltoall:
    case Collective::alltoallv:
    case Collective::alltoallw:
      blocks(false, -1);
      if (!a.in_place()) blocks(true, -1);
      break;
    case Collective::reduce:
      if (a.inter()) {
        if (root) own_recv(a.recvcount);
        else own_send();
        break;
      }
      if (!a.in_place()) own_send();
      if (root) own_recv(a.recvcount);
      break;
    case Collective::allreduce:
    case Collective::scan:
    case Collective::exscan:
      if (!a.in_place()) own_send();
      own_recv(a.recvcount);
      break;
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter:
      if (!a.in_place()) own_send();
      own_recv(a.in_place() ? a.sendcount : a.recv_count(a.me));
      break;
    default: break;  // the neighbourhood collectives: above
  }
  return out;
}

const char* param_name(Param p) { return kParamNames[static_cast<std::size_t>(p)]; }

CollArgs read_arguments(Rank& rank, Collective kind, Form form, const Communicator& comm, ArgSource& source) {
  CollArgs a;
  a.kind = kind;
  a.form = form;
  a.comm = &comm;
  a.p = comm.size();
  a.me = comm.rank_of(rank.id(), rank.id());
  Reader reader(rank, source, a);
  if (neighborhood(kind)) {
    const mpi::Topology& t = mpi::any_topology_of(comm, "comm");
    reader.neighbors(static_cast<int>(t.sources(a.me).size()), static_cast<int>(t.destinations(a.me).size()));
  } else if (comm.is_inter()) {
    a.remote_p = comm.peer_count();
    reader.inter();
  } else {
    reader.intra();
  }
  // MPI-4.1 §6.9.2: the op must be defined on the datatype.
  if (a.op) mpi::check_op_type(*a.op, *a.recvtype, a.sendcount, "op");
  check_aliasing(rank, a);
  return a;
}

}  // namespace mpisim::coll
