#pragma once
// The state of a running C program, shared by its runner (run.cpp) and the C
// entry points (capi.cpp). Internal to model/program.
#include <pthread.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "model/coll/arguments.hpp"
#include "model/coll/coordinator.hpp"
#include "model/coll/handles.hpp"
#include "model/coll/persistent.hpp"
#include "model/coll/registry.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/runtime.hpp"
#include "model/mpi/topology.hpp"
#include "model/program/fiber.hpp"
#include "model/program/globals.hpp"
#include "model/program/program.hpp"

namespace mpisim::program {

using mpi::Request;
using mpi::Status;
using sim::SimTime;
using sim::Task;

// Handle values (mpi.h): the library's (coll::Handles).
inline constexpr int kCommWorld = coll::handle::kCommWorld, kCommSelf = coll::handle::kCommSelf,
                     kCommNull = coll::handle::kCommNull;
inline constexpr int kGroupKind = coll::handle::kGroup;
inline constexpr int kHandleIndex = coll::handle::kIndex;
inline std::string handle_text(int handle) { return coll::handle::text(handle); }  // "0x84000001"

// How a rank's program ended.
enum class Ending : std::uint8_t { running, returned, exited };

// Thrown in the engine for a rank that called MPI_Abort, or that ended with a
// nonzero status: the run stops there, as mpiexec stops every process.
// Thrown in the engine for a program's fault that mpisim found (a stack overflow
// seen by its marker): the run stops there with a diagnostic, exit 2.
struct ProgramFault {
  std::uint32_t rank;
  std::string what;
};

struct ProgramStop {
  std::uint32_t rank;
  int status;
  bool abort;  // MPI_Abort (else exit or return from main)
  std::string how;
};

struct CRank {
  Fiber fiber;
  Task<void> pending;          // what the fiber waits for, run by the engine
  std::exception_ptr error;    // the failure of a call that did not block
  const char* call = nullptr;  // the MPI call running, or null
  const void* site = nullptr;  // where the program made it (a return address in the program)
  int about = 0;               // the communicator handle the call is about (its error handler's)
  std::exception_ptr pending_error;  // how `pending` failed, for the call that waited
  SimTime call_start{};
  Ending ending = Ending::running;
  int status = 0;              // main's return value or exit's argument
  bool initialized = false, finalized = false;
  std::int64_t world_calls = 0;                 // collectives so far on MPI_COMM_WORLD
  std::vector<std::pair<std::uint32_t, std::int64_t>> calls_on;  // and on the others, by context
  coll::Handles handles;                        // the rank's handles and the objects they name
  std::vector<Request*> scratch_requests;       // for the calls on arrays of requests
  std::vector<Status> scratch_statuses;
  std::vector<int> scratch_indices;
  std::int64_t cpu_mark_ns = -1;                // with host compute: CPU time when the program's code resumed
  std::int64_t last_wtime_ps = -1;              // what MPI_Wtime last gave, in ps
  std::FILE* out = nullptr;                     // with labels: the rank's stdout and stderr
  std::FILE* err = nullptr;
  std::vector<std::string> args;                // argv's strings, this rank's own copy
  std::vector<char*> argv;

  // What the call in progress has recorded, put back after a call nested in it
  // (ProgramRun::resume_call).
  struct CallState {
    const char* call;
    const void* site;
    int about;
    SimTime call_start;
  };
  CallState call_state() const { return {call, site, about, call_start}; }
};

class ProgramRun {
 public:
  ProgramRun(const Loaded& prog, mpi::World& world, const runner::Config& cfg, runner::Result& result,
             const Options& opt);
  ~ProgramRun();

  sim::ProcessTask run_rank(std::uint32_t r);

  // Fiber side. The rank whose fiber runs now.
  CRank& current() { return ranks_[current_]; }
  // Whether a rank's fiber runs now (false while the engine runs, e.g. a user
  // operation called by an algorithm: then a call cannot wait or leave the fiber).
  bool on_fiber() const { return on_fiber_; }
  // Whether the caller runs on the thread that runs the ranks.
  bool on_its_thread() const { return pthread_equal(pthread_self(), thread_) != 0; }
  std::uint32_t current_rank() const { return current_; }
  // A callback the library runs for rank r while the engine runs (a user
  // operation of r's reduction): r's globals and handles are the program's while
  // the returned guard lives; the running rank's again after.
  class Acting {
   public:
    Acting(ProgramRun& run, std::uint32_t r);
    ~Acting();
    Acting(const Acting&) = delete;
    Acting& operator=(const Acting&) = delete;

   private:
    ProgramRun& run_;
    std::uint32_t current_, owner_;
  };
  mpi::World& world() { return world_; }
  coll::Coordinator& coordinator() { return coordinator_; }
  // Waits for `t` on the engine (the fiber is suspended meanwhile).
  void block(Task<void> t);
  // The running call failed: the rank stops here (never returns).
  [[noreturn]] void fail(std::exception_ptr e);
  // The program ends this rank (return from main, exit): never returns.
  [[noreturn]] void end_rank(Ending how, int status);

  // With host compute: the CPU time the program's code took since it last
  // resumed, charged to the rank now (it computes that long before the call).
  void charge_host_time();
  // The same outside a call (MPI_Wtime): charged, and the code runs on from here.
  void catch_up();
  // A call starts and ends: for the trace, for the in-MPI progress rule.
  void call_begins(const char* name);
  void call_ends(const char* algorithm = "", const Request* started = nullptr);
  // After a call nested in another (made from a callback the library ran): the
  // outer call's record again, and the rank inside MPI again.
  void resume_call(const CRank::CallState& outer);

  // The communicator a handle of the running rank names (MPI_ERR_COMM otherwise);
  // a new one's handle (MPI_COMM_NULL for null).
  const mpi::Communicator& comm(int handle, const char* argument);
  int add_comm(const mpi::Communicator* made);
  // A communicator's error handler at the running rank (MPI_ERRORS_ARE_FATAL unless set).
  int errhandler(int comm_handle);
  void set_errhandler(int comm_handle, int errhandler);
  std::int64_t next_instance(CRank& c, const mpi::Communicator& comm);
  const coll::Algorithm& algorithm_for(const char* call, coll::CollArgs& a, std::uint32_t caller);

  const runner::Config& config() const { return cfg_; }
  runner::Result& result() { return result_; }
  const std::vector<CRank>& ranks() const { return ranks_; }
  const Stacks& stacks() const { return stacks_; }
  bool host_compute() const { return opt_.host_compute; }

 private:
  static void rank_main(Fiber& f);
  void resume(std::uint32_t r);
  // With labels: the rank's streams, which prefix each line and pass it to the
  // process's own (made on first use).
  void label_streams(CRank& c, std::uint32_t r);

  const Loaded& prog_;
  mpi::World& world_;
  const runner::Config& cfg_;
  runner::Result& result_;
  coll::Coordinator coordinator_;
  Stacks stacks_;
  PrivateGlobals globals_;
  std::vector<CRank> ranks_;
  std::uint32_t current_ = 0;
  bool on_fiber_ = false;
  pthread_t thread_ = pthread_self();
  const Options& opt_;
};

// "ring.c:12 in main" for a return address in the program (from its debug
// information, by addr2line), else "in main (ring+0x1139)"; "" if unknown.
std::string source_line(const void* site);

// The run in progress (one at a time: the C entry points find it here).
extern ProgramRun* g_run;

}  // namespace mpisim::program
