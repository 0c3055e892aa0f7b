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
  heap_.clear();
  fifo_.clear();
  fifo_head_ = 0;
  starts_.clear();
  starts_head_ = 0;
  for (Process& p : processes_) {
    if (p.driver) p.driver.destroy();
    p.driver = {};
  }
}

std::size_t Engine::pending_events() const noexcept {
  std::size_t n = heap_.size() + (fifo_.size() - fifo_head_);
  for (std::size_t i = starts_head_; i < starts_.size(); ++i) n += starts_[i].count;
  return n;
}

void Engine::push(const Entry& e) {
  // A fresh entry for the current instant has the newest seq: it goes last.
  if (e.time == now_.ps) {
    fifo_.push_back(e);
    return;
  }
  heap_.push_back(e);
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

bool Engine::pop(Entry& out) {
  if (starts_head_ == starts_.size()) {
    // After the start: the heap's entries of this instant were scheduled before any
    // FIFO entry, so they go first; the FIFO's come before later instants.
    bool fifo_has = fifo_head_ < fifo_.size();
    if (!heap_.empty() && (!fifo_has || heap_.front().time == now_.ps)) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      out = heap_.back();
      heap_.pop_back();
      return true;
    }
    if (!fifo_has) return false;
    out = fifo_[fifo_head_++];
    if (fifo_head_ == fifo_.size()) {
      fifo_.clear();
      fifo_head_ = 0;
    }
    return true;
  }
  // Three sources, merged by (time, seq): the heap (later instants, and entries of
  // this instant scheduled earlier), the FIFO (this instant, newest), the starts.
  const Entry* best = nullptr;
  int source = -1;
  auto earlier = [](const Entry& a, const Entry* b) { return b == nullptr || Later{}(*b, a); };
  Entry start{};
  if (starts_head_ < starts_.size()) {
    const StartRun& r = starts_[starts_head_];
    start = Entry{r.time, r.first_seq, nullptr, 0};
    best = &start;
    source = 0;
  }
  if (!heap_.empty() && earlier(heap_.front(), best)) best = &heap_.front(), source = 1;
  if (fifo_head_ < fifo_.size() && earlier(fifo_[fifo_head_], best)) best = &fifo_[fifo_head_], source = 2;
  switch (source) {
    case 0: {
      StartRun& r = starts_[starts_head_];
      out = Entry{r.time, r.first_seq, nullptr, reinterpret_cast<std::uint64_t>(processes_[r.first].driver.address())};
      ++r.first_seq;
      ++r.first;
      if (--r.count == 0 && ++starts_head_ == starts_.size()) {
        starts_.clear();
        starts_head_ = 0;
      }
      return true;
    }
    case 1:
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      out = heap_.back();
      heap_.pop_back();
      return true;
    case 2:
      out = fifo_[fifo_head_++];
      if (fifo_head_ == fifo_.size()) {
        fifo_.clear();
        fifo_head_ = 0;
      }
      return true;
    default: return false;
  }
}

void Engine::at(SimTime t, EventHandler& handler, std::uint64_t arg) {
  assert(t >= now_);
  push(Entry{t.ps, next_seq_++, &handler, arg});
}

void Engine::at_keeping_seq(SimTime t, std::uint64_t seq, EventHandler& handler, std::uint64_t arg) {
  assert(t > now_);
  heap_.push_back(Entry{t.ps, seq, &handler, arg});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
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
