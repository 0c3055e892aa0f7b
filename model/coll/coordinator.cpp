#include "model/coll/coordinator.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/coll/arguments.hpp"

namespace mpisim::coll {
namespace {

using mpi::ErrorClass;
using mpi::MpiError;

const char* const kOrderRule =
    "MPI-4.1 §6.14: all processes of a communicator must call the same collective operations in the same order";

std::string sig(std::int64_t count, const TypeRef& t) { return std::to_string(count) + " x " + t->name(); }

// Whether (count, t) and (count2, t2) have the same type signature (MPI-4.1 §3.3.1,
// §6.1: in a collective the amount of data sent must equal the amount received).
bool same_signature(std::int64_t count, const TypeRef& t, std::int64_t count2, const TypeRef& t2) {
  if (count * t->size() != count2 * t2->size()) return false;
  return mpi::match_signatures(*t, count, *t2, count2).kind == mpi::MatchResult::match;
}

std::string who(const CollArgs& a) { return "rank " + std::to_string(a.me) + " of " + a.comm->name(); }

[[noreturn]] void signature_error(const char* argument, const CollArgs& mine, std::int64_t c1, const TypeRef& t1,
                                  const CollArgs& other, const char* other_side, std::int64_t c2, const TypeRef& t2,
                                  const std::string& section) {
  throw MpiError(ErrorClass::type, argument,
                 who(mine) + " gives " + sig(c1, t1) + " (" + argument + ") where " + who(other) + " " + other_side +
                     " " + sig(c2, t2) + ": the type signatures differ",
                 "MPI-4.1 " + section +
                     ": the type signature of the data sent must equal that of the data received, pairwise between "
                     "processes");
}

[[noreturn]] void in_place_mismatch(const CollArgs& a, const CollArgs& f, const std::string& section) {
  auto what = [](const CollArgs& x) { return x.in_place() ? " passes MPI_IN_PLACE" : " passes a send buffer"; };
  throw MpiError(ErrorClass::buffer, "sendbuf", who(a) + what(a) + " where " + who(f) + what(f),
                 "MPI-4.1 " + section + ": the in-place option is chosen by passing MPI_IN_PLACE as sendbuf at all processes");
}

// The (count, type) of block j of a's send side / receive side.
std::pair<std::int64_t, TypeRef> send_block(const CollArgs& a, int j) {
  if (a.in_place()) return {a.recv_count(j), a.recv_type(j)};
  return {a.send_count(j), a.send_type(j)};
}

}  // namespace

int Coordinator::member_index(const Rank& rank, const CollArgs& a, int* members) const {
  *members = a.p + a.remote_p;
  // An intercommunicator's members: the low group's ranks first, then the high group's.
  if (a.inter() && !low_group(rank, a)) return a.remote_p + a.me;
  return a.me;
}

Coordinator::Key Coordinator::key_of(const Rank& rank, const CollArgs& a) {
  // MPI_COMM_SELF is one communicator per process: each has its own instances.
  return {a.comm->is_self() ? 0xffffffffu - rank.id() : a.comm->base_context(), a.instance, a.start};
}

Coordinator::Instance& Coordinator::deposit(Rank& rank, CollArgs&& args, int index, int members, Key key) {
  Instance& in = instances_[key];
  if (in.members.empty()) {
    in.members.resize(static_cast<std::size_t>(members));
    in.started = rank.now();
  }
  Member& m = in.members[static_cast<std::size_t>(index)];
  m.args = std::move(args);
  m.present = true;
  m.world = rank.id();
  const CollArgs& a = m.args;
  if (in.first < 0) in.first = index;
  ++in.entered;
  check(in, index);
  if (a.inter()) {
    const int side = low_group(rank, a) ? 0 : 1;
    if (in.first_in[side] < 0) in.first_in[side] = index;
    if (rooted(a.kind) && a.root == mpi::ROOT) in.root_in[side] = index;
  }
  if (verify_ && world_.payload() == mpi::PayloadMode::data) {
    m.contribution = std::make_unique<Member::Contribution>();
    m.contribution->bytes = reference::contribution(rank, a, &m.contribution->at);
  }
  return in;
}

void Coordinator::check(const Instance& in, int index) const {
  const CollArgs& a = in.members[static_cast<std::size_t>(index)].args;
  const CollArgs& f = in.members[static_cast<std::size_t>(in.first)].args;
  // MPI-4.1 §6.12, §6.13: a nonblocking collective matches only the same
  // nonblocking collective, a persistent one only the same persistent one.
  if (a.kind != f.kind || a.form != f.form)
    throw MpiError(ErrorClass::other, "comm",
                   who(a) + " calls " + call_name(a) + " as collective call #" + std::to_string(a.instance + 1) +
                       " on " + a.comm->name() + ", where " + who(f) + " calls " + call_name(f),
                   a.kind == f.kind ? std::string(kOrderRule) +
                                          "; blocking, nonblocking and persistent collectives never match one "
                                          "another (§6.12, §6.13)"
                                    : std::string(kOrderRule) +
                                          (a.nonblocking() || f.nonblocking()
                                               ? "; blocking, nonblocking and persistent collectives are matched in "
                                                 "the order they are issued (§6.12, §6.13)"
                                               : ""));
  if (a.inter()) {
    check_inter(in, index);
    return;
  }
  if (rooted(a.kind) && a.root != f.root)
    throw MpiError(ErrorClass::root, "root",
                   who(a) + " gives root = " + std::to_string(a.root) + " where " + who(f) + " gives root = " +
                       std::to_string(f.root),
                   "MPI-4.1 §6.1: root must have the same value at all processes");
  if (reduces(a.kind)) {
    if (a.op->name != f.op->name || a.op->function != f.op->function)
      throw MpiError(ErrorClass::op, "op",
                     who(a) + " gives op " + a.op->name + " where " + who(f) + " gives " + f.op->name,
                     "MPI-4.1 §6.9.1: op must be the same at all processes");
  }
  auto member = [&](int r) -> const CollArgs* {
    const auto& m = in.members[static_cast<std::size_t>(r)];
    return m.present ? &m.args : nullptr;
  };
  switch (a.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      if (!same_signature(a.recvcount, a.recvtype, f.recvcount, f.recvtype))
        signature_error("count", a, a.recvcount, a.recvtype, f, "gives", f.recvcount, f.recvtype, "§6.4");
      break;
    case Collective::scatter:
    case Collective::scatterv:
    case Collective::gather:
    case Collective::gatherv: {
      // The root's block i against rank i's own side.
      const bool scatter = a.kind == Collective::scatter || a.kind == Collective::scatterv;
      const std::string section = scatter ? "§6.6" : "§6.5";
      auto pair_check = [&](const CollArgs& root, const CollArgs& r, const CollArgs& reporter) {
        if (r.me == root.me) {
          // The root's own block goes from its send side to its receive side, unless
          // one of them is MPI_IN_PLACE: the same rule holds (every algorithm would
          // otherwise move a different amount).
          if (root.in_place() || root.recvbuf == kInPlace) return;
          const std::int64_t sc = root.send_count(root.me), rc = root.recv_count(root.me);
          if (!same_signature(sc, root.sendtype, rc, root.recvtype))
            throw MpiError(ErrorClass::type, scatter ? "recvcount" : "sendcount",
                           who(root) + ", the root, sends its own block as " + sig(sc, root.sendtype) +
                               " and receives it as " + sig(rc, root.recvtype) + ": the type signatures differ",
                           "MPI-4.1 " + section +
                               ": the type signature of the data sent must equal that of the data received, the "
                               "root's own block included");
          return;
        }
        if (scatter) {
          if (!same_signature(root.send_count(r.me), root.sendtype, r.recvcount, r.recvtype))
            signature_error("recvcount", reporter, r.recvcount, r.recvtype, root, "sends it", root.send_count(r.me),
                            root.sendtype, section);
        } else if (!same_signature(r.sendcount, r.sendtype, root.recv_count(r.me), root.recvtype)) {
          signature_error("sendcount", reporter, r.sendcount, r.sendtype, root, "expects from it",
                          root.recv_count(r.me), root.recvtype, section);
        }
      };
      if (a.me == a.root) {
        for (int r = 0; r < a.p; ++r)
          if (const CollArgs* o = member(r)) pair_check(a, *o, *o);
      } else if (const CollArgs* root = member(a.root)) {
        pair_check(*root, a, a);
      }
      break;
    }
    case Collective::allgather:
    case Collective::allgatherv:
    case Collective::alltoall:
    case Collective::alltoallv:
    case Collective::alltoallw: {
      const bool all_to_all = a.kind == Collective::alltoall || a.kind == Collective::alltoallv || a.kind == Collective::alltoallw;
      const std::string section = all_to_all ? "§6.8" : "§6.7";
      if (a.in_place() != f.in_place())
        in_place_mismatch(a, f, section);
      const bool uniform = a.kind == Collective::allgather || a.kind == Collective::alltoall;
      // What i sends to j against what j expects from i.
      auto pair_check = [&](const CollArgs& i, const CollArgs& j) {
        auto [sc, st] = send_block(i, all_to_all ? j.me : 0);
        if (!all_to_all && i.in_place()) std::tie(sc, st) = std::pair{i.recv_count(i.me), i.recv_type(i.me)};
        if (!same_signature(sc, st, j.recv_count(i.me), j.recv_type(i.me)))
          signature_error("recvcount", j, j.recv_count(i.me), j.recv_type(i.me), i, "sends it", sc, st, section);
      };
      if (uniform) {
        pair_check(a, f);
        pair_check(f, a);
      } else {
        for (int r = 0; r < a.p; ++r)
          if (const CollArgs* o = member(r)) {
            pair_check(a, *o);
            if (o != &a) pair_check(*o, a);
          }
      }
      break;
    }
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::scan:
    case Collective::exscan:
      if (!same_signature(a.sendcount, a.sendtype, f.sendcount, f.sendtype))
        signature_error("count", a, a.sendcount, a.sendtype, f, "gives", f.sendcount, f.sendtype, "§6.9.1");
      if (a.kind == Collective::allreduce && a.in_place() != f.in_place())
        in_place_mismatch(a, f, "§6.9.6");
      break;
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter:
      if (a.kind == Collective::reduce_scatter) {
        if (a.recvcounts() != f.recvcounts()) {
          std::size_t k = 0;
          while (k < a.recvcounts().size() && a.recvcounts()[k] == f.recvcounts()[k]) ++k;
          throw MpiError(ErrorClass::count, "recvcounts",
                         who(a) + " gives recvcounts[" + std::to_string(k) + "] = " + std::to_string(a.recvcounts()[k]) +
                             " where " + who(f) + " gives " + std::to_string(f.recvcounts()[k]),
                         "MPI-4.1 §6.10.1: recvcounts must be identical on all processes");
        }
      } else if (a.recvcount != f.recvcount) {
        throw MpiError(ErrorClass::count, "recvcount",
                       who(a) + " gives recvcount = " + std::to_string(a.recvcount) + " where " + who(f) + " gives " +
                           std::to_string(f.recvcount),
                       "MPI-4.1 §6.10.2: recvcount must be the same on all processes");
      }
      if (!same_signature(1, a.recvtype, 1, f.recvtype))
        signature_error("datatype", a, 1, a.recvtype, f, "gives", 1, f.recvtype, "§6.10.1");
      if (a.in_place() != f.in_place())
        in_place_mismatch(a, f, "§6.10.1");
      break;
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw: {
      // Along every edge between a and a member present: what the source sends
      // in that edge's block against what the destination receives in its block.
      const mpi::Topology& t = *a.comm->topology();
      const bool all_to_all = a.kind != Collective::neighbor_allgather && a.kind != Collective::neighbor_allgatherv;
      auto edge_check = [&](const CollArgs& from, int j, const CollArgs& to, int k, const CollArgs& reporter) {
        const std::int64_t sc = all_to_all ? from.send_count(j) : from.sendcount;
        const TypeRef& st = all_to_all ? from.send_type(j) : from.sendtype;
        if (!same_signature(sc, st, to.recv_count(k), to.recv_type(k)))
          signature_error(&reporter == &to ? "recvcount" : "sendcount", reporter,
                          &reporter == &to ? to.recv_count(k) : sc, &reporter == &to ? to.recv_type(k) : st,
                          &reporter == &to ? from : to, &reporter == &to ? "sends it" : "expects from it",
                          &reporter == &to ? sc : to.recv_count(k), &reporter == &to ? st : to.recv_type(k), "§8.6");
      };
      const std::vector<int> in = t.sources(a.me), out = t.destinations(a.me);
      for (int k = 0; k < static_cast<int>(in.size()); ++k) {
        const int s = in[static_cast<std::size_t>(k)];
        if (s == mpi::PROC_NULL || s == a.me) continue;
        if (const CollArgs* o = member(s)) {
          const int j = t.send_block(a.me, k);
          if (j >= 0) edge_check(*o, j, a, k, a);
        }
      }
      for (int j = 0; j < static_cast<int>(out.size()); ++j) {
        const int d = out[static_cast<std::size_t>(j)];
        if (d == mpi::PROC_NULL) continue;
        const CollArgs* o = d == a.me ? &a : member(d);
        if (!o) continue;
        const int k = t.recv_block(a.me, j);
        if (k >= 0) edge_check(a, j, *o, k, a);
      }
      break;
    }
  }
}

// An intercommunicator's call against the members that entered before it: the
// root arguments (MPI-4.1 §6.2.2), the op, and the type signatures between the
// groups where both sides' arguments say how much moves.
void Coordinator::check_inter(const Instance& in, int index) const {
  const CollArgs& a = in.members[static_cast<std::size_t>(index)].args;
  const std::string section = "MPI-4.1 §6.2.2";
  auto root_text = [](int r) {
    return r == mpi::ROOT ? std::string("MPI_ROOT") : r == mpi::PROC_NULL ? std::string("MPI_PROC_NULL") : std::to_string(r);
  };
  // Against the first member of each group and the root (O(1) per member): the
  // pairs a rule relates are each checked when the later of the two enters.
  const int candidates[] = {in.first_in[0], in.first_in[1], in.root_in[0], in.root_in[1]};
  for (int c = 0; c < 4; ++c) {
    const int k = candidates[c];
    if (k < 0 || k == index || std::find(candidates, candidates + c, k) != candidates + c) continue;  // absent, self, or seen
    const CollArgs& o = in.members[static_cast<std::size_t>(k)].args;
    const bool same_group = o.comm == a.comm;  // each side has its own view of the intercommunicator
    if (rooted(a.kind)) {
      const bool a_root_group = a.root == mpi::ROOT || a.root == mpi::PROC_NULL;
      const bool o_root_group = o.root == mpi::ROOT || o.root == mpi::PROC_NULL;
      std::string problem;
      if (same_group && a_root_group != o_root_group)
        problem = "in one group either every process passes MPI_ROOT or MPI_PROC_NULL (the root's group) or none does";
      else if (same_group && a.root == mpi::ROOT && o.root == mpi::ROOT)
        problem = "only one process of the root's group passes MPI_ROOT";
      else if (same_group && !a_root_group && a.root != o.root)
        problem = "the other group's processes must all name the same root";
      else if (!same_group && a_root_group == o_root_group)
        problem = a_root_group ? "only one group is the root's: the other names the root by its rank"
                               : "one group must be the root's, passing MPI_ROOT at the root and MPI_PROC_NULL elsewhere";
      else if (!same_group && a.root == mpi::ROOT && o.root != a.me)
        problem = "the other group names rank " + std::to_string(o.root) + " as the root";
      else if (!same_group && o.root == mpi::ROOT && a.root != o.me)
        problem = "the root is rank " + std::to_string(o.me) + " of its group";
      if (!problem.empty())
        throw MpiError(ErrorClass::root, "root",
                       who(a) + " gives root = " + root_text(a.root) + " where " + who(o) + " (" +
                           (same_group ? "same group" : "other group") + ") gives root = " + root_text(o.root) + ": " +
                           problem,
                       section + ": on an intercommunicator the root passes MPI_ROOT, the rest of its group "
                                 "MPI_PROC_NULL, and the other group the root's rank in the root's group");
    }
    const bool a_idle = rooted(a.kind) && a.root == mpi::PROC_NULL, o_idle = rooted(o.kind) && o.root == mpi::PROC_NULL;
    if (reduces(a.kind) && !a_idle && !o_idle && (a.op->name != o.op->name || a.op->function != o.op->function))
      throw MpiError(ErrorClass::op, "op", who(a) + " gives op " + a.op->name + " where " + who(o) + " gives " + o.op->name,
                     "MPI-4.1 §6.9.1: op must be the same at all processes");
    if (same_group || a_idle || o_idle) continue;
    // Across the groups: what one side sends against what the other receives.
    switch (a.kind) {
      case Collective::bcast:
        if (!same_signature(a.recvcount, a.recvtype, o.recvcount, o.recvtype))
          signature_error("count", a, a.recvcount, a.recvtype, o, "gives", o.recvcount, o.recvtype, "§6.4");
        break;
      case Collective::scatter:
      case Collective::scatterv: {
        const CollArgs& root = a.is_root() ? a : o;
        const CollArgs& r = a.is_root() ? o : a;
        if (!same_signature(root.send_count(r.me), root.sendtype, r.recvcount, r.recvtype))
          signature_error("recvcount", r, r.recvcount, r.recvtype, root, "sends it", root.send_count(r.me), root.sendtype,
                          "§6.6");
        break;
      }
      case Collective::gather:
      case Collective::gatherv: {
        const CollArgs& root = a.is_root() ? a : o;
        const CollArgs& r = a.is_root() ? o : a;
        if (!same_signature(r.sendcount, r.sendtype, root.recv_count(r.me), root.recvtype))
          signature_error("sendcount", r, r.sendcount, r.sendtype, root, "expects from it", root.recv_count(r.me),
                          root.recvtype, "§6.5");
        break;
      }
      case Collective::allgather:
      case Collective::allgatherv:
        for (const CollArgs* x : {&a, &o}) {
          const CollArgs& y = x == &a ? o : a;
          if (!same_signature(x->sendcount, x->sendtype, y.recv_count(x->me), y.recvtype))
            signature_error("recvcount", y, y.recv_count(x->me), y.recvtype, *x, "sends it", x->sendcount, x->sendtype,
                            "§6.7");
        }
        break;
      case Collective::alltoall:
      case Collective::alltoallv:
      case Collective::alltoallw:
        for (const CollArgs* x : {&a, &o}) {
          const CollArgs& y = x == &a ? o : a;
          if (!same_signature(x->send_count(y.me), x->send_type(y.me), y.recv_count(x->me), y.recv_type(x->me)))
            signature_error("recvcount", y, y.recv_count(x->me), y.recv_type(x->me), *x, "sends it",
                            x->send_count(y.me), x->send_type(y.me), "§6.8");
        }
        break;
      case Collective::reduce:
      case Collective::allreduce:
        if (!same_signature(a.sendcount, a.sendtype, o.sendcount, o.sendtype))
          signature_error("count", a, a.sendcount, a.sendtype, o, "gives", o.sendcount, o.sendtype, "§6.9.1");
        break;
      case Collective::reduce_scatter_block:
      case Collective::reduce_scatter:
        if (!same_signature(a.sendcount, a.recvtype, o.sendcount, o.recvtype))
          throw MpiError(ErrorClass::count, a.kind == Collective::reduce_scatter ? "recvcounts" : "recvcount",
                         who(a) + "'s group reduces vectors of " + sig(a.sendcount, a.recvtype) + " where " + who(o) +
                             "'s group reduces " + sig(o.sendcount, o.recvtype),
                         "MPI-4.1 §6.10.1: on an intercommunicator the number of elements reduced must be the same "
                         "for the two groups");
        break;
      default: break;
    }
  }
}

void Coordinator::leave(Rank& rank, const Ticket& ticket) {
  Instance& in = *ticket.instance;
  const CollArgs& a = in.members[static_cast<std::size_t>(ticket.index)].args;
  const Algorithm& alg = *ticket.alg;
  if (verify_ && world_.payload() == mpi::PayloadMode::data) {
    // The contributions the definition reads: every member's on an
    // intracommunicator, the remote group's (by remote rank) on an intercommunicator.
    const std::size_t from = a.inter() ? (low_group(rank, a) ? static_cast<std::size_t>(a.p) : 0) : 0;
    const std::size_t n = static_cast<std::size_t>(a.peers());
    reference::Contributions all(n);
    std::vector<const std::vector<std::int64_t>*> at(n);
    static const Member::Contribution kNone;  // a member that has not entered yet
    for (std::size_t i = 0; i < n; ++i) {
      const Member& m = in.members[from + i];
      const Member::Contribution& c = m.contribution ? *m.contribution : kNone;
      all[i] = {&m.args, &c.bytes};
      at[i] = &c.at;
    }
    std::string diff;
    try {
      diff = reference::verify(rank, a, all, at);
    } catch (const std::logic_error& e) {
      diff = e.what();
    }
    if (!diff.empty())
      throw std::logic_error("verification: " + std::string(collective_name(a.kind)) + " (algorithm " +
                             std::string(alg.name) + ") gave " + who(a) +
                             " a result that is not the standard's definition: " + diff);
  }
  if (++in.exited == static_cast<int>(in.members.size())) {
    Totals& t = totals_[call_name(a)];
    ++t.calls;
    t.time = t.time + (rank.now() - in.started);
    instances_.erase(key_of(rank, a));
  }
}

// Entering happens here, before any coroutine: the checks run when the call is
// made, and a blocked member's algorithm refers to its arguments in the instance.
namespace {

// MPI-4.1 §3.7.2, §6.12: the call touches no buffer a pending operation of the
// rank holds (checked only while the rank holds some).
void check_held(Rank& rank, const CollArgs& a) {
  for (const Touched& t : touched(a)) {
    const std::string name = t.block < 0 ? std::string(t.argument)
                                         : std::string(t.argument) + "'s block for process " + std::to_string(t.block);
    rank.check_held({t.addr, t.count, t.type.get(), t.block}, t.writes, name.c_str());
  }
}

}  // namespace

Coordinator::Entered Coordinator::enter(Rank& rank, CollArgs args, const Algorithm& alg) {
  if (rank.memory().held()) [[unlikely]]
    check_held(rank, args);
  int members = 0;
  const int index = member_index(rank, args, &members);
  const Key key = key_of(rank, args);
  Instance& in = deposit(rank, std::move(args), index, members, key);
  return Entered{alg.run(rank, in.members[static_cast<std::size_t>(index)].args), Ticket{&in, &alg, index}};
}

Task<void> Coordinator::run(Rank& rank, CollArgs args, const Algorithm& alg) {
  return complete(rank, enter(rank, std::move(args), alg));
}

Task<void> Coordinator::complete(Rank& rank, Entered entered) {
  co_await std::move(entered.algorithm);
  leave(rank, entered.ticket);
}

Request* Coordinator::start(Rank& rank, CollArgs args, const Algorithm& alg) {
  const Communicator& comm = *args.comm;
  const char* name = call_name(args);
  std::vector<Touched> buffers = touched(args);
  Entered entered = enter(rank, std::move(args), alg);  // the algorithm's frame: in the rank's arena
  Task<void> body;
  {
    sim::frame_pool::OutsideArena outside;  // this frame is touched twice: at the start and at the end
    body = complete_activity(rank, std::move(entered));
  }
  Request* r = world_.start_activity(rank.id(), std::move(body), comm, name);
  // The buffers are the operation's until a wait or test completes it (§6.12).
  for (Touched& t : buffers)
    rank.hold({r, t.addr, t.count, std::move(t.type), name, t.argument, t.block, -1, -1, t.writes, false});
  return r;
}

Task<void> Coordinator::complete_activity(Rank& rank, Entered entered) {
  co_await std::move(entered.algorithm);
  leave(rank, entered.ticket);
  world_.end_activity();
}

}  // namespace mpisim::coll
