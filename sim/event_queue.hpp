#pragma once
// The engine's pending events, ordered by (time, seq).
//
// Simulated programs are bursty in time: a round of a collective, or a ring
// shift, schedules thousands of events for the same few instants. So the queue
// keeps one FIFO bucket per distinct instant and a binary heap of the instants,
// not of the events: pushing to an instant that already has a bucket is an
// append, popping is a read from the front, and the heap holds 8-byte times.
//
// Within a bucket the entries are in seq order because fresh seqs only grow. An
// event re-queued with an older seq (`push_keeping_seq`, for an item that waited
// for a busy resource) would break that, so those go to a second list of the
// bucket, merged with the first by seq when the instant is served. They mostly
// arrive in seq order too (a round's senders re-queue in the order they were
// served); when not, the list is sorted once, when its instant comes first.
//
// Buckets are found by time through an open-addressing table: only looked up,
// never iterated, so the order of events depends on (time, seq) alone.
#include <cassert>
#include <cstdint>
#include <vector>

namespace mpisim::sim {

// Something that reacts to a timed event. `arg` is the caller's word; `seq` is the
// event's ordering number, for callers that may need to re-queue it unchanged.
class EventHandler {
 public:
  virtual void on_event(std::uint64_t arg, std::uint64_t seq) = 0;
  // Called a few events before on_event(arg, ...), to start loading from memory
  // the state that event will reach for (a prefetch hint: it must change nothing).
  // Three times, `step` 0, 1 and 2, each closer to the event: state reached
  // through a pointer in state prefetched at an earlier step can be asked for at a
  // later one, when that pointer has arrived.
  virtual void prefetch(std::uint64_t, int /*step*/) const {}

 protected:
  ~EventHandler() = default;
};

// Asks for `lines` cache lines from `p` on: a hint, it changes nothing.
inline void prefetch_lines(const void* p, int lines) {
  for (int i = 0; i < lines; ++i) __builtin_prefetch(static_cast<const char*>(p) + 64 * i);
}

struct QueuedEvent {
  std::int64_t time;
  std::uint64_t seq;
  EventHandler* handler;  // null: `arg` is a coroutine address to resume
  std::uint64_t arg;
};
static_assert(sizeof(QueuedEvent) == 32, "queue entries are 32-byte values (docs/architecture.md)");

class EventQueue {
 public:
  // A fresh event: its seq is larger than every seq pushed before. Inline for
  // the common case, an instant that was just pushed to.
  void push(const QueuedEvent& e) {
    if (cached_bucket_ == kEmpty || cached_time_ != e.time) [[unlikely]] {
      push_to_other_instant(e);
      return;
    }
    append(buckets_[cached_bucket_], e);
  }
  // An event that keeps an older seq.
  void push_keeping_seq(const QueuedEvent& e);
  // The earliest event by (time, seq), or false when empty.
  bool peek(QueuedEvent& out);
  void pop();
  // peek and pop in one: inline when the first instant has no re-queued event.
  bool take(QueuedEvent& out) {
    if (times_.empty()) [[unlikely]]
      return false;
    Bucket& b = buckets_[times_.front().bucket];
    if (b.late_head != b.late.size()) [[unlikely]]
      return take_merging(b, out);
    const Item& it = b.items[b.head];
    out = QueuedEvent{b.time, it.seq, it.handler, it.arg};
    prefetch_ahead(b.items, b.head);
    --size_;
    if (++b.head == b.items.size()) forget_front_bucket();
    return true;
  }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  void clear();

 private:
  struct Item {
    std::uint64_t seq;
    EventHandler* handler;
    std::uint64_t arg;
  };
  struct Bucket {
    std::int64_t time = 0;
    std::size_t head = 0;
    std::vector<Item> items;  // fresh events, in seq order
    // Re-queued events, in the order pushed; in seq order from late_head on when
    // late_sorted.
    std::vector<Item> late;
    std::size_t late_head = 0;
    bool late_sorted = true;
  };
  struct Slot {
    std::int64_t time;
    std::uint32_t bucket;  // kEmpty: free slot
  };
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  static constexpr int kSteps = 3;
  static constexpr std::size_t kAhead[kSteps] = {12, 8, 4};

  // At a million ranks an event's state is rarely in cache: the queue asks for
  // the state of the events kAhead places on, so that it is on its way by then.
  // A coroutine's frame: the first lines (resume pointer, awaiter, locals), at
  // the middle step.
  static void prefetch(const Item& later, int step) {
    if (later.handler != nullptr) {
      later.handler->prefetch(later.arg, step);
      return;
    }
    if (step == 1) prefetch_lines(reinterpret_cast<const void*>(later.arg), 5);
  }
  // Prefetches for the items kAhead places after `at` in `list`.
  static void prefetch_ahead(const std::vector<Item>& list, std::size_t at) {
    for (int step = 0; step < kSteps; ++step)
      if (at + kAhead[step] < list.size()) prefetch(list[at + kAhead[step]], step);
  }
  std::uint32_t bucket_for(std::int64_t t);
  void push_to_other_instant(const QueuedEvent& e);
  // Whether the bucket's next event is its next re-queued one (lower seq than its
  // next fresh one); sorts the re-queued ones first if they came out of order.
  bool late_next(Bucket& b);
  bool take_merging(Bucket& b, QueuedEvent& out);
  // Removes the front bucket's next event (its next re-queued one when `late`).
  void pop_front_of(Bucket& b, bool late);
  void append(Bucket& b, const QueuedEvent& e) {
    assert(b.items.size() == b.head || b.items.back().seq < e.seq);
    b.items.push_back(Item{e.seq, e.handler, e.arg});
    ++size_;
  }
  void forget_front_bucket();
  std::uint32_t* find_slot(std::int64_t t);
  void insert_slot(std::int64_t t, std::uint32_t bucket);
  void erase_slot(std::int64_t t);
  std::size_t hash(std::int64_t t) const noexcept {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(t) * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  std::vector<Bucket> buckets_;
  std::vector<std::uint32_t> free_buckets_;
  struct Instant {
    std::int64_t time;
    std::uint32_t bucket;
  };
  std::vector<Instant> times_;  // min-heap of the instants that have a bucket
  std::vector<Slot> table_;          // time -> bucket, linear probing, power-of-two size
  unsigned shift_ = 64;
  std::size_t used_slots_ = 0;
  // The last bucket looked up: consecutive pushes mostly share an instant.
  std::int64_t cached_time_ = 0;
  std::uint32_t cached_bucket_ = kEmpty;
  std::size_t size_ = 0;
};

}  // namespace mpisim::sim
