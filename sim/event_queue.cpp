#include "sim/event_queue.hpp"

#include <algorithm>
#include <cassert>

namespace mpisim::sim {
namespace {

struct LaterInstant {
  template <class I>
  bool operator()(const I& a, const I& b) const noexcept {
    return a.time > b.time;
  }
};

struct LaterEvent {
  bool operator()(const QueuedEvent& a, const QueuedEvent& b) const noexcept {
    return a.time != b.time ? a.time > b.time : a.seq > b.seq;
  }
};

// Freed buckets keep their storage for reuse, up to this many of them; beyond,
// a freed bucket gives its storage back.
constexpr std::size_t kKeptBuckets = 64;

}  // namespace

std::uint32_t* EventQueue::find_slot(std::int64_t t) {
  if (table_.empty()) return nullptr;
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = hash(t);; i = (i + 1) & mask) {
    Slot& s = table_[i];
    if (s.bucket == kEmpty) return nullptr;
    if (s.time == t) return &s.bucket;
  }
}

void EventQueue::insert_slot(std::int64_t t, std::uint32_t bucket) {
  if ((used_slots_ + 1) * 2 > table_.size()) {
    // Double the table (load factor at most 1/2) and re-insert every slot.
    std::vector<Slot> old = std::move(table_);
    std::size_t n = old.empty() ? 64 : old.size() * 2;
    table_.assign(n, Slot{0, kEmpty});
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
    used_slots_ = 0;
    for (const Slot& s : old)
      if (s.bucket != kEmpty) insert_slot(s.time, s.bucket);
  }
  const std::size_t mask = table_.size() - 1;
  std::size_t i = hash(t);
  while (table_[i].bucket != kEmpty) i = (i + 1) & mask;
  table_[i] = Slot{t, bucket};
  ++used_slots_;
}

void EventQueue::erase_slot(std::int64_t t) {
  const std::size_t mask = table_.size() - 1;
  std::size_t i = hash(t);
  while (table_[i].time != t || table_[i].bucket == kEmpty) i = (i + 1) & mask;
  // Backward-shift deletion: pull later members of the probe run into the hole,
  // so lookups never need tombstones.
  for (std::size_t j = (i + 1) & mask; table_[j].bucket != kEmpty; j = (j + 1) & mask) {
    std::size_t home = hash(table_[j].time);
    bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (!between) {
      table_[i] = table_[j];
      i = j;
    }
  }
  table_[i].bucket = kEmpty;
  --used_slots_;
}

std::uint32_t EventQueue::bucket_for(std::int64_t t) {
  if (cached_bucket_ != kEmpty && cached_time_ == t) return cached_bucket_;
  std::uint32_t b;
  if (std::uint32_t* found = find_slot(t)) {
    b = *found;
  } else {
    if (!free_buckets_.empty()) {
      b = free_buckets_.back();
      free_buckets_.pop_back();
    } else {
      b = static_cast<std::uint32_t>(buckets_.size());
      buckets_.emplace_back();
    }
    buckets_[b].time = t;
    buckets_[b].head = 0;
    insert_slot(t, b);
    times_.push_back(Instant{t, b});
    std::push_heap(times_.begin(), times_.end(), LaterInstant{});
  }
  cached_time_ = t;
  cached_bucket_ = b;
  return b;
}

void EventQueue::push_to_other_instant(const QueuedEvent& e) { append(buckets_[bucket_for(e.time)], e); }

bool EventQueue::take_slow(QueuedEvent& out) {
  if (!peek(out)) return false;
  pop();
  return true;
}

void EventQueue::push_keeping_seq(const QueuedEvent& e) {
  late_.push_back(e);
  std::push_heap(late_.begin(), late_.end(), LaterEvent{});
  ++size_;
}

bool EventQueue::late_first() const {
  if (late_.empty()) return false;
  if (times_.empty()) return true;
  const Instant& front = times_.front();
  const QueuedEvent& l = late_.front();
  if (l.time != front.time) return l.time < front.time;
  const Bucket& b = buckets_[front.bucket];
  return l.seq < b.items[b.head].seq;
}

bool EventQueue::peek(QueuedEvent& out) const {
  if (size_ == 0) return false;
  if (late_first()) {
    out = late_.front();
    return true;
  }
  const Instant& front = times_.front();
  const Bucket& b = buckets_[front.bucket];
  const Item& it = b.items[b.head];
  out = QueuedEvent{front.time, it.seq, it.handler, it.arg};
  return true;
}

void EventQueue::pop() {
  assert(size_ > 0);
  --size_;
  if (late_first()) {
    std::pop_heap(late_.begin(), late_.end(), LaterEvent{});
    late_.pop_back();
    return;
  }
  Bucket& b = buckets_[times_.front().bucket];
  if (++b.head == b.items.size()) forget_front_bucket();
}

void EventQueue::forget_front_bucket() {
  std::uint32_t id = times_.front().bucket;
  Bucket& b = buckets_[id];
  std::pop_heap(times_.begin(), times_.end(), LaterInstant{});
  times_.pop_back();
  erase_slot(b.time);
  if (cached_bucket_ == id) cached_bucket_ = kEmpty;
  b.head = 0;
  if (free_buckets_.size() < kKeptBuckets)
    b.items.clear();
  else
    std::vector<Item>().swap(b.items);
  free_buckets_.push_back(id);
}

void EventQueue::clear() {
  buckets_.clear();
  free_buckets_.clear();
  times_.clear();
  table_.clear();
  shift_ = 64;
  used_slots_ = 0;
  cached_bucket_ = kEmpty;
  late_.clear();
  size_ = 0;
}

}  // namespace mpisim::sim
