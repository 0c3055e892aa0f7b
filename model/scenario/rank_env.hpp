#pragma once
// A rank's interpreter state (RankEnv: where it is in its program, what a
// blocking step waits for, the names it bound) and the tables it keeps them in.
// Internal to model/scenario (executor.hpp).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/coll/coordinator.hpp"
#include "model/coll/persistent.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/runtime.hpp"
#include "model/scenario/run.hpp"
#include "sim/frame_pool.hpp"

namespace mpisim::scenario::exec {

using mpi::Request;
using mpi::Status;
using sim::SimTime;
using sim::Task;

// A problem with the scenario found while running it on a rank (an unknown name,
// an array where a number was needed, ...): a user error, reported with the step.
class StepError : public std::runtime_error {
 public:
  explicit StepError(const std::string& what) : std::runtime_error(what) {}
};

// Thrown by an `expect` step is not needed: expectations record and go on.

// A rank's table of the names it bound, from the pool of small per-rank blocks,
// not the heap (and not the rank's arena, whose room goes to what the MPI calls
// touch at every message).
template <typename K, typename T>
using Table = std::vector<std::pair<K, T>, sim::frame_pool::PooledAllocator<std::pair<K, T>>>;

template <typename T>
T* find_in(Table<NameId, T>& v, NameId id) {
  for (auto& [k, x] : v)
    if (k == id) return &x;
  return nullptr;
}

template <typename T>
void bind(Table<NameId, T>& v, NameId id, T x) {
  if (T* p = find_in(v, id)) *p = std::move(x);
  else v.emplace_back(id, std::move(x));
}

using coll::Persistent;

// Where a rank is in its program: a step list, the next step, and for the body of
// a repeat, which iteration of how many.
struct Cursor {
  const Program* program = nullptr;
  std::uint32_t next = 0;
  const Step* repeat = nullptr;  // the repeat step whose body this is; null at top level
  std::int64_t iteration = 0, times = 0;
};

// What a step that may block hands to its rank's coroutine: nothing (it did not
// block, or the program is over), a coroutine to await, a collective's algorithm,
// or the requests it posted in RankEnv::pending (send, recv, wait, sendrecv:
// waited for with no coroutine frame of their own).
struct Blocking {
  enum Kind : std::uint8_t { none, coroutine, collective, requests };
  Kind kind = none;
  bool errors_return = false;        // an error of the wait goes back to the program (MPI_ERRORS_RETURN)
  Task<Status> task;                 // coroutine
  Task<void> call;                   // collective: the algorithm (its status is empty)
  coll::Coordinator::Ticket ticket;  // collective: left once its algorithm is done
  Blocking() = default;
  Blocking(Task<Status> t) : kind(coroutine), task(std::move(t)) {}  // NOLINT: a task is a blocking step
  static Blocking on_collective(coll::Coordinator::Entered entered) {
    Blocking b;
    b.kind = collective;
    b.call = std::move(entered.algorithm);
    b.ticket = entered.ticket;
    return b;
  }
  static Blocking on_requests() {
    Blocking b;
    b.kind = requests;
    return b;
  }
};

// A rank's interpreter state. It lives here rather than in coroutine frames, so a
// blocked rank costs one small frame whatever its program's nesting.
struct RankEnv {
  std::uint32_t rank = 0;
  std::uint32_t top_next = 0;       // the next step of the top-level program
  const Program* top_program = nullptr;
  const Step* step = nullptr;       // the step running now
  // Repeat bodies being run, innermost last; made on the first repeat (most
  // programs at a million ranks have none, and the state stays small).
  std::unique_ptr<std::vector<Cursor>> nested;
  SimTime call_start{};
  // The step that blocked, and the requests a blocking point-to-point step posted:
  // what run_rank waits for. Kept here, not in run_rank's frame, which stays small.
  Blocking blocked;
  Request* pending[2] = {nullptr, nullptr};
  std::uint8_t pending_count = 0;
  std::int64_t world_collectives = 0;  // collective calls so far on MPI_COMM_WORLD (others: in bindings)

  // Names this rank has bound: a table per kind, each made on its first use
  // (many ranks bind none, or only a request).
  template <typename K, typename T>
  class Lazy {
   public:
    Table<K, T>& get() {
      if (!p_) p_.reset(new (sim::frame_pool::allocate_pooled(sizeof(Table<K, T>))) Table<K, T>{});
      return *p_;
    }

   private:
    struct Free {
      void operator()(Table<K, T>* p) const noexcept {
        std::destroy_at(p);
        sim::frame_pool::deallocate(p, sizeof(Table<K, T>));
      }
    };
    std::unique_ptr<Table<K, T>, Free> p_;
  };
  struct Bindings {
    Lazy<NameId, Value> values;
    Lazy<NameId, Request*> requests;
    Lazy<NameId, Status> statuses;
    Lazy<NameId, mpi::GroupRef> groups;  // null: MPI_GROUP_NULL (freed)
    Lazy<NameId, const mpi::Communicator*> comms;  // null: MPI_COMM_NULL
    Lazy<std::uint32_t, std::int64_t> collectives;  // per communicator context but the world's: calls so far
    Lazy<NameId, mpi::TypeRef> types;  // null: MPI_DATATYPE_NULL (freed)
    Lazy<NameId, mpi::OpRef> ops;      // null: MPI_OP_NULL (freed)
    Lazy<NameId, std::unique_ptr<Persistent>> persistent;  // null: freed
    Lazy<NameId, mpi::MatchedMessage> messages;  // comm null: MPI_MESSAGE_NULL (received)
    Lazy<std::uint32_t, std::int64_t> errhandlers;  // per communicator (comm_key); absent: MPI_ERRORS_ARE_FATAL
    Lazy<std::uint32_t, std::string> comm_names;    // per communicator (comm_key): MPI_Comm_set_name
    std::vector<std::pair<mpi::TypeRef, std::string>> type_names;  // MPI_Type_set_name
  };
  struct FreeBindings {
    void operator()(Bindings* p) const noexcept {
      std::destroy_at(p);
      sim::frame_pool::deallocate(p, sizeof(Bindings));
    }
  };
  std::unique_ptr<Bindings, FreeBindings> bindings;
  Bindings& b() {
    if (!bindings) bindings.reset(new (sim::frame_pool::allocate_pooled(sizeof(Bindings))) Bindings{});
    return *bindings;
  }
  Table<NameId, Value>& values() { return b().values.get(); }
  Table<NameId, Request*>& requests() { return b().requests.get(); }
  Table<NameId, Status>& statuses() { return b().statuses.get(); }
  Table<NameId, mpi::GroupRef>& groups() { return b().groups.get(); }
  Table<NameId, const mpi::Communicator*>& comms() { return b().comms.get(); }
  Table<NameId, mpi::TypeRef>& types() { return b().types.get(); }
  Table<NameId, mpi::OpRef>& ops() { return b().ops.get(); }
  Table<NameId, std::unique_ptr<Persistent>>& persistent() { return b().persistent.get(); }
  Table<NameId, mpi::MatchedMessage>& messages() { return b().messages.get(); }
};
static_assert(sizeof(RankEnv) <= 128, "a rank's interpreter state is 128 bytes (docs/architecture.md)");

}  // namespace mpisim::scenario::exec
