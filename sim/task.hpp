#pragma once
// Task<T>: a lazy coroutine with symmetric transfer.
//
// A task does not start until it is awaited. Awaiting a task transfers control to
// it directly, and its completion transfers control straight back to the awaiter
// (final_suspend returns the continuation), so a rank awaiting an algorithm
// awaiting a receive is a chain of calls, not of queue entries, and does not grow
// the native stack. An exception leaving a task is rethrown in its awaiter.
#include <coroutine>
#include <exception>
#include <optional>
#include <utility>

#include "sim/frame_pool.hpp"

namespace mpisim::sim {

template <typename T = void>
class Task;

namespace detail {

struct PromiseBase {
  std::coroutine_handle<> continuation_ = std::noop_coroutine();
  std::exception_ptr error_;

  static void* operator new(std::size_t bytes) { return frame_pool::allocate(bytes); }
  static void operator delete(void* p, std::size_t bytes) noexcept { frame_pool::deallocate(p, bytes); }

  std::suspend_always initial_suspend() noexcept { return {}; }

  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <typename P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
      return h.promise().continuation_;
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }
  void unhandled_exception() noexcept { error_ = std::current_exception(); }
};

template <typename T>
struct Promise : PromiseBase {
  std::optional<T> value_;
  Task<T> get_return_object() noexcept;
  template <typename U>
  void return_value(U&& v) { value_.emplace(std::forward<U>(v)); }
  T take() {
    if (error_) std::rethrow_exception(error_);
    return std::move(*value_);
  }
};

template <>
struct Promise<void> : PromiseBase {
  Task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void take() {
    if (error_) std::rethrow_exception(error_);
  }
};

}  // namespace detail

template <typename T>
class [[nodiscard]] Task {
 public:
  using promise_type = detail::Promise<T>;
  using Handle = std::coroutine_handle<promise_type>;

  Task() noexcept = default;
  explicit Task(Handle h) noexcept : h_(h) {}
  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task& operator=(Task&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() {
    if (h_) h_.destroy();
  }

  bool done() const noexcept { return !h_ || h_.done(); }
  Handle handle() const noexcept { return h_; }
  // For a task resumed by hand with no awaiter (it ends at a no-op continuation):
  // the exception that left it, once done.
  std::exception_ptr error() const noexcept { return h_ ? h_.promise().error_ : nullptr; }

  auto operator co_await() && noexcept {
    struct Awaiter {
      Handle h;
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        h.promise().continuation_ = awaiting;
        return h;
      }
      T await_resume() { return h.promise().take(); }
    };
    return Awaiter{h_};
  }

 private:
  Handle h_;
};

namespace detail {
template <typename T>
Task<T> Promise<T>::get_return_object() noexcept {
  return Task<T>(std::coroutine_handle<Promise<T>>::from_promise(*this));
}
inline Task<void> Promise<void>::get_return_object() noexcept {
  return Task<void>(std::coroutine_handle<Promise<void>>::from_promise(*this));
}
}  // namespace detail

}  // namespace mpisim::sim
