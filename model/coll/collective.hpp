#pragma once
// What every collective algorithm receives and the few helpers they share.
//
// An algorithm is a coroutine of simulated point-to-point messages on the
// communicator's collective context (so its traffic never meets the program's),
// written against the rank API only. Its arguments arrive validated
// (coll::read_arguments, model/coll/arguments.cpp, and the coordinator's checks
// across members); it may assume them correct.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "model/mpi/op.hpp"
#include "model/mpi/runtime.hpp"
#include "sim/frame_pool.hpp"

namespace mpisim::coll {

using mpi::Address;
using mpi::Communicator;
using mpi::Rank;
using mpi::Request;
using mpi::TypeRef;
using sim::Task;

enum class Collective : std::uint8_t {
  barrier, bcast, gather, gatherv, scatter, scatterv, allgather, allgatherv, alltoall, alltoallv, alltoallw,
  reduce, allreduce, reduce_scatter_block, reduce_scatter, scan, exscan,
  // The neighbourhood collectives (MPI-4.1 §8.6): on a communicator with a process
  // topology, each process exchanges blocks with its neighbours only.
  neighbor_allgather, neighbor_allgatherv, neighbor_alltoall, neighbor_alltoallv, neighbor_alltoallw
};
inline constexpr int kCollectives = 22;

// How a collective was called: MPI_Bcast, MPI_Ibcast (MPI-4.1 §6.12), or a start
// of MPI_Bcast_init's persistent request (§6.13). The last two run their
// algorithm as an activity of the rank, beside its program.
enum class Form : std::uint8_t { blocking, nonblocking, persistent };

std::string_view collective_name(Collective c);  // "MPI_Barrier", ...
// The collective named `name` ("MPI_Allreduce"), if any.
bool collective_by_name(std::string_view name, Collective* out);
// Whether the collective reduces with an op; whether it has a root.
bool reduces(Collective c);
bool rooted(Collective c);
// Whether it is a neighbourhood collective: its blocks are indexed by the
// caller's neighbours (Topology::sources and destinations), not by rank.
inline bool neighborhood(Collective c) { return c >= Collective::neighbor_allgather; }


// MPI_IN_PLACE as a buffer address: a value no allocation can have.
inline constexpr Address kInPlace = -1;

// The per-process arrays of the vector collectives (counts, displacements, types).
struct PerProcess {
  std::vector<std::int64_t> sendcounts, sdispls;  // sdispls in sendtype extents (bytes for alltoallw)
  std::vector<TypeRef> sendtypes;                 // alltoallw
  std::vector<std::int64_t> recvcounts, rdispls;  // rdispls in recvtype extents (bytes for alltoallw)
  std::vector<TypeRef> recvtypes;
};

// The radix of a k-nomial algorithm when the call names none (Open MPI's tuned
// component's default for its knomial bcast), and the largest one a call may name.
inline constexpr std::int64_t kDefaultRadix = 4;
inline constexpr std::int64_t kMaxRadix = 65535;

// A collective call's arguments as the standard names them. The vector forms
// (counts, displacements, types per process) are empty when the call has the
// uniform form; algorithms read them through the accessors, so one algorithm
// serves MPI_Allgather and MPI_Allgatherv, MPI_Alltoall, -v and -w. They live out
// of line, allocated when first written: a member of a million-rank MPI_Bcast
// keeps one pointer for them, not six empty vectors.
struct CollArgs {
  Collective kind = Collective::barrier;
  Form form = Form::blocking;
  std::uint16_t radix = 0;  // k-nomial algorithms: the tree's radix k (0: kDefaultRadix)
  // A start of a persistent collective: which start of its request this is (from
  // 0, modulo 2^32: starts that far apart are never under way together). The k-th
  // start at each process meets the k-th at the others, whatever the order of the
  // starts of different requests (MPI-4.1 §6.13). 0 for every other call.
  std::uint32_t start = 0;
  const Communicator* comm = nullptr;
  int me = 0, p = 0;  // the caller's rank and the (local) group's size
  int remote_p = 0;   // an intercommunicator's remote group size; 0 on an intracommunicator
  // A rank; on an intercommunicator, in the root's group mpi::ROOT at the root and
  // mpi::PROC_NULL elsewhere, in the other group the root's rank in the root's group.
  int root = 0;
  mpi::OpRef op;
  // Send side. MPI_Bcast's buffer is the receive side at every rank.
  Address sendbuf = 0;
  std::int64_t sendcount = 0;
  TypeRef sendtype;
  // Receive side.
  Address recvbuf = 0;
  std::int64_t recvcount = 0;
  TypeRef recvtype;
  std::int64_t segment_bytes = 0;  // pipelined algorithms: the segment size (0: the algorithm's default)
  // This call's position among the collectives on its communicator (for the trace
  // and the tags of a nonblocking call's messages); for a start of a persistent
  // collective, its _init's position.
  std::int64_t instance = -1;

  // The per-process arrays (empty in the uniform form), and the same for writing.
  const std::vector<std::int64_t>& sendcounts() const { return arrays().sendcounts; }
  const std::vector<std::int64_t>& sdispls() const { return arrays().sdispls; }
  const std::vector<TypeRef>& sendtypes() const { return arrays().sendtypes; }
  const std::vector<std::int64_t>& recvcounts() const { return arrays().recvcounts; }
  const std::vector<std::int64_t>& rdispls() const { return arrays().rdispls; }
  const std::vector<TypeRef>& recvtypes() const { return arrays().recvtypes; }
  PerProcess& per_process() { return per_process_.get_or_make(); }

  bool in_place() const { return sendbuf == kInPlace; }
  bool nonblocking() const { return form != Form::blocking; }
  bool inter() const { return remote_p > 0; }
  // How many processes the per-process blocks and arrays address: the remote group
  // on an intercommunicator (except reduce-scatter's recvcounts: the local group).
  int peers() const { return inter() ? remote_p : p; }
  // Whether the caller is the root of a rooted collective.
  bool is_root() const { return inter() ? root == mpi::ROOT : me == root; }
  std::int64_t send_count(int i) const {
    return sendcounts().empty() ? sendcount : sendcounts()[static_cast<std::size_t>(i)];
  }
  std::int64_t recv_count(int i) const {
    return recvcounts().empty() ? recvcount : recvcounts()[static_cast<std::size_t>(i)];
  }
  const TypeRef& send_type(int i) const {
    return sendtypes().empty() ? sendtype : sendtypes()[static_cast<std::size_t>(i)];
  }
  const TypeRef& recv_type(int i) const {
    return recvtypes().empty() ? recvtype : recvtypes()[static_cast<std::size_t>(i)];
  }
  // Where block i starts, in bytes from the buffer.
  std::int64_t send_offset(int i) const;
  std::int64_t recv_offset(int i) const;

 private:
  // An owning pointer whose copies copy the arrays (an intercommunicator algorithm
  // derives a local call's arguments from the caller's and changes them).
  class Box {
   public:
    Box() = default;
    Box(const Box& o) : p_(o.p_ ? std::make_unique<PerProcess>(*o.p_) : nullptr) {}
    Box& operator=(const Box& o) {
      if (this != &o) p_ = o.p_ ? std::make_unique<PerProcess>(*o.p_) : nullptr;
      return *this;
    }
    Box(Box&&) noexcept = default;
    Box& operator=(Box&&) noexcept = default;
    ~Box() = default;
    const PerProcess* get() const { return p_.get(); }
    PerProcess& get_or_make() {
      if (!p_) p_ = std::make_unique<PerProcess>();
      return *p_;
    }

   private:
    std::unique_ptr<PerProcess> p_;
  };
  static const PerProcess kUniform;  // every array empty
  const PerProcess& arrays() const { return per_process_.get() ? *per_process_.get() : kUniform; }
  Box per_process_;
};

// The tag of a collective's messages: consecutive blocking calls on one
// communicator are kept apart by non-overtaking order, different collectives by
// their tags. Nonblocking calls may be in flight together, and their algorithms
// post receives in any order: each call's messages get a tag of their own, from
// its position among the collectives on the communicator.
inline int tag_of(Collective c) { return 1 + static_cast<int>(c); }
inline int tag_of(const CollArgs& a) {
  if (!a.nonblocking()) return tag_of(a.kind);
  constexpr std::int64_t kCalls = std::int64_t{1} << 25;  // then reused: 2^25 calls apart cannot overlap
  return static_cast<int>(32 + (a.instance % kCalls) * 32 + static_cast<int>(a.kind));
}
// The name of a form of the call, as a string literal: "MPI_Bcast", "MPI_Ibcast",
// "MPI_Bcast_init".
const char* call_name(Collective c, Form f);
inline const char* call_name(const CollArgs& a) { return call_name(a.kind, a.form); }

inline mpi::TypedBuffer typed(Rank& r, Address at, std::int64_t count, const TypeRef& t) {
  return mpi::TypedBuffer{&r.memory(), at, count, t.get()};
}

// Point-to-point on the collective context of a.comm, tagged with the collective.
// A send that is complete when posted (eager, served at once) comes back as null
// (MPI_REQUEST_NULL), already freed: waiting on it would return at once with
// nothing to report, as a send's errors are found when it is posted. At a million
// ranks this keeps half of an exchange's requests out of memory.
// `pinned` and `got`: for exchange (below).
Request* post_send(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int dest,
                   bool pinned = false);
Request* post_recv(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int source,
                   mpi::Deferred* got = nullptr);
// An algorithm's pending requests, waited for together: a table in the pool of
// small per-rank blocks, not on the heap.
using Requests = std::vector<Request*, sim::frame_pool::Allocator<Request*>>;
// Blocking forms: post now, co_await the result (an awaiter: no coroutine frame).
Rank::WaitOne send(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int dest);
Rank::WaitOne recv(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int source);
// A synchronous send (as MPI_Ssend: complete once the receive has matched it, the
// data then moved), for the algorithms whose library sends so.
Rank::WaitOne ssend(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int dest);
// Both at once, as MPI_Sendrecv (the receive is posted first): co_await sendrecv(...).
// An awaiter holding its two requests, not a coroutine: a round of a recursive
// doubling costs no frame.
class [[nodiscard]] SendRecv {
 public:
  SendRecv(Rank& r, Request* recv, Request* send) : reqs_{recv, send}, wait_{r.wait_all(std::span<Request*>(reqs_, 2))} {}
  SendRecv(const SendRecv&) = delete;
  SendRecv& operator=(const SendRecv&) = delete;
  bool await_ready() { return wait_.await_ready(); }
  void await_suspend(std::coroutine_handle<> h) { wait_.await_suspend(h); }
  void await_resume() {
    wait_.rank.world().settle_from(wait_.rank.id());  // before the rank touches its buffers (exchange)
    wait_.await_resume();
  }

 private:
  Request* reqs_[2];
  Rank::WaitAll wait_;  // waits on reqs_
};
SendRecv sendrecv(Rank& r, const CollArgs& a, Address sat, std::int64_t scount, const TypeRef& st, int dest,
                  Address rat, std::int64_t rcount, const TypeRef& rt, int source);

// A sendrecv whose received data only the combine that follows reads, given here:
//   mpi::Deferred got;
//   co_await exchange(..., rat, rcount, rt, source, got, op, inout, inout_first);
//   co_await combine(rank, op, got, rat, inout, rcount, rt, inout_first);
// The partner's data may stay in its buffer until that combine reduces it from
// there, or the partner, resuming first, may do this rank's combine itself (in a
// blocking call; mpi::Deferred): the same bytes, fewer copies; what `rat` holds after the
// combine is unspecified. The send's buffer is left alone until the rank resumes;
// it then first settles what its partners have not combined yet, as the buffer is
// the algorithm's again (every SendRecv does, on resuming).
SendRecv exchange(Rank& r, const CollArgs& a, Address sat, std::int64_t scount, const TypeRef& st, int dest,
                  Address rat, std::int64_t rcount, const TypeRef& rt, int source, mpi::Deferred& got,
                  const mpi::Op& op, Address inout, bool inout_first);
// The same for a combine that writes inout from `base` (inout = data op base, or
// base op data), a buffer of the same layout that nothing writes until the
// combine is done.
SendRecv exchange(Rank& r, const CollArgs& a, Address sat, std::int64_t scount, const TypeRef& st, int dest,
                  Address rat, std::int64_t rcount, const TypeRef& rt, int source, mpi::Deferred& got,
                  const mpi::Op& op, Address inout, Address base, bool inout_first);

// Copies `count` elements of `type` at `src` to `count2` of `type2` at `dst`, both in
// the rank's own memory, as a message from the rank to itself would (the type
// signatures must match), and charges the model's local copy time.
// Copies now; co_await the result to wait out the copy time (an awaiter, no frame).
Rank::Compute local_copy(Rank& rank, Address src, std::int64_t count, const TypeRef& type, Address dst,
                         std::int64_t count2, const TypeRef& type2);
// The same checks and time for `count` elements of `type` from `src` to `dst`,
// moving nothing: for an algorithm that then reads src where it would read dst,
// until it has overwritten dst (unseen_until_return).
Rank::Compute local_copy_unmoved(Rank& rank, Address src, std::int64_t count, const TypeRef& type, Address dst);
// Whether nothing sees the call's buffers before it returns: a blocking call in
// data mode, with no deliveries followed (a scenario's followed buffers) and no
// provenance kept. Its algorithm may then leave out moves of data whose target
// it overwrites before reading it; the times stay those of the algorithm as
// written.
bool unseen_until_return(Rank& rank, const CollArgs& a);

// inout = in op inout (or inout op in, with inout_first) over `count` elements of
// `type`, charging the model's reduction time γ per byte.
// Reduces now; co_await the result to wait out γ (an awaiter, no frame).
Rank::Compute combine(Rank& rank, const mpi::Op& op, Address in, Address inout, std::int64_t count,
                      const TypeRef& type, bool inout_first = false);
// The same after an exchange into `in`, with the arguments given to it: reads
// the data where `got` says it is, or only waits out the time if the partner did it.
Rank::Compute combine(Rank& rank, const mpi::Op& op, mpi::Deferred& got, Address in, Address inout,
                      std::int64_t count, const TypeRef& type, bool inout_first = false);
// The same for an exchange given a base: inout = in op base (or base op in).
Rank::Compute combine(Rank& rank, const mpi::Op& op, mpi::Deferred& got, Address in, Address inout, Address base,
                      std::int64_t count, const TypeRef& type, bool inout_first);

// Scratch space for `count` elements of `type` laid out as a user buffer would be
// (element i at i·extent), released when the object goes. addr() is the buffer
// address to pass with `type` (the true lower bound is accounted for).
class Scratch {
 public:
  Scratch(Rank& rank, std::int64_t count, const TypeRef& type);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  Address addr() const { return addr_; }

 private:
  Rank* rank_;
  Address base_, addr_;
};

// The fold that lets a power-of-two algorithm run on any p (Thakur, Rabenseifner &
// Gropp 2005, §4): with pof2 the largest power of two <= p and rem = p - pof2, the
// first 2·rem ranks pair up (2i, 2i+1); the even one hands its data to the odd one
// and sits out, so pof2 ranks remain, renumbered in order. The even partner of a
// pair is always the lower rank, so an operation's order is kept.
struct Fold {
  int pof2 = 1, rem = 0;
  int newrank = 0;  // the caller's rank among the pof2, or -1 if it sits out
  explicit Fold(int p, int me);
  // The rank of the process with new rank `nr`.
  int real(int nr) const { return nr < rem ? 2 * nr + 1 : nr + rem; }
  // Whether the caller is the even (sitting-out) member of a pair; its partner is me + 1.
  bool sits_out() const { return newrank < 0; }
  // Whether the caller is the odd member of a pair: its partner is me - 1.
  bool holds_pair(int me) const { return me < 2 * rem && me % 2 == 1; }
};

// On an intercommunicator: the low group is the one whose rank 0 has the lower
// world rank; both sides agree on it without a message (model/coll/inter.hpp has
// the rest of what the intercommunicator algorithms share).
bool low_group(const Rank& rank, const CollArgs& a);

int largest_pof2(int p);  // the largest power of two <= p (p >= 1)

}  // namespace mpisim::coll
