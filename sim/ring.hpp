#pragma once
// A first-in first-out queue of objects linked through their own `next` member,
// held by one pointer: the last object, whose `next` is the first. Appending,
// putting back in front, taking the first and removing an object found by a walk
// from the first are constant time, and the queue costs its owner eight bytes (a rank keeps three of
// them, a million ranks at once).
//
// An object is in at most one ring at a time; out of every ring its `next` is
// null.
namespace mpisim::sim {

template <typename T>
class Ring {
 public:
  bool empty() const noexcept { return last_ == nullptr; }
  T* first() const noexcept { return last_ != nullptr ? last_->next : nullptr; }
  T* last() const noexcept { return last_; }
  // The object after x in the walk from the first, or null after the last.
  T* after(const T* x) const noexcept { return x == last_ ? nullptr : x->next; }

  void push_back(T* x) noexcept {
    if (last_ == nullptr) {
      x->next = x;
    } else {
      x->next = last_->next;
      last_->next = x;
    }
    last_ = x;
  }

  void push_front(T* x) noexcept {
    if (last_ == nullptr) {
      x->next = x;
      last_ = x;
    } else {
      x->next = last_->next;
      last_->next = x;
    }
  }

  // Removes x, which follows `prev` in the walk (prev null: x is the first).
  void remove(T* prev, T* x) noexcept {
    if (x->next == x) {
      last_ = nullptr;
    } else {
      (prev != nullptr ? prev : last_)->next = x->next;
      if (x == last_) last_ = prev;
    }
    x->next = nullptr;
  }

  T* pop_front() noexcept {
    T* x = first();
    if (x != nullptr) remove(nullptr, x);
    return x;
  }

 private:
  T* last_ = nullptr;
};

}  // namespace mpisim::sim
