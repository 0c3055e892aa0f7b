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

bool EventQueue::late_next(Bucket& b) {
  if (b.late_head == b.late.size()) return false;
  if (!b.late_sorted) {
    std::sort(b.late.begin() + static_cast<std::ptrdiff_t>(b.late_head), b.late.end(),
              [](const Item& x, const Item& y) { return x.seq < y.seq; });
    b.late_sorted = true;
  }
  return b.head == b.items.size() || b.late[b.late_head].seq < b.items[b.head].seq;
}

bool EventQueue::take_merging(Bucket& b, QueuedEvent& out) {
  const bool late = late_next(b);
  const Item& it = late ? b.late[b.late_head] : b.items[b.head];
  out = QueuedEvent{b.time, it.seq, it.handler, it.arg};
  // The events ahead come from either list; those of the list this one came from
  // are asked for (runs of one list are the common case).
  if (late) prefetch_ahead(b.late, b.late_head);
  else prefetch_ahead(b.items, b.head);
  pop_front_of(b, late);
  return true;
}

void EventQueue::pop_front_of(Bucket& b, bool late) {
  --size_;
  if (late) ++b.late_head;
  else ++b.head;
  if (b.head == b.items.size() && b.late_head == b.late.size()) forget_front_bucket();
}

void EventQueue::push_keeping_seq(const QueuedEvent& e) {
  Bucket& b = buckets_[bucket_for(e.time)];
  if (b.late_head != b.late.size() && b.late.back().seq > e.seq) b.late_sorted = false;
  b.late.push_back(Item{e.seq, e.handler, e.arg});
  ++size_;
}

bool EventQueue::peek(QueuedEvent& out) {
  if (times_.empty()) return false;
  Bucket& b = buckets_[times_.front().bucket];
  const Item& it = late_next(b) ? b.late[b.late_head] : b.items[b.head];
  out = QueuedEvent{b.time, it.seq, it.handler, it.arg};
  return true;
}

void EventQueue::pop() {
  assert(size_ > 0);
  Bucket& b = buckets_[times_.front().bucket];
  pop_front_of(b, late_next(b));
}

void EventQueue::forget_front_bucket() {
  std::uint32_t id = times_.front().bucket;
  Bucket& b = buckets_[id];
  std::pop_heap(times_.begin(), times_.end(), LaterInstant{});
  times_.pop_back();
  erase_slot(b.time);
  if (cached_bucket_ == id) cached_bucket_ = kEmpty;
  b.head = 0;
  b.late_head = 0;
  b.late_sorted = true;
  if (free_buckets_.size() < kKeptBuckets) {
    b.items.clear();
    b.late.clear();
  } else {
    std::vector<Item>().swap(b.items);
    std::vector<Item>().swap(b.late);
  }
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
  size_ = 0;
}

}  // namespace mpisim::sim
