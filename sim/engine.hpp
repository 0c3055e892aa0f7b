#pragma once
// The event kernel: one queue of timed wake-ups and the processes it drives.
//
// Ordering key: (time, seq). `seq` is a global insertion counter, so events at the
// same instant run in the order they were scheduled (FIFO ties) and nothing ever
// depends on pointer values or on a hash order. An item that must wait for a busy
// resource can be put back with its original seq (`at_keeping_seq`): when the
// resource frees, the item that became ready first is served first.
#include <coroutine>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "sim/bulk.hpp"
#include "sim/event_queue.hpp"
#include "sim/frame_pool.hpp"
#include "sim/task.hpp"
#include "sim/time.hpp"

namespace mpisim::sim {

class Engine;

using ProcessId = std::uint32_t;

// A process's root coroutine, for roots that want no wrapper frame: declare the
// root function as returning ProcessTask. The engine starts it at its spawn time,
// and its promise reports its end (and an exception that escaped it) to the engine.
class [[nodiscard]] ProcessTask {
 public:
  struct promise_type {
    Engine* engine = nullptr;
    ProcessId id = 0;
    std::exception_ptr error;

    static void* operator new(std::size_t bytes) { return frame_pool::allocate(bytes); }
    static void operator delete(void* p, std::size_t bytes) noexcept { frame_pool::deallocate(p, bytes); }
    ProcessTask get_return_object() noexcept {
      return ProcessTask(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept;  // stays suspended until destroyed
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  using Handle = std::coroutine_handle<promise_type>;

  explicit ProcessTask(Handle h) noexcept : h_(h) {}
  ProcessTask(ProcessTask&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ProcessTask& operator=(ProcessTask&&) = delete;
  ProcessTask(const ProcessTask&) = delete;
  ~ProcessTask() {
    if (h_) h_.destroy();
  }
  Handle release() noexcept { return std::exchange(h_, {}); }

 private:
  Handle h_;
};

struct ProcessFailure {
  ProcessId process;
  SimTime time;
  std::exception_ptr error;
};

class Engine {
 public:
  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine();

  SimTime now() const noexcept { return now_; }

  // Schedules handler.on_event(arg, seq) at time t (>= now) with a fresh seq.
  void at(SimTime t, EventHandler& handler, std::uint64_t arg = 0);
  // Queues an event with a seq it already had (an item that waited): at a later
  // time t, or at the current instant when seq is later than the running event's.
  void at_keeping_seq(SimTime t, std::uint64_t seq, EventHandler& handler, std::uint64_t arg);
  // A fresh seq for an event its caller keeps out of the queue for now, to queue
  // later with at_keeping_seq: it is ordered as if queued now.
  std::uint64_t take_seq() noexcept {
    std::uint64_t s = next_seq_;
    next_seq_ += kSeqStep;
    return s;
  }
  // Fresh seqs are kSeqStep apart. The kSeqStep - 1 values after an event's seq
  // order items *as of that event*: before every seq taken after it. A handler
  // that acts for something decided when its event was scheduled (a rank resumed
  // at a time fixed earlier) gives what it issues those seqs (at_keeping_seq).
  static constexpr std::uint64_t kSeqStep = std::uint64_t{1} << 20;
  // Resumes a suspended coroutine at time t (>= now).
  void resume_at(SimTime t, std::coroutine_handle<> h);

  // co_await engine.sleep_until(t): suspends the awaiting coroutine until time t.
  auto sleep_until(SimTime t) {
    struct Awaiter {
      Engine& e;
      SimTime t;
      bool await_ready() const noexcept { return false; }  // always yields, even for t == now: FIFO order stays exact
      void await_suspend(std::coroutine_handle<> h) { e.resume_at(t, h); }
      void await_resume() const noexcept {}
    };
    return Awaiter{*this, t < now_ ? now_ : t};
  }

  // Adds a process: its root starts at the current time, in the order of spawning.
  ProcessId spawn(ProcessTask root);
  // The same for a root task (wrapped in a small root coroutine that awaits it).
  ProcessId spawn(Task<void> root);

  // Runs until no event is pending or stop() is called. Returns the number of
  // events processed by this call.
  std::uint64_t run();
  void stop() noexcept { stopped_ = true; }
  bool stopped() const noexcept { return stopped_; }

  // Limits on a run (--max-events, --max-sim-time): reaching one stops the run
  // between two events, with the reason kept.
  enum class Limit { none, events, time };
  void set_limits(std::uint64_t max_events, SimTime max_time) { max_events_ = max_events, max_time_ = max_time; }
  Limit limit_reached() const noexcept { return limit_; }

  // Calls report(*this) after every `every` events (a progress display). It must
  // not change the simulation.
  void set_progress(std::uint64_t every, std::function<void(const Engine&)> report) {
    progress_every_ = every;
    progress_at_ = events_ + every;
    progress_ = std::move(report);
  }

  // Room for n processes in all, so that spawning a million does not regrow (and
  // copy, and fault in afresh) the process table twenty times. Only a hint.
  void reserve_processes(std::size_t n) { processes_.reserve(n); }
  std::size_t process_count() const noexcept { return processes_.size(); }
  bool process_done(ProcessId p) const { return processes_[p].end_ps >= 0; }
  // When the process ended; zero while it runs.
  SimTime process_end(ProcessId p) const {
    const std::int64_t end = processes_[p].end_ps;
    return SimTime{end < 0 ? 0 : end};
  }
  std::size_t unfinished_count() const noexcept { return processes_.size() - finished_; }
  // Reports a failure of process p's detached work (a coroutine of its own that
  // is not the process's root): as if it had escaped p, the run stops there.
  void fail(ProcessId p, std::exception_ptr error) noexcept;
  // The first failure (an exception that escaped a process), if any; the run stops there.
  const std::optional<ProcessFailure>& failure() const noexcept { return failure_; }
  std::uint64_t events_processed() const noexcept { return events_; }

  // Destroys every process's coroutine frames (finished or blocked forever).
  void destroy_processes() noexcept;

 private:
  using Entry = QueuedEvent;

  struct Process {  // 16 bytes: one per rank
    std::coroutine_handle<> root;  // the root coroutine (a ProcessTask)
    std::int64_t end_ps = -1;      // when it ended; -1 while it runs
  };
  static_assert(sizeof(Process) <= 16, "the engine's process entry is 16 bytes (docs/architecture.md)");

  friend struct ProcessTask::promise_type::Final;
  static ProcessTask drive(Task<void> root);
  void process_ended(ProcessId id, std::exception_ptr error) noexcept;
  void push(const Entry& e);
  bool pop(Entry& out);
  void dispatch(const Entry& e);

  SimTime now_{};
  std::uint64_t next_seq_ = 0;
  std::uint64_t events_ = 0;
  bool stopped_ = false;
  std::size_t finished_ = 0;
  EventQueue queue_;
  bulk::Vector<Process> processes_;
  // Process starts are events too, but a million of them would cost 32 bytes
  // each in the FIFO: consecutive spawns at one instant are kept as one run of
  // consecutive (seq, process id) pairs instead, and merged into the order.
  struct StartRun {
    std::int64_t time;
    std::uint64_t first_seq;
    ProcessId first;
    std::uint32_t count;
  };
  std::vector<StartRun> starts_;
  std::size_t starts_head_ = 0;
  std::optional<ProcessFailure> failure_;
  std::uint64_t max_events_ = UINT64_MAX;
  SimTime max_time_ = SimTime::never();
  Limit limit_ = Limit::none;
  std::uint64_t progress_every_ = 0, progress_at_ = UINT64_MAX;
  std::function<void(const Engine&)> progress_;
};

}  // namespace mpisim::sim
