#pragma once
// The MPI runtime: requests, point-to-point matching and the coroutine-facing
// rank API, driven by the event kernel and costed by a network model.
//
// Life of a message (docs/semantics.md):
//  1. isend validates its arguments and queues a *send item* at the sender.
//  2. The send item is served when the model says the sender's resources are free
//     (keeping its sequence number while it waits); in data mode an eager message's
//     bytes are copied out of the send buffer then. The model says when it arrives.
//  3. At the receiver an *arrival item* waits for the receiver's resources, then
//     the message is absorbed and matched: against the posted receives in the order
//     they were posted, else it joins the unexpected messages.
//  4. A receive posted later takes the first unexpected message that matches it in
//     arrival order; among messages that arrived at the same instant, the lowest
//     source rank. Messages from one sender are absorbed in the order sent, so
//     matching is non-overtaking per (source, communicator).
//  5. Eager sends complete when served; rendezvous sends (bytes > the model's eager
//     limit) when matched, and their data moves then, straight between the buffers
//     (or stays for the reduction that reads it: Deferred).
//     On models with links (defers_arrivals) a rendezvous message whose receive is
//     not posted by the end of its instant sends only its envelope; a match starts
//     its data (move_data), and both requests complete when that arrives.
#include <coroutine>
#include <functional>
#include <map>
#include <tuple>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/mpi/comm.hpp"
#include "model/mpi/constants.hpp"
#include "model/mpi/datatype.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/memory.hpp"
#include "model/mpi/overlap.hpp"
#include "model/net/cost_model.hpp"
#include "sim/bulk.hpp"
#include "sim/engine.hpp"
#include "sim/frame_pool.hpp"
#include "sim/object_pool.hpp"
#include "sim/ring.hpp"
#include "sim/task.hpp"
#include "sim/trace.hpp"

namespace mpisim::mpi {

using sim::SimTime;
using sim::Task;

struct Status {
  int source = ANY_SOURCE;
  int tag = ANY_TAG;
  ErrorClass error = ErrorClass::success;
  bool cancelled = false;     // MPI_Test_cancelled: the operation was cancelled (MPI_Cancel)
  std::int64_t bytes = 0;
};

class World;
class Rank;
struct Message;

// The data of a receive that only a reduction reads (coll::exchange, then
// coll::combine). The exchange tells its Deferred which combine will read the data
// (expect). When the receive takes a rendezvous message sent from an exchange too
// (Message::pinned), the data stays in the sender's buffer: the sender leaves that
// buffer alone until it resumes from its exchange, and the combine reads the data
// there, a copy fewer. If the sender resumes first, it settles the data before it
// touches its buffers (World::settle_from): for a predefined operation in a
// blocking call it performs the receiver's combine itself (the receiver, blocked
// in the call, then only waits out the time), both
// partners' at once in one pass where each reads the region the other writes (a
// recursive-doubling round); otherwise it copies the data to the receive buffer.
// The bytes combined are the same in every case, and so are times and traces. Not
// used when deliveries are observed or provenance is tracked, nor between buffers
// whose datatypes differ. Lives in the receiving algorithm's frame, declared after
// the scratch space it stands for.
struct DeferredHold;
struct Op;
class Deferred {
 public:
  Deferred() = default;
  ~Deferred() { release(); }
  Deferred(const Deferred&) = delete;
  Deferred& operator=(const Deferred&) = delete;
  // The combine that will read the received data: inout = data op base, or
  // base op data with inout_first, where base is inout itself or a buffer of its
  // layout that nothing writes meanwhile; `sends`: what the same exchange sends;
  // `early`: the sender may do the combine (not in a nonblocking call, whose
  // program runs meanwhile and may show its buffers). Data mode only (sizes mode
  // keeps no state).
  void expect(World& world, std::uint32_t receiver, const Op& op, const TypedBuffer& inout, const TypedBuffer& base,
              bool inout_first, const TypedBuffer& sends, bool early);
  // Whether the data is still in the sender's buffer, at from().
  bool held() const;
  const TypedBuffer& from() const;
  // Whether the expected combine was done already, by the sender.
  bool combined() const;
  // Whether op, inout, base and the order are the ones expected.
  bool expected(const Op& op, const TypedBuffer& inout, const TypedBuffer& base, bool inout_first) const;
  // Whether a combine was announced and not yet released: without one (sizes
  // mode), the data is simply where it was received.
  bool announced() const noexcept { return hold_ != nullptr; }
  // The reduction has read it (or no longer will): the sender's buffer is its own again.
  void release() noexcept {
    if (hold_ != nullptr) drop();
  }
  // Copies the data to the receive buffer after all, if it is held, and releases it.
  void land();

 private:
  friend class World;
  void drop() noexcept;
  DeferredHold* hold_ = nullptr;  // out of line: an algorithm's frame grows by a pointer only
};

// Requests and messages are made at event rate: their constructors set each member
// once (no zero-filling of the whole object first).
struct Request {
  // send and recv: point-to-point; activity: a nonblocking collective, complete
  // when its algorithm (an Activity of the owner) is done.
  enum class Kind : std::uint8_t { send, recv, activity };
  Request(Kind k, std::uint32_t owner_rank, int peer_rank, int tag_value, std::uint32_t ctx, bool in_collective,
          const Communicator* communicator, const TypedBuffer& buf, TypeRef type) noexcept
      : kind(k), collective(in_collective), owner(owner_rank), peer(peer_rank), tag(tag_value), context(ctx),
        comm(communicator), buffer(buf), type_ref(std::move(type)) {}
  Kind kind;
  bool complete = false;
  bool awaited = false;       // the owner is blocked waiting for it
  bool collective = false;
  bool phantom = false;       // sizes only: no data is read or written (isend/irecv_unchecked)
  bool freed = false;         // MPI_Request_free'd while active: released when it completes
  // Which of the owner's threads of control awaits it, when awaited: 0 its
  // program, k > 0 its activity k (Activity::thread). In what was padding.
  std::uint16_t thread = 0;
  std::uint32_t owner;        // world rank
  int peer;                   // comm rank, ANY_SOURCE or PROC_NULL; activity: its thread
  int tag;
  std::uint32_t context;
  const Communicator* comm;
  TypedBuffer buffer;
  TypeRef type_ref;           // keeps the datatype alive while the request is pending
  union {
    Message* message = nullptr;  // send: the message in flight until it is matched (Message::eager_request)
    Deferred* deferred;          // receive: where its data may be left for a reduction (Deferred)
  };
  SimTime done_at{};
  Status status;
  struct Failure {
    std::string text, argument, rule;
  };
  std::unique_ptr<Failure> failure;  // set when the request completed with an error (rare: kept out of line)
  Request* next = nullptr;    // posted-receive queue link
};

struct Message {
  Message(std::uint64_t message_id, std::uint32_t from, std::uint32_t to, int src_rank, int tag_value,
          std::uint32_t ctx, std::uint64_t size, bool is_eager, TypeRef send_type, std::int64_t send_count) noexcept
      : id(message_id), src_world(from), dst_world(to), src(src_rank), tag(tag_value), context(ctx), bytes(size),
        eager(is_eager), type(std::move(send_type)), count(send_count) {}
  union {
    // The sender's waiting sends (a ring through the last one), then the
    // receiver's unexpected queue ...
    Message* next = nullptr;
    // ... or, once a receive matched a rendezvous envelope (data_moving), that
    // receive, while the data is on its way: the message is in no queue then.
    Request* data_for;
  };
  std::uint64_t id;
  std::uint32_t src_world, dst_world;
  int src;                    // comm rank of the sender
  int tag;
  std::uint32_t context;
  std::uint32_t channel = 0;
  std::int64_t collective = -1;  // instance id of the collective that sent it, -1 for p2p
  std::uint64_t bytes;
  std::int64_t held = 0;       // bytes of the run's memory budget it holds (World::new_message)
  // A send waiting behind another: the event seq it was given when posted; an
  // arrival parked at its receiver: its arrival event's seq.
  std::uint64_t seq = 0;
  bool eager;
  bool has_payload = false;   // payload holds the data (eager, or packed by the caller)
  bool phantom = false;       // carries no data at all
  bool matched = false;
  bool waiting = false;       // has waited for the receiver's resources
  bool buffered = false;      // MPI_Bsend's: holds space of its sender's attached buffer until served
  bool cancelled = false;     // MPI_Cancel'd before it arrived: dropped when it is served or arrives
  // Rendezvous on a network with links (World::serve_send): only the envelope has
  // travelled; the data moves once a receive matches it (data_moving, data_for).
  bool envelope = false;
  bool data_moving = false;
  // Served with no receive posted for it yet: first in its sender's queue until
  // the end of the instant decides whether its data or its envelope leaves.
  bool deciding = false;
  // Sent from coll::exchange: its sender leaves the buffer alone until it resumes
  // from the exchange, so a Deferred receive may leave the data there.
  bool pinned = false;
  TypeRef type;               // the sender's datatype and count: the send signature
  std::int64_t count;
  PackedBytes payload;  // eager data (data mode)
  std::vector<std::int32_t> payload_origin;  // the provenance of the payload's bytes, when tracked
  Request* send_request = nullptr;  // rendezvous: completed on match (null once detached)
  // An eager or buffered send's request, complete before its message is matched:
  // MPI_Cancel may still withdraw the message (§3.8.4). Linked both ways
  // (Request::message) until the message or the request is released.
  Request* eager_request = nullptr;
  SimTime sent{}, arrived{}, ready{};  // served at the sender; absorbed; absorption done
};

// A thread of control of a rank beside its program: a nonblocking collective's
// algorithm, run as a coroutine of its own (MPI-4.1 §6.12). It waits as the
// program does (its own waiter, resumption and wait state), so a rank may have
// any number of operations in flight; the runtime knows which thread runs by
// World::running_. Made by World::start_activity; freed with its request once
// both are done.
//
// Its work runs beside the program's CPU, as on a NIC that offloads collectives
// or a progress thread on a core of its own: it resumes when its messages arrive,
// and its reductions and copies take their time (γ, the copy rate) without
// waiting for the program's computation or delaying it. Its messages are costed
// by the network model as every message is. Under World::Progress::in_mpi it
// advances only while its rank's program is inside MPI.
struct Activity {
  std::uint32_t rank = 0;
  std::uint16_t thread = 0;   // 1, 2, ... at its rank (Request::thread)
  bool done = false;          // its body ended
  bool parked = false;        // its resumption waits for the program to enter MPI (Progress::in_mpi)
  bool point_to_point = false;  // MPI_Isendrecv's, not a collective's: its request may be freed
  std::uint32_t needed = 0;   // as Rank::wait_needed_
  SimTime time{};             // as Rank::wait_time_
  std::coroutine_handle<> waiter = nullptr, resume = nullptr;
  std::span<Request*> waiting_on;
  const char* call = "";       // the call that started it, for diagnostics (a string literal)
  std::int64_t trace_call = -1;  // the trace's record of that call (sim::Trace::complete_call)
  Request* request = nullptr;  // completed when the body ends
  Activity* next = nullptr;    // the rank's other activities
  Task<void> body;             // ends with World::end_activity
};

// The send modes of MPI-4.1 §3.4. A standard send completes when its buffer may
// be reused (eager: when served; rendezvous: when matched); a synchronous one only
// once matched, whatever its size; a buffered one at once, its data copied into the
// attached buffer; a ready one as a standard send, but only if the matching receive
// is already posted.
enum class SendMode : std::uint8_t { standard, synchronous, buffered, ready };
const char* send_call_name(SendMode mode, bool nonblocking);  // "MPI_Ssend", "MPI_Issend", ...

// A persistent point-to-point operation (MPI-4.1 §3.9): the arguments of its
// MPI_Send_init (or MPI_Ssend_init, MPI_Bsend_init, MPI_Rsend_init) or
// MPI_Recv_init, checked once by Rank::p2p_init. Each Rank::start posts it as the
// nonblocking call of its mode would, with the same checks at that moment.
struct PersistentP2P {
  bool send = false;
  SendMode mode = SendMode::standard;
  TypedBuffer buf;
  TypeRef type;
  int peer = PROC_NULL, tag = 0;
  const Communicator* comm = nullptr;
};

// A message matched by MPI_Mprobe or MPI_Improbe (MPI-4.1 §3.8.2): out of the
// matching queues, for an MPI_Mrecv or MPI_Imrecv of the same rank to receive.
// no_proc: MPI_MESSAGE_NO_PROC (a probe of MPI_PROC_NULL), received at once with
// an empty status.
struct MatchedMessage {
  Message* message = nullptr;
  const Communicator* comm = nullptr;
  bool no_proc = false;
};

// MPI_BSEND_OVERHEAD: the attached-buffer bytes a buffered message takes beyond its
// data (MPICH's value).
inline constexpr std::int64_t BSEND_OVERHEAD = 96;

class Rank {
 public:
  Rank(World& w, std::uint32_t id);

  std::uint32_t id() const { return id_; }
  World& world() { return *world_; }
  Memory& memory() { return memory_; }
  const Memory& memory() const { return memory_; }
  SimTime now() const;

  // Point-to-point. Arguments are validated here, at the API boundary; an
  // erroneous call throws MpiError. `ctx` selects the communicator's context
  // (collective algorithms use Context::collective).
  Request* isend(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                 Context ctx = Context::p2p, std::int64_t collective = -1);
  Request* irecv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                 Context ctx = Context::p2p);
  // A send in `mode` (the program's MPI_Ssend, MPI_Bsend, MPI_Rsend and their
  // nonblocking forms; `nonblocking` says which, for the held buffer and the
  // diagnostics). The standard mode is isend (or isend_held).
  Request* isend_mode(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm, SendMode mode,
                      bool nonblocking);
  // MPI_Buffer_attach (§3.6.1): `size` bytes at `addr` become the rank's buffer for
  // buffered sends; the program may not touch them until MPI_Buffer_detach, which
  // gives the address and size back.
  void buffer_attach(Address addr, std::int64_t size);
  std::pair<Address, std::int64_t> buffer_detach();

  // MPI_Isend and MPI_Irecv as the program calls them: isend and irecv, and the
  // buffer is the operation's until a wait or test completes the request (§3.7.2):
  // a later call that touches it is erroneous (check_held).
  Request* isend_held(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm);
  Request* irecv_held(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm);
  // The buffers of pending operations (overlap.hpp). hold: `use` belongs to the
  // operation of its request until the request is released. check_held: an access
  // of `r` by `argument` (writing, or only reading) touches none of them, else
  // MpiError. Free while no operation of the rank ever held a buffer.
  void hold(HeldBuffers::Use use);
  void check_held(const Region& r, bool writes, const char* argument) const {
    if (memory_.held()) [[unlikely]] check_not_held(memory_, r, writes, argument);
  }
  // MPI_Sendrecv (§3.10): the receive and the send started together, every
  // argument checked before either starts; the two buffers must not share a byte
  // (§2.3). Gives {receive, send}.
  std::pair<Request*, Request*> isendrecv(const TypedBuffer& sendbuf, TypeRef sendtype, int dest, int sendtag,
                                          const TypedBuffer& recvbuf, TypeRef recvtype, int source, int recvtag,
                                          const Communicator& comm);
  // MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1 §3.10): as MPI_Sendrecv and
  // MPI_Sendrecv_replace, started now, with one request that completes when both
  // the send and the receive have; its status is the receive's. The buffers are
  // the operation's until a wait or test completes it (check_held).
  Request* isendrecv_request(const TypedBuffer& sendbuf, TypeRef sendtype, int dest, int sendtag,
                             const TypedBuffer& recvbuf, TypeRef recvtype, int source, int recvtag,
                             const Communicator& comm);
  Request* isendrecv_replace_request(const TypedBuffer& buf, TypeRef type, int dest, int sendtag, int source,
                                     int recvtag, const Communicator& comm);
  // A message of buf.count * size bytes that carries no data, on the communicator's
  // collective context: for exchanges whose content the simulator keeps itself
  // (the communicator constructors). The buffer is not read or written.
  Request* isend_unchecked(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                           Context ctx = Context::collective);
  Request* irecv_unchecked(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                           Context ctx = Context::collective);

  // The messages of a collective algorithm, on the communicator's collective
  // context with the collective's tag. The peer is checked (an algorithm's
  // arithmetic must stay inside the communicator); the buffer only in data mode,
  // where it is read or written: the collective's entry checks already held the
  // caller's buffers against their type maps, and an algorithm sizes its scratch.
  // `pinned`: sent from coll::exchange (Message::pinned); `deferred`: the data
  // only a reduction reads may be left for it there (Deferred).
  Request* isend_collective(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                            std::int64_t instance, bool pinned = false, SendMode mode = SendMode::standard);
  Request* irecv_collective(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                            Deferred* deferred = nullptr);

  // Sends bytes already packed (for MPI_Sendrecv_replace): a send of `packed.size()` bytes
  // whose signature is (type, count).
  Request* isend_packed(PackedBytes packed, TypeRef type, std::int64_t count, int dest, int tag,
                        const Communicator& comm, std::vector<std::int32_t> origins = {});

  // co_await rank.wait(req): waits for `req` (null: MPI_REQUEST_NULL), frees it
  // and gives its status. The handle should be cleared by the caller first: the
  // request is gone when the await returns or throws. The waits are awaiters, not
  // coroutines: waiting costs no frame.
  // An awaiter keeps no state of its own beyond its requests (the rank keeps what
  // a wait needs), so the coroutine frames that hold it stay small.
  struct [[nodiscard]] WaitOne {
    Rank& rank;
    Request* req;
    bool await_ready() { return req == nullptr || rank.wait_ready(std::span<Request*>(&req, 1), false); }
    void await_suspend(std::coroutine_handle<> h) { rank.wait_suspend(std::span<Request*>(&req, 1), false, h); }
    Status await_resume();
  };
  WaitOne wait(Request* req) { return WaitOne{*this, req}; }
  // co_await rank.wait_all(reqs, statuses): `statuses` is empty (ignored) or as
  // long as `reqs`; every handle is cleared, every request freed, and the first
  // error (in handle order) thrown. Gives the status of reqs[0] (a blocking
  // call's own status: the receive of a sendrecv).
  struct [[nodiscard]] WaitAll {
    Rank& rank;
    std::span<Request*> reqs;
    std::span<Status> statuses;
    bool await_ready() { return rank.wait_ready(reqs, false); }
    void await_suspend(std::coroutine_handle<> h) { rank.wait_suspend(reqs, false, h); }
    Status await_resume();
  };
  WaitAll wait_all(std::span<Request*> reqs, std::span<Status> statuses = {}) {
    return WaitAll{*this, reqs, statuses};
  }
  // Returns the index completed, or UNDEFINED when every handle is null.
  Task<int> wait_any(std::span<Request*> reqs, Status* status);
  // True (and the request freed, set to null) if complete now.
  bool test(Request*& req, Status* status);
  // MPI_Request_get_status (§3.7.3): whether req is complete, and its status then,
  // without freeing it (null: MPI_REQUEST_NULL, complete with an empty status).
  bool request_get_status(const Request* req, Status* status) const;
  // MPI_Request_get_status_any, _all and _some (MPI-4.1 §3.7.5): as test_any,
  // test_all and test_some, but no request is freed and no handle changes; a
  // request that completed with an error reports it in its status.
  bool request_get_status_any(std::span<Request* const> reqs, int* index, Status* status) const;
  bool request_get_status_all(std::span<Request* const> reqs, std::span<Status> statuses) const;
  int request_get_status_some(std::span<Request* const> reqs, std::vector<int>* indices,
                              std::vector<Status>* statuses) const;
  // MPI-4.1 §3.7.5. test_all: true, and every request freed, when all are
  // complete now (null handles count as complete); else nothing changes.
  // `statuses` is empty (ignored) or as long as `reqs`.
  bool test_all(std::span<Request*> reqs, std::span<Status> statuses);
  // test_any: true with the index of one complete now (the earliest completed,
  // then the lowest index), freed; true with UNDEFINED when every handle is null;
  // false with UNDEFINED when none is complete.
  bool test_any(std::span<Request*> reqs, int* index, Status* status);
  // wait_some / test_some: every request complete now (after waiting for the
  // first, for wait_some) is freed; their indices in increasing order and their
  // statuses (by position in `indices`) are given. UNDEFINED when every handle
  // is null; test_some may give 0.
  Task<int> wait_some(std::span<Request*> reqs, std::vector<int>* indices, std::vector<Status>* statuses);
  int test_some(std::span<Request*> reqs, std::vector<int>* indices, std::vector<Status>* statuses);
  // MPI_Request_free (§3.7.3): the handle becomes null; an incomplete request
  // completes in the background and is released then. Erroneous for a
  // nonblocking collective's request (§6.12).
  void free_request(Request*& req);

  // Blocking send and receive: post now (arguments are checked here, before any
  // suspension), then wait in one small coroutine.
  WaitOne send(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
               Context ctx = Context::p2p, std::int64_t collective = -1);
  WaitOne recv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
               Context ctx = Context::p2p);

  // MPI_Sendrecv_replace (§3.2.7): sends buf's content and replaces it by the
  // message received; the status is the receive's. A lazy coroutine: its
  // arguments are taken by value (the communicator outlives it).
  Task<Status> sendrecv_replace(TypedBuffer buf, TypeRef type, int dest, int sendtag, int source, int recvtag,
                                const Communicator& comm);

  Task<Status> probe(int source, int tag, const Communicator& comm);
  std::optional<Status> iprobe(int source, int tag, const Communicator& comm);
  // Matched probes (MPI-4.1 §3.8.2): as probe and iprobe, and the message found is
  // taken out of matching, into `out`, where only imrecv may receive it.
  Task<Status> mprobe(int source, int tag, const Communicator& comm, MatchedMessage* out);
  std::optional<Status> improbe(int source, int tag, const Communicator& comm, MatchedMessage* out);
  // MPI_Mrecv (which waits for the request) or MPI_Imrecv (`nonblocking`: the
  // buffer is held until a wait or test completes it): receives the matched
  // message into buf; `msg` is consumed (MPI_MESSAGE_NULL after).
  Request* imrecv(const TypedBuffer& buf, TypeRef type, MatchedMessage& msg, bool nonblocking);

  // Persistent point-to-point (MPI-4.1 §3.9). p2p_init checks the arguments as the
  // nonblocking call would and keeps them; start posts the operation (its buffer
  // held until a wait or test completes the request it gives).
  PersistentP2P p2p_init(bool send, SendMode mode, const TypedBuffer& buf, TypeRef type, int peer, int tag,
                         const Communicator& comm) const;
  Request* start(const PersistentP2P& p);

  // MPI_Cancel (MPI-4.1 §3.8.4). A receive not yet matched is cancelled: it
  // completes at once, with Status::cancelled. A send is cancelled while its
  // message is unmatched, whether the send is still pending (a rendezvous or
  // synchronous send, or one queued behind its rank's earlier sends) or already
  // complete (an eager or buffered send whose request was not yet waited on),
  // wherever the message is: in its sender's queue, on the network, or waiting
  // at its destination. It is withdrawn and the send completes cancelled, so the
  // wait that follows depends on no other process (§3.8.4). Any other operation goes on and completes as if
  // MPI_Cancel had not been called. A nonblocking collective's request is refused.
  void cancel(Request* r);

  // co_await rank.compute(d): keeps the CPU busy for d (a LogGOPSim "calc"). An
  // awaiter, not a coroutine; Compute{} (no rank) is one that does not wait.
  struct [[nodiscard]] Compute {
    Rank* rank = nullptr;
    SimTime duration{};
    bool await_ready() const noexcept { return rank == nullptr; }
    void await_suspend(std::coroutine_handle<> h);
    void await_resume() const noexcept {}
  };
  Compute compute(SimTime duration) { return Compute{this, duration}; }

  // Human-readable description of what a blocked rank waits for, and the world
  // ranks it waits for (wait-for graph edges).
  std::string blocked_on(std::vector<std::uint32_t>* waits_for) const;
  bool blocked() const { return waiter_ != nullptr; }

 private:
  friend class World;
  void activity_wait_suspend(Activity& a, std::span<Request*> reqs, bool any, std::coroutine_handle<> h);
  // What the requests in `reqs` wait for, and the ranks they wait for.
  std::string describe_waits(std::span<Request*> reqs, std::vector<std::uint32_t>* waits_for) const;
  struct WaitAnyAwaiter;
  struct ProbeAwaiter;
  // The waits' shared steps: whether the wait is over now, and the registration
  // of a waiter that is not. wait_ready leaves in wait_needed_ and wait_time_ the
  // incomplete requests and the latest completion (or when the rank resumes, if
  // none is incomplete), which wait_suspend, called right after it, starts from.
  bool wait_ready(std::span<Request*> reqs, bool any);
  void wait_suspend(std::span<Request*> reqs, bool any, std::coroutine_handle<> h);
  void wait_over(std::span<Request*> reqs);

  // Inline for a peer inside the communicator; the rest (MPI_PROC_NULL,
  // MPI_ANY_SOURCE, errors) out of line.
  void validate_peer(int peer, const Communicator& comm, bool receive, const char* argument) const {
    if (peer >= 0 && peer < comm.peer_count()) [[likely]]
      return;
    validate_other_peer(peer, comm, receive, argument);
  }
  void validate_other_peer(int peer, const Communicator& comm, bool receive, const char* argument) const;
  void validate_tag(int tag, bool receive) const;
  void validate_buffer(const TypedBuffer& buf, const char* argument) const;
  Request* new_request(Request::Kind kind, const TypedBuffer& buf, TypeRef type, int peer, int tag,
                       const Communicator& comm, Context ctx);
  void finish(Request* r, Status* status);  // frees r; throws if it failed
  // The activity of MPI_Isendrecv(_replace) (`call`): its request completes when
  // both `recv` and `send` have, with the receive's status.
  Request* both_complete(Request* recv, Request* send, const Communicator& comm, const char* call);
  Task<void> complete_pair(Request* recv, Request* send);
  // Posts a send whose arguments were checked: a phantom carries no data; `packed`
  // (with its provenance) is data already taken out of the buffer.
  Request* start_send(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm, Context ctx,
                      std::int64_t collective, bool phantom, PackedBytes* packed,
                      std::vector<std::int32_t>* origins, SendMode mode = SendMode::standard, bool pinned = false);
  Request* start_recv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm, Context ctx,
                      bool phantom, Deferred* deferred = nullptr);
  Message* take_unexpected(int source, int tag, std::uint32_t context, bool remove);
  void on_complete(Request* r);

  // Resumes the rank's waiting coroutine at t, through the world's resume stage
  // (which prefetches the rank's state a few events ahead).
  void resume_at(SimTime t, std::coroutine_handle<> h);

  // The fields are ordered to leave no hole (176 bytes on x86-64).
  World* world_;
  std::uint32_t id_;
  std::uint32_t wait_needed_ = 0;   // completions still awaited (wait-all); 1 for wait-any
  Memory memory_;
  sim::Ring<Request> posted_;      // receives posted and not yet matched, in order (through Request::next)
  sim::Ring<Message> unexpected_;  // messages arrived and not yet matched, in order (through Message::next)
  std::coroutine_handle<> waiter_ = nullptr;
  std::coroutine_handle<> resume_ = nullptr;  // resumed by the pending resume event
  // While waiting: the latest completion time seen; while computing: the duration;
  // between wait_ready and wait_suspend: what wait_ready found.
  SimTime wait_time_{};
  std::span<Request*> waiting_on_;
  struct ProbeState {
    int source, tag;
    std::uint32_t context;
  };
  std::optional<ProbeState> probe_;
  // The sends waiting for this rank's resources, in the order posted (through
  // Message::next). Only the first is in the event queue; the next one enters it
  // when the first is served.
  sim::Ring<Message> waiting_sends_;
};

class World {
 public:
  World(sim::Engine& engine, net::CostModel& model, sim::Trace& trace, std::uint32_t ranks, PayloadMode mode);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  std::uint32_t size() const { return slots_.count(); }
  Rank& rank(std::uint32_t r) { return *static_cast<Rank*>(slots_.slot(r)); }
  const Rank& rank(std::uint32_t r) const { return *static_cast<const Rank*>(slots_.slot(r)); }
  // While rank r runs: the coroutine frames and tables it makes go to its slot,
  // beside the rank (docs/architecture.md, "Rank slots").
  void enter(std::uint32_t r) {
    if (arenas_) slots_.enter(r);
  }
  const Communicator& comm_world() const { return world_; }
  const Communicator& comm_self() const { return self_; }
  PayloadMode payload() const { return mode_; }
  sim::Engine& engine() { return engine_; }
  net::CostModel& model() { return model_; }
  sim::Trace& trace() { return trace_; }
  // Communicators made by the constructors: owned here, shared by their members,
  // stable in memory. Contexts are allocated in the order constructors resolve,
  // which the event order fixes: deterministic.
  const Communicator& new_intra(std::string name, GroupRef group, TopologyRef topology = nullptr);
  // Both sides of a new intercommunicator (one context pair, two views).
  std::pair<const Communicator*, const Communicator*> new_inter(const std::string& name, GroupRef a, GroupRef b);

  // What each member of a collective constructor brought to it, collected at the
  // simulator level (a real MPI exchanges it in messages; the messages are
  // simulated too, but here they may carry no data: --payload sizes). Keyed by the
  // communicator's context and the call's position among its collectives.
  struct Deposit {
    Deposit() = default;
    explicit Deposit(std::string c, std::int64_t x = 0, std::int64_t y = 0) : call(std::move(c)), a(x), b(y) {}
    std::string call;
    std::int64_t a = 0, b = 0;    // color/key, root/leader, high, tag ...
    GroupRef group;
    TopologyRef topology;    // the topology constructors': the new communicator's
    std::vector<int> edges;  // MPI_Dist_graph_create(_adjacent): (source, destination, weight) triples
    bool present = false;
  };
  struct Agreement {
    std::vector<Deposit> deposits;  // by rank in the communicator (both sides: local ranks, then remote)
    std::vector<const Communicator*> result;  // by the same index, once resolved
    bool resolved = false;
    std::size_t taken = 0;
    std::uint32_t context = 0;  // the members' own exchange context, when they need one (fresh_context)
  };
  Agreement& agreement(std::uint32_t context, std::int64_t seq, std::size_t members);
  // A context pair no communicator uses: for the messages of one call whose
  // members are not all of a communicator (MPI_Comm_create_group), so that
  // concurrent calls on other groups of it cannot match each other's messages.
  std::uint32_t fresh_context() {
    const std::uint32_t c = next_context_;
    next_context_ += 2;
    return c;
  }
  // The two leaders of an MPI_Intercomm_create meet here (keyed by the peer
  // communicator's context, the tag and the leaders' world ranks).
  struct Pairing {
    GroupRef first_group, second_group;
    std::uint32_t first_leader = 0;
    const Communicator* sides[2] = {nullptr, nullptr};
    int taken = 0;
  };
  Pairing& pairing(std::uint32_t context, int tag, std::uint32_t leader_a, std::uint32_t leader_b) {
    return pairings_[{context, tag, std::min(leader_a, leader_b), std::max(leader_a, leader_b)}];
  }
  void forget_pairing(std::uint32_t context, int tag, std::uint32_t leader_a, std::uint32_t leader_b) {
    pairings_.erase({context, tag, std::min(leader_a, leader_b), std::max(leader_a, leader_b)});
  }
  void forget(std::uint32_t context, std::int64_t seq) { agreements_.erase({context, seq}); }
  // MPI_Comm_create_group (MPI-4.1 §7.4.2) is collective over a group, not a
  // communicator: the n-th call of each member with the same group (world ranks,
  // in group order) and tag on a context meets the n-th call of the others. The
  // key of `rank`'s next such call, for agreement(context, key, ...).
  std::int64_t group_call_key(std::uint32_t context, int tag, const std::vector<std::uint32_t>& members,
                              std::uint32_t rank);
  std::uint64_t messages_in_flight() const { return messages_.live(); }
  // The memory budget of the simulated buffers (data mode), in bytes.
  // --max-memory: the run's budget, of which the ranks' fixed state takes
  // `fixed` from the start (kRankStateBytes each).
  void set_memory_limit(std::int64_t bytes, std::int64_t fixed) { budget_.limit = bytes, budget_.used = fixed; }
  // What a rank takes before any buffer: its slot, the engine's and the front-end's
  // tables for it (1,300 bytes per rank measured for MPI_Barrier on 2^20 ranks,
  // sizes mode; docs/performance.md).
  static constexpr std::int64_t kRankStateBytes = 1300;
  // Record where every byte of data comes from (for the viewer); data mode only.
  void track_origins(std::int64_t allocation_limit);
  // Calls f(receiver, sender) (world ranks) each time a message's data has landed in
  // a receive buffer, in data mode: a front-end's view of buffers filling message
  // by message (a scenario's followed buffers). Unset by default.
  void observe_deliveries(std::function<void(std::uint32_t, std::uint32_t)> f) {
    delivered_ = std::move(f);
    observing_ = static_cast<bool>(delivered_);
  }
  bool tracks_origins() const { return track_origins_; }
  bool observes_deliveries() const { return observing_; }
  // Copies the data that Deferred receives hold in rank `sender`'s memory to
  // their receive buffers (coll::exchange, when `sender` resumes from one).
  void settle_from(std::uint32_t sender) {
    if (!deferred_.empty()) [[unlikely]] settle_held(sender);
  }
  // For tests: deliveries that left their data in the sender's buffer, combines
  // the sender did for its receiver, and passes that did both partners' at once.
  struct DeferralCounts {
    std::uint64_t held = 0, combined = 0, paired = 0;
  };
  const DeferralCounts& deferral_counts() const { return deferral_counts_; }
  // The sets of ranks that combined data comes from (provenance.hpp).
  ProvenanceSets& provenance() { return provenance_; }
  const ProvenanceSets& provenance() const { return provenance_; }
  // The node of the network's placement world rank r runs on (MPI_COMM_TYPE_SHARED).
  std::uint32_t node_of(std::uint32_t r) const { return model_.node(r); }
  // An intracommunicator's members by node, as the SMP-aware collective
  // algorithms use them (MPICH's node_comm and node_roots_comm): nodes in the order
  // of their first member's rank; a node's members in rank order, the first its
  // leader. Made at the first call that asks, with communicators of its own (their
  // contexts in the order the event order fixes), and kept with the communicator.
  struct NodeHierarchy {
    std::vector<int> node;       // by rank in the communicator: its node's index
    std::vector<int> node_rank;  // by rank: its rank among its node's members
    std::vector<int> leader;     // by node index: the rank of its first member
    // By node index: its members' communicator; null for a node of one member.
    std::vector<const Communicator*> node_comms;
    const Communicator* leaders = nullptr;  // the leaders' communicator; null with one node
    // Each node's members are consecutive ranks, the nodes in the order of their
    // first member (MPICH's "node consecutive").
    bool consecutive = true;
  };
  const NodeHierarchy& node_hierarchy(const Communicator& comm, std::uint32_t caller);

  // When a rank is last busy: the later of its process's end and its CPU's last work.
  SimTime finish_time(std::uint32_t r) const;

  // Starts `body` as a new thread of control of rank r (a nonblocking
  // collective's algorithm): it runs now, up to its first wait, and then as its
  // messages arrive, whatever the rank's program does. Returns its request; the
  // body's last act is end_activity(), which completes it. `call` names the call
  // in diagnostics (a string literal). An exception leaving the body fails the
  // run at r.
  Request* start_activity(std::uint32_t r, Task<void> body, const Communicator& comm, const char* call,
                          bool point_to_point = false);
  // Called by the activity that runs now, as its last act: its request completes,
  // with `status`.
  void end_activity(const Status& status = Status{});
  // The trace record of the call that started the activity of `r` (a request
  // start_activity gave): its completion is noted there.
  void set_trace_call(const Request* r, std::int64_t index);
  // Whether `r` (an activity's request) is an MPI_Isendrecv's, which may be freed.
  bool point_to_point_activity(const Request* r) const;
  // The activities that have not ended (after a run: what never completed), in
  // rank order, each with what it waits for.
  struct PendingActivity {
    std::uint32_t rank;
    const char* call;
    std::string waits_for;
  };
  std::vector<PendingActivity> pending_activities() const;
  // What the programs left undone when they all ended (MPI-4.1 §11.2.2):
  // messages that arrived and were never received, requests never completed by
  // a wait or a test nor freed (a nonblocking collective still running is a
  // pending activity, not counted here). Described in rank order, `limit` lines
  // at most; the counts count all. Costs nothing when there are none.
  struct Leftovers {
    std::size_t messages = 0, requests = 0;
    std::vector<std::string> lines;
  };
  Leftovers leftovers(std::size_t limit) const;
  // MPI_Comm_free is collective (MPI-4.1 §7.4.3): the world records which
  // processes freed each communicator, and after the run names those some of
  // whose processes freed them and others never did (a line each, in context order).
  void record_free(const Communicator& comm, std::uint32_t world_rank);
  std::vector<std::string> incomplete_frees(std::size_t limit) const;
  // Destroys every activity's frames (after a run that stopped with some blocked).
  void abandon_activities() noexcept;
  // When a rank's activities advance: asynchronously, as their messages arrive
  // (the default), or only while the rank's program is inside an MPI call, as in
  // MPICH and Open MPI without a progress thread (docs/semantics.md). Under
  // in_mpi the front-end says when a program leaves MPI (a computation) and
  // enters it again: the activities that became ready meanwhile resume then.
  enum class Progress : std::uint8_t { async, in_mpi };
  void set_progress(Progress p);
  Progress progress() const { return progress_; }
  void set_in_mpi(std::uint32_t r, bool inside);
  // --send-mode sync: the program's standard-mode sends run as synchronous ones
  // (MPI-4.1 §3.5: a program that is correct only thanks to buffering deadlocks).
  void set_standard_sends_synchronous(bool on) { sync_standard_ = on; }
  bool standard_sends_synchronous() const { return sync_standard_; }

 private:
  friend class Rank;
  struct SendStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
    void prefetch(std::uint64_t arg, int step) const override;
  };
  struct ArriveStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
    void prefetch(std::uint64_t arg, int step) const override;
  };
  struct ComputeStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
    void prefetch(std::uint64_t arg, int step) const override;
  };
  // A blocked rank's resumption (`arg` is the rank): the rank, its cost-model
  // state, its coroutine's frame and the requests it waited for are prefetched.
  struct ResumeStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
    void prefetch(std::uint64_t arg, int step) const override;
  };
  // An activity's resumption (`arg` is the Activity).
  struct ActivityStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
    void prefetch(std::uint64_t arg, int step) const override;
  };
  void resume_activity_at(Activity& a, SimTime t, std::coroutine_handle<> h);
  // Resumes a's pending resumption, or parks it (Progress::in_mpi).
  void dispatch_activity(Activity& a);
  void run_activity(Activity& a, std::coroutine_handle<> h);
  Activity* find_activity(std::uint32_t rank, std::uint16_t thread) const;
  void free_activity(Activity* a);
  [[gnu::cold, gnu::noinline]] void release_activity_of(const Request* r);
  // Models whose arrivals depend on later traffic (shared links): one pending event
  // at the model's next_event(); `arg` is its generation, so superseded ones do nothing.
  struct NetworkStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
  };
  void arm_network();
  // A rendezvous message on a network with links whose receive was not posted when
  // it was served: at the end of that instant (`arg` is the Message), its data
  // leaves if a receive is posted by then, else only its envelope (World::serve_send).
  struct RendezvousStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
  };
  // Starts m across the network at t (all of it, or its envelope): its arrival
  // time, or kDeferred ...
  SimTime start(Message* m, SimTime t);
  // ... which this queues (or arms the network for).
  void arrive_at(Message* m, SimTime arrival);
  // Asks for a rank's whole state and its cost model's state (a hint).
  void prefetch_rank(std::uint32_t r) const;

  // The run's memory budget (--max-memory) counts what a message holds until it
  // is received: its record, and in data mode the copy of the data an eager,
  // buffered or packed one carries (with its provenance when tracked). Charged
  // before the send makes anything, so a send over budget throws LimitError and
  // leaves nothing behind; new_message keeps the charge, release gives it back.
  std::int64_t charge_message(const Rank& from, std::uint32_t dst_world, std::uint64_t bytes, bool eager, bool phantom,
                              bool packed, SendMode mode);
  [[noreturn, gnu::cold]] void over_budget(const Rank& from, std::uint32_t dst_world, std::uint64_t bytes,
                                           std::int64_t held) const;
  Message* new_message(Rank& from, const Request* send, std::uint32_t dst_world, std::uint64_t bytes, bool eager,
                       std::int64_t held);
  void post(Message* m, Request* send);
  // Queues an item the running program or activity issues at the current instant
  // (its first waiting send, a computation), or gives the seq one keeps for later.
  // Within a resumption the item is ordered as of the moment the resumption was
  // scheduled, as LogGOPSim numbers the operations a completion frees when it
  // happens (docs/cost-models.md); otherwise as of now.
  void queue_issued(sim::EventHandler& stage, std::uint64_t arg);
  std::uint64_t issued_seq();
  // Runs `resume` as the resumption whose event had seq `seq` (see issue_seq_).
  template <class F>
  void as_resumption(std::uint64_t seq, F&& resume);
  void serve_send(Message* m);
  // Queues the first of the rank's waiting sends for its turn at the rank's
  // resources, unless the end of the instant decides it (Message::deciding).
  void queue_next_send(Rank& from, SimTime t);
  // An arrival whose receiver is busy until `ready`: back to the queue, or parked.
  void wait_for_receiver(Message* m, std::uint64_t seq, SimTime ready);
  // After a waiting arrival (event seq `seq`) was absorbed at `dst`.
  void waited_arrival_absorbed(std::uint32_t dst, std::uint64_t seq);
  void absorb(Message* m);
  // The first receive m's destination has posted that m matches (and the one
  // posted before it, in *prev), or null.
  Request* posted_for(const Message& m, Request** prev = nullptr) const;
  // A rendezvous envelope m has been matched by recv: its data starts now.
  void move_data(Message* m, Request* recv);
  // Delivers m into recv (both matched): type check, data, statuses, completions.
  void deliver(Message* m, Request* recv, SimTime done);
  void complete(Request* r, SimTime at);
  void release(Message* m);
  void release(Request* r);
  [[gnu::cold, gnu::noinline]] void unhold(const Request* r);

  // While an arrival is absorbed or a send served: a rank whose wait that
  // completes at the current instant is kept (kept_), not queued, and the stage
  // resumes it when its own work is done (resume_kept). One at most; another
  // (a rendezvous sender) is queued as usual. Only under the models whose sends
  // are served when posted and whose arrivals are known then (keeps_ranks_):
  // where sends compete or share links, a rank resumes in an event of its own.
  struct KeepResumption {
    World& w;
    explicit KeepResumption(World& world) : w(world) { w.keep_resumption_ = w.keeps_ranks_; }
    ~KeepResumption() { w.keep_resumption_ = false; }
    KeepResumption(const KeepResumption&) = delete;
    KeepResumption& operator=(const KeepResumption&) = delete;
  };
  void resume_kept();
  // Resumes r's pending resumption (resume_at), in its arena.
  void resume(Rank& r);

  sim::Engine& engine_;
  net::CostModel& model_;
  sim::Trace& trace_;
  PayloadMode mode_;
  Communicator world_;
  Communicator self_;
  // Each rank in a slot of kSlotBytes: the Rank, then the arena of the blocks it
  // makes (frames, tables). Placed once: addresses stay stable.
  // The arenas are used from kArenaRanks ranks on: below, every rank's state
  // stays in cache wherever it lies, and a free-list pop is cheaper than the
  // arena's bitmap.
  static constexpr std::size_t kSlotBytes = 896;
  static constexpr std::uint32_t kArenaRanks = 16384;
  sim::frame_pool::ArenaSet slots_;
  bool arenas_ = false;
  sim::ObjectPool<Request> requests_;
  sim::ObjectPool<Message> messages_;
  SendStage send_stage_;
  ArriveStage arrive_stage_;
  ComputeStage compute_stage_;
  ResumeStage resume_stage_;
  NetworkStage network_stage_;
  ActivityStage activity_stage_;
  RendezvousStage rendezvous_stage_;
  // Each rank's activities (a list through Activity::next), made on the first:
  // most runs have none.
  std::vector<Activity*> activities_;
  Activity* running_ = nullptr;  // the activity whose coroutine runs now; null: a rank's program
  Progress progress_ = Progress::async;
  std::vector<std::uint8_t> in_mpi_;  // Progress::in_mpi: whether each rank's program is inside MPI
  SimTime network_armed_at_ = SimTime::never();
  std::uint64_t network_generation_ = 0;
  std::vector<std::uint64_t> arrived_;
  // Arrivals waiting for a busy receiver (models whose receptions compete: LogGOPS).
  // All of a receiver's arrivals become ready together, so only the earliest
  // (lowest seq) must be in the event queue: those are `queued`; the others are
  // parked here in a heap by seq, and one enters the queue each time one of the
  // queued ones is absorbed. Every parked seq is above the lowest queued one.
  struct WaitingArrivals {
    std::vector<std::uint64_t> queued;  // the seqs of those in the event queue
    std::vector<std::pair<std::uint64_t, Message*>> parked;  // min-heap by seq
  };
  std::map<std::uint32_t, WaitingArrivals> waiting_arrivals_;
  std::uint64_t next_message_id_ = 0;
  std::uint64_t held_ops_ = 0;  // operations holding buffers (Rank::hold), all ranks
  bool sync_standard_ = false;
  // The buffers attached for buffered sends, by rank (only ranks that attached one).
  struct Attached {
    Address addr = 0;
    std::int64_t size = 0, used = 0;
  };
  std::map<std::uint32_t, Attached> attached_;
  // Messages taken by a matched probe and not received yet (MatchedMessage).
  std::vector<Message*> matched_;
  struct Freed {
    const Communicator* comm;
    std::vector<std::uint32_t> ranks;  // world ranks, in the order they freed it
  };
  std::map<std::uint32_t, Freed> freed_;  // by base context
  // The Deferred receives whose data is still in their sender's memory, by sender
  // (world rank); each sender has one or a few (one per exchange in flight).
  friend class Deferred;
  std::multimap<std::uint32_t, DeferredHold*> deferred_;
  DeferralCounts deferral_counts_;
  void settle_held(std::uint32_t sender);
  void forget(const DeferredHold* h);  // takes h out of deferred_
  // Leaves message m's data (`bytes`) in its sender's buffer for d, recv's
  // Deferred, when d expects a combine; false: it does not.
  bool hold(Deferred* d, const Message* m, const Request* recv, std::int64_t bytes);
  // At h's sender's resumption: performs h's combine now when nothing held or
  // still to be sent needs what it overwrites (gives h); gives the partner's hold
  // when the two combines read what each other writes (a pass over both,
  // combine_pair, can do them); else null.
  DeferredHold* combine_early(DeferredHold* h);
  bool combine_pair(DeferredHold* h, DeferredHold* partner);
  std::uint32_t next_context_ = 4;  // world: 0/1, self: 2/3
  bool track_origins_ = false;
  bool observing_ = false;  // delivered_ is set
  bool keeps_ranks_ = false;
  bool keep_resumption_ = false;
  // While a resumption scheduled earlier runs (ResumeStage, ActivityStage): the
  // seqs its sends and computations take, right after the resumption's own seq
  // (sim::Engine::kSeqStep), and how many are left. Outside one, issue_left_ is 0
  // and they take fresh seqs.
  std::uint32_t issue_left_ = 0;
  std::uint64_t issue_seq_ = 0;
  Rank* kept_ = nullptr;
  Activity* kept_activity_ = nullptr;  // or an activity, kept the same way
  Memory::Budget budget_;
  std::vector<std::unique_ptr<Communicator>> comms_;
  std::map<std::uint32_t, NodeHierarchy> hierarchies_;  // by the communicator's base context
  std::map<std::pair<std::uint32_t, std::int64_t>, Agreement> agreements_;
  struct GroupCalls {
    std::map<std::uint32_t, std::int64_t> made;  // by member: its calls so far
    std::vector<std::int64_t> keys;              // the n-th call's key
  };
  std::map<std::tuple<std::uint32_t, int, std::vector<std::uint32_t>>, GroupCalls> group_calls_;
  std::int64_t next_group_call_key_ = 0;
  std::map<std::tuple<std::uint32_t, int, std::uint32_t, std::uint32_t>, Pairing> pairings_;
  std::function<void(std::uint32_t, std::uint32_t)> delivered_;  // observe_deliveries
  ProvenanceSets provenance_;  // last: the fields above are the hot ones
};

}  // namespace mpisim::mpi
