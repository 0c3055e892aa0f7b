#include "sim/engine.hpp"

#include <algorithm>
#include <cassert>

namespace mpisim::sim {

// The root coroutine of a process: awaits the process's task, records how it
// ended, and stays suspended at its end until the engine destroys it.
class Engine::Driver {
 public:
  struct promise_type {
    static void* operator new(std::size_t bytes) { return frame_pool::allocate(bytes); }
    static void operator delete(void* p, std::size_t bytes) noexcept { frame_pool::deallocate(p, bytes); }
    Driver get_return_object() noexcept {
      return Driver{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> handle;
};

Engine::~Engine() { destroy_processes(); }

Engine::Driver Engine::drive(Task<void> root, ProcessId id) {
  std::exception_ptr error;
  try {
    co_await std::move(root);
  } catch (...) {
    error = std::current_exception();
  }
  Process& p = processes_[id];
  p.done = true;
  p.end = now_;
  ++finished_;
  if (error && !failure_) {
    failure_ = ProcessFailure{id, now_, error};
    stopped_ = true;
  }
}

ProcessId Engine::spawn(Task<void> root) {
  auto id = static_cast<ProcessId>(processes_.size());
  processes_.push_back(Process{});
  Driver d = drive(std::move(root), id);
  processes_[id].driver = d.handle;
  std::uint64_t seq = next_seq_++;
  if (starts_head_ < starts_.size()) {
    StartRun& last = starts_.back();
    if (last.time == now_.ps && last.first_seq + last.count == seq && last.first + last.count == id) {
      ++last.count;
      return id;
    }
  }
  starts_.push_back(StartRun{now_.ps, seq, id, 1});
  return id;
}

void Engine::destroy_processes() noexcept {
  // Clear the queue first: its entries may point into frames about to go.
  queue_.clear();
  starts_.clear();
  starts_head_ = 0;
  for (Process& p : processes_) {
    if (p.driver) p.driver.destroy();
    p.driver = {};
  }
}

std::size_t Engine::pending_events() const noexcept {
  std::size_t n = queue_.size();
  for (std::size_t i = starts_head_; i < starts_.size(); ++i) n += starts_[i].count;
  return n;
}

void Engine::push(const Entry& e) { queue_.push(e); }

bool Engine::pop(Entry& out) {
  if (starts_head_ == starts_.size()) {
    if (!queue_.peek(out)) return false;
    queue_.pop();
    return true;
  }
  // Process starts are merged with the queue by (time, seq).
  const StartRun& r = starts_[starts_head_];
  Entry queued{};
  if (queue_.peek(queued) && (queued.time != r.time ? queued.time < r.time : queued.seq < r.first_seq)) {
    queue_.pop();
    out = queued;
    return true;
  }
  StartRun& run = starts_[starts_head_];
  out = Entry{run.time, run.first_seq, nullptr, reinterpret_cast<std::uint64_t>(processes_[run.first].driver.address())};
  ++run.first_seq;
  ++run.first;
  if (--run.count == 0 && ++starts_head_ == starts_.size()) {
    starts_.clear();
    starts_head_ = 0;
  }
  return true;
}

void Engine::at(SimTime t, EventHandler& handler, std::uint64_t arg) {
  assert(t >= now_);
  push(Entry{t.ps, next_seq_++, &handler, arg});
}

void Engine::at_keeping_seq(SimTime t, std::uint64_t seq, EventHandler& handler, std::uint64_t arg) {
  assert(t > now_);
  queue_.push_keeping_seq(Entry{t.ps, seq, &handler, arg});
}

void Engine::resume_at(SimTime t, std::coroutine_handle<> h) {
  assert(t >= now_);
  push(Entry{t.ps, next_seq_++, nullptr, reinterpret_cast<std::uint64_t>(h.address())});
}

void Engine::dispatch(const Entry& e) {
  if (e.handler == nullptr) {
    std::coroutine_handle<>::from_address(reinterpret_cast<void*>(e.arg)).resume();
  } else {
    e.handler->on_event(e.arg, e.seq);
  }
}

std::uint64_t Engine::run() {
  const std::uint64_t before = events_;
  Entry e{};
  while (!stopped_ && pop(e)) {
    assert(e.time >= now_.ps);
    if (events_ >= max_events_ || e.time > max_time_.ps) {
      limit_ = e.time > max_time_.ps ? Limit::time : Limit::events;
      stopped_ = true;
      break;
    }
    now_.ps = e.time;
    ++events_;
    dispatch(e);
  }
  return events_ - before;
}

}  // namespace mpisim::sim
