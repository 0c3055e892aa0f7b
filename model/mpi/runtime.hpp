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
//     limit) when matched, and their data moves then, straight between the buffers.
#include <coroutine>
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
#include "model/net/cost_model.hpp"
#include "sim/engine.hpp"
#include "sim/object_pool.hpp"
#include "sim/task.hpp"
#include "sim/trace.hpp"

namespace mpisim::mpi {

using sim::SimTime;
using sim::Task;

struct Status {
  int source = ANY_SOURCE;
  int tag = ANY_TAG;
  ErrorClass error = ErrorClass::success;
  std::int64_t bytes = 0;
};

class World;
class Rank;
struct Message;

struct Request {
  enum class Kind : std::uint8_t { send, recv };
  Kind kind;
  bool complete = false;
  bool awaited = false;       // the owner is blocked waiting for it
  bool collective = false;
  std::uint32_t owner;        // world rank
  int peer;                   // comm rank, ANY_SOURCE or PROC_NULL
  int tag;
  std::uint32_t context;
  const Communicator* comm;
  TypedBuffer buffer;
  TypeRef type_ref;           // keeps the datatype alive while the request is pending
  Message* message = nullptr; // send: the message in flight until it is matched
  SimTime done_at{};
  Status status;
  struct Failure {
    std::string text, argument, rule;
  };
  std::unique_ptr<Failure> failure;  // set when the request completed with an error (rare: kept out of line)
  Request* next = nullptr;    // posted-receive queue link
};

struct Message {
  Message* next = nullptr;    // unexpected queue link
  std::uint64_t id;
  std::uint32_t src_world, dst_world;
  int src;                    // comm rank of the sender
  int tag;
  std::uint32_t context;
  std::uint32_t channel;
  std::int64_t collective;    // instance id of the collective that sent it, -1 for p2p
  std::uint64_t bytes;
  bool eager;
  TypeRef type;               // the sender's datatype and count: the send signature
  bool has_payload = false;   // payload holds the data (eager, or packed by the caller)
  std::int64_t count;
  std::vector<std::byte> payload;  // eager data (data mode)
  Request* send_request;      // rendezvous: completed on match (null once detached)
  SimTime sent{}, arrived{}, ready{};  // served at the sender; absorbed; absorption done
  bool matched = false;
};

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
  // Sends bytes already packed (for MPI_Sendrecv_replace): a send of `packed.size()` bytes
  // whose signature is (type, count).
  Request* isend_packed(std::vector<std::byte> packed, TypeRef type, std::int64_t count, int dest, int tag,
                        const Communicator& comm);

  // Waits for `req` (null: MPI_REQUEST_NULL) and frees it. The handle should be
  // cleared by the caller first: the request is gone when this returns or throws.
  Task<Status> wait(Request* req);
  // `statuses` is empty (ignored) or as long as `reqs`.
  Task<void> wait_all(std::span<Request*> reqs, std::span<Status> statuses = {});
  // Returns the index completed, or UNDEFINED when every handle is null.
  Task<int> wait_any(std::span<Request*> reqs, Status* status);
  // True (and the request freed, set to null) if complete now.
  bool test(Request*& req, Status* status);

  // Blocking send and receive: post now (arguments are checked here, before any
  // suspension), then wait in one small coroutine.
  Task<Status> send(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                    Context ctx = Context::p2p, std::int64_t collective = -1);
  Task<Status> recv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                    Context ctx = Context::p2p);

  Task<Status> probe(int source, int tag, const Communicator& comm);
  std::optional<Status> iprobe(int source, int tag, const Communicator& comm);

  // Keeps the CPU busy for `duration` (a LogGOPSim "calc").
  Task<void> compute(SimTime duration);

  // Human-readable description of what a blocked rank waits for, and the world
  // ranks it waits for (wait-for graph edges).
  std::string blocked_on(std::vector<std::uint32_t>* waits_for) const;
  bool blocked() const { return waiter_ != nullptr; }

 private:
  friend class World;
  struct WaitAwaiter;
  struct ProbeAwaiter;

  void validate_peer(int peer, const Communicator& comm, bool receive, const char* argument) const;
  void validate_tag(int tag, bool receive) const;
  void validate_buffer(const TypedBuffer& buf, const char* argument) const;
  Request* new_request(Request::Kind kind, const TypedBuffer& buf, TypeRef type, int peer, int tag,
                       const Communicator& comm, Context ctx);
  void finish(Request* r, Status* status);  // frees r; throws if it failed
  Message* take_unexpected(int source, int tag, std::uint32_t context, bool remove);
  void on_complete(Request* r);

  World* world_;
  std::uint32_t id_;
  Memory memory_;
  Request* posted_head_ = nullptr;
  Request* posted_tail_ = nullptr;
  Message* unexpected_head_ = nullptr;
  Message* unexpected_tail_ = nullptr;
  std::coroutine_handle<> waiter_ = nullptr;
  std::uint32_t wait_needed_ = 0;   // completions still awaited (wait-all); 1 for wait-any
  // While waiting: the latest completion time seen; while computing: the duration.
  SimTime wait_time_{};
  std::span<Request*> waiting_on_;
  struct ProbeState {
    int source, tag;
    std::uint32_t context;
  };
  std::optional<ProbeState> probe_;
};

class World {
 public:
  World(sim::Engine& engine, net::CostModel& model, sim::Trace& trace, std::uint32_t ranks, PayloadMode mode);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  std::uint32_t size() const { return static_cast<std::uint32_t>(ranks_.size()); }
  Rank& rank(std::uint32_t r) { return ranks_[r]; }
  const Communicator& comm_world() const { return world_; }
  const Communicator& comm_self() const { return self_; }
  PayloadMode payload() const { return mode_; }
  sim::Engine& engine() { return engine_; }
  net::CostModel& model() { return model_; }
  sim::Trace& trace() { return trace_; }
  std::int64_t next_collective_instance() { return collectives_++; }
  std::uint64_t messages_in_flight() const { return messages_.live(); }

  // When a rank is last busy: the later of its process's end and its CPU's last work.
  SimTime finish_time(std::uint32_t r) const;

 private:
  friend class Rank;
  struct SendStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
  };
  struct ArriveStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
  };
  struct ComputeStage final : sim::EventHandler {
    World* w;
    void on_event(std::uint64_t arg, std::uint64_t seq) override;
  };

  Message* new_message(Rank& from, const Request* send, std::uint32_t dst_world);
  void post(Message* m, Request* send);
  void serve_send(Message* m);
  void absorb(Message* m);
  // Delivers m into recv (both matched): type check, data, statuses, completions.
  void deliver(Message* m, Request* recv, SimTime done);
  void complete(Request* r, SimTime at);
  void release(Message* m);

  sim::Engine& engine_;
  net::CostModel& model_;
  sim::Trace& trace_;
  PayloadMode mode_;
  Communicator world_;
  Communicator self_;
  std::vector<Rank> ranks_;  // reserved once: addresses stay stable
  sim::ObjectPool<Request> requests_;
  sim::ObjectPool<Message> messages_;
  SendStage send_stage_;
  ArriveStage arrive_stage_;
  ComputeStage compute_stage_;
  std::uint64_t next_message_id_ = 0;
  std::int64_t collectives_ = 0;
};

}  // namespace mpisim::mpi
