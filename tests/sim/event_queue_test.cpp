#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "sim/event_queue.hpp"

using namespace mpisim::sim;

namespace {

// The order the queue must give: (time, seq), whatever the pushes' order.
using Key = std::tuple<std::int64_t, std::uint64_t, std::uint64_t>;  // time, seq, arg

// Pops every event of q, checking each against the reference (emptied as it goes).
void drain(EventQueue& q, std::set<Key>& ref) {
  QueuedEvent e{};
  while (!ref.empty()) {
    REQUIRE(q.take(e));
    CHECK(Key{e.time, e.seq, e.arg} == *ref.begin());
    ref.erase(ref.begin());
  }
  CHECK(q.empty());
  CHECK_FALSE(q.take(e));
}

}  // namespace

TEST_CASE("re-queued events pushed out of seq order are served in (time, seq) order") {
  EventQueue q;
  std::set<Key> ref;
  auto fresh = [&](std::int64_t t, std::uint64_t seq) {
    q.push(QueuedEvent{t, seq, nullptr, seq});
    ref.emplace(t, seq, seq);
  };
  auto requeue = [&](std::int64_t t, std::uint64_t seq) {
    q.push_keeping_seq(QueuedEvent{t, seq, nullptr, seq});
    ref.emplace(t, seq, seq);
  };
  fresh(10, 100);
  fresh(10, 101);
  requeue(10, 7);   // before both fresh ones
  requeue(10, 3);   // out of order: the list is sorted when served
  requeue(10, 100'000);  // after them
  requeue(20, 5);   // an instant with re-queued events only
  requeue(20, 4);
  fresh(20, 102);
  drain(q, ref);
}

TEST_CASE("the queue serves (time, seq) order under random fresh and re-queued pushes") {
  // A model of the engine's use: events are taken in order; some come back later
  // with their seq (a send that waited for its port), some schedule fresh events
  // now or later. peek + pop and take are used alternately.
  std::mt19937_64 rng(20261123);
  EventQueue q;
  std::set<Key> ref;
  std::uint64_t next_seq = 0;
  std::int64_t now = 0;
  for (int i = 0; i < 200; ++i) {
    std::int64_t t = static_cast<std::int64_t>(rng() % 50);
    q.push(QueuedEvent{t, next_seq, nullptr, next_seq});
    ref.emplace(t, next_seq, next_seq);
    ++next_seq;
  }
  // Fresh pushes must come in seq order per instant: the queue's contract.
  for (int step = 0; step < 20000; ++step) {
    REQUIRE_FALSE(ref.empty());
    QueuedEvent e{};
    if (step % 2 == 0) {
      REQUIRE(q.take(e));
    } else {
      REQUIRE(q.peek(e));
      q.pop();
    }
    REQUIRE(Key{e.time, e.seq, e.arg} == *ref.begin());
    ref.erase(ref.begin());
    CHECK(e.time >= now);
    now = e.time;
    switch (rng() % 4) {
      case 0: {  // back later with its seq
        std::int64_t t = now + 1 + static_cast<std::int64_t>(rng() % 8);
        q.push_keeping_seq(QueuedEvent{t, e.seq, nullptr, e.arg});
        ref.emplace(t, e.seq, e.arg);
        break;
      }
      default: {  // one or two fresh events, now or later
        const int n = 1 + static_cast<int>(rng() % 2);
        for (int k = 0; k < n; ++k) {
          std::int64_t t = now + static_cast<std::int64_t>(rng() % 4);
          q.push(QueuedEvent{t, next_seq, nullptr, next_seq});
          ref.emplace(t, next_seq, next_seq);
          ++next_seq;
        }
        break;
      }
    }
    CHECK(q.size() == ref.size());
  }
  drain(q, ref);
}
