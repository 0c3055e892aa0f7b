#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine.hpp"
#include "sim/frame_pool.hpp"
#include "sim/wait_for_graph.hpp"

using namespace mpisim::sim;

namespace {

struct Recorder final : EventHandler {
  std::vector<std::pair<std::int64_t, std::uint64_t>> seen;  // (time, arg)
  Engine* e = nullptr;
  void on_event(std::uint64_t arg, std::uint64_t) override { seen.emplace_back(e->now().ps, arg); }
};

Task<int> leaf(Engine& e, int v) {
  co_await e.sleep_until(e.now() + SimTime::from_ps(10));
  co_return v * 2;
}

Task<int> middle(Engine& e, int v) {
  int a = co_await leaf(e, v);
  int b = co_await leaf(e, v + 1);
  co_return a + b;
}

Task<void> root(Engine& e, std::vector<int>& out, int v) {
  out.push_back(co_await middle(e, v));
}

Task<void> thrower(Engine& e) {
  co_await e.sleep_until(SimTime::from_ps(5));
  throw std::runtime_error("boom");
}

Task<void> waits_forever(Engine& e, Recorder& never) {
  (void)never;
  struct Forever {
    bool await_ready() { return false; }
    void await_suspend(std::coroutine_handle<>) {}
    void await_resume() {}
  };
  co_await Forever{};
  (void)e;
}

}  // namespace

TEST_CASE("events run in time order, and in scheduling order at equal times") {
  Engine e;
  Recorder r;
  r.e = &e;
  e.at(SimTime::from_ps(20), r, 1);
  e.at(SimTime::from_ps(10), r, 2);
  e.at(SimTime::from_ps(20), r, 3);
  e.at(SimTime::from_ps(10), r, 4);
  e.run();
  std::vector<std::pair<std::int64_t, std::uint64_t>> want = {{10, 2}, {10, 4}, {20, 1}, {20, 3}};
  CHECK(r.seen == want);
}

TEST_CASE("an event re-queued with its sequence number goes before younger events of the same instant") {
  Engine e;
  struct Requeue final : EventHandler {
    Engine* e;
    std::vector<std::uint64_t> order;
    void on_event(std::uint64_t arg, std::uint64_t seq) override {
      if (arg == 1 && e->now().ps == 0) {
        e->at_keeping_seq(SimTime::from_ps(5), seq, *this, arg);  // waits for a busy resource
        return;
      }
      order.push_back(arg);
    }
  } q;
  q.e = &e;
  e.at(SimTime::from_ps(0), q, 1);   // oldest
  e.at(SimTime::from_ps(5), q, 2);   // younger, same instant as the retry
  e.run();
  CHECK(q.order == std::vector<std::uint64_t>{1, 2});
}

TEST_CASE("a task awaiting tasks gets their values, time advances only through the queue") {
  Engine e;
  std::vector<int> out;
  e.spawn(root(e, out, 3));
  e.run();
  REQUIRE(out.size() == 1);
  CHECK(out[0] == 6 + 8);
  CHECK(e.now().ps == 20);
  CHECK(e.unfinished_count() == 0);
  CHECK(e.process_end(0).ps == 20);
}

TEST_CASE("an exception escaping a process stops the run and names the process and time") {
  Engine e;
  std::vector<int> out;
  e.spawn(root(e, out, 1));
  e.spawn(thrower(e));
  e.run();
  REQUIRE(e.failure());
  CHECK(e.failure()->process == 1);
  CHECK(e.failure()->time.ps == 5);
  CHECK_THROWS_WITH_AS(std::rethrow_exception(e.failure()->error), "boom", std::runtime_error);
}

ProcessTask process_root(Engine& e, std::vector<int>& out, int v, bool fail) {
  out.push_back(co_await middle(e, v));
  if (fail) throw std::runtime_error("root failed");
}

TEST_CASE("a ProcessTask root reports its end, and an exception escaping it, without a wrapper") {
  Engine e;
  std::vector<int> out;
  e.spawn(process_root(e, out, 1, false));
  e.spawn(process_root(e, out, 5, true));
  e.run();
  CHECK(out == std::vector<int>{2 + 4, 10 + 12});
  CHECK(e.process_done(0));
  CHECK(e.process_end(0).ps == 20);
  REQUIRE(e.failure());
  CHECK(e.failure()->process == 1);
  CHECK(e.failure()->time.ps == 20);
  CHECK_THROWS_WITH_AS(std::rethrow_exception(e.failure()->error), "root failed", std::runtime_error);
}

TEST_CASE("the progress hook is called every N events and changes nothing") {
  auto run = [](bool with_progress, std::vector<std::uint64_t>* calls) {
    Engine e;
    Recorder r;
    r.e = &e;
    for (std::uint64_t i = 0; i < 10; ++i) e.at(SimTime::from_ps(static_cast<std::int64_t>(i % 3)), r, i);
    if (with_progress) e.set_progress(4, [calls](const Engine& en) { calls->push_back(en.events_processed()); });
    e.run();
    return r.seen;
  };
  std::vector<std::uint64_t> calls;
  CHECK(run(true, &calls) == run(false, nullptr));
  CHECK(calls == std::vector<std::uint64_t>{4, 8});
}

TEST_CASE("every coroutine frame is destroyed, also when processes never finish") {
  auto before = frame_pool::live_frames();
  {
    Engine e;
    Recorder never;
    std::vector<int> out;
    e.spawn(waits_forever(e, never));
    e.spawn(root(e, out, 2));
    e.run();
    CHECK(e.unfinished_count() == 1);
    CHECK(frame_pool::live_frames() > before);
  }
  CHECK(frame_pool::live_frames() == before);
}

TEST_CASE("find_cycle returns a cycle of the wait-for graph, or nothing") {
  CHECK(find_cycle(3, {{0, 1}, {1, 2}}).empty());
  auto c = find_cycle(4, {{0, 1}, {1, 2}, {2, 3}, {3, 1}});
  CHECK(c == std::vector<std::uint32_t>{1, 2, 3});
  CHECK(find_cycle(2, {{0, 1}, {1, 0}}) == std::vector<std::uint32_t>{0, 1});
}
