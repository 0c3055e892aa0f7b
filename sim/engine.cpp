#include "sim/engine.hpp"

#include <algorithm>
#include <cassert>

namespace mpisim::sim {

Engine::~Engine() { destroy_processes(); }

void ProcessTask::promise_type::Final::await_suspend(std::coroutine_handle<promise_type> h) noexcept {
  promise_type& p = h.promise();
  p.engine->process_ended(p.id, std::move(p.error));
}

void Engine::process_ended(ProcessId id, std::exception_ptr error) noexcept {
  Process& p = processes_[id];
  p.end_ps = now_.ps;
  ++finished_;
  if (error && !failure_) {
    failure_ = ProcessFailure{id, now_, std::move(error)};
    stopped_ = true;
  }
}

void Engine::fail(ProcessId p, std::exception_ptr error) noexcept {
  if (failure_) return;
  failure_ = ProcessFailure{p, now_, std::move(error)};
  stopped_ = true;
}

ProcessTask Engine::drive(Task<void> root) { co_await std::move(root); }

ProcessId Engine::spawn(Task<void> root) { return spawn(drive(std::move(root))); }

ProcessId Engine::spawn(ProcessTask root) {
  auto id = static_cast<ProcessId>(processes_.size());
  processes_.push_back(Process{});
  ProcessTask::Handle h = root.release();
  h.promise().engine = this;
  h.promise().id = id;
  processes_[id].root = h;
  std::uint64_t seq = take_seq();
  if (starts_head_ < starts_.size()) {
    StartRun& last = starts_.back();
    if (last.time == now_.ps && last.first_seq + last.count * kSeqStep == seq && last.first + last.count == id) {
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
    if (p.root) p.root.destroy();
    p.root = {};
  }
}

void Engine::push(const Entry& e) { queue_.push(e); }

bool Engine::pop(Entry& out) {
  if (starts_head_ == starts_.size()) return queue_.take(out);
  // Process starts are merged with the queue by (time, seq).
  const StartRun& r = starts_[starts_head_];
  Entry queued{};
  if (queue_.peek(queued) && (queued.time != r.time ? queued.time < r.time : queued.seq < r.first_seq)) {
    queue_.pop();
    out = queued;
    return true;
  }
  StartRun& run = starts_[starts_head_];
  out = Entry{run.time, run.first_seq, nullptr, reinterpret_cast<std::uint64_t>(processes_[run.first].root.address())};
  run.first_seq += kSeqStep;
  ++run.first;
  if (--run.count == 0 && ++starts_head_ == starts_.size()) {
    starts_.clear();
    starts_head_ = 0;
  }
  return true;
}

void Engine::at(SimTime t, EventHandler& handler, std::uint64_t arg) {
  assert(t >= now_);
  push(Entry{t.ps, take_seq(), &handler, arg});
}

void Engine::at_keeping_seq(SimTime t, std::uint64_t seq, EventHandler& handler, std::uint64_t arg) {
  assert(t >= now_);
  queue_.push_keeping_seq(Entry{t.ps, seq, &handler, arg});
}

void Engine::resume_at(SimTime t, std::coroutine_handle<> h) {
  assert(t >= now_);
  push(Entry{t.ps, take_seq(), nullptr, reinterpret_cast<std::uint64_t>(h.address())});
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
    if (events_ == progress_at_) {
      progress_at_ += progress_every_;
      progress_(*this);
    }
  }
  return events_ - before;
}

}  // namespace mpisim::sim
