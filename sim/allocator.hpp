#pragma once
// A standard allocator over a pair of functions that hand out and take back raw
// blocks (bulk memory, the frame pool): what std::vector needs to keep its storage
// there. Stateless, so any two compare equal.
#include <cstddef>
#include <limits>
#include <new>

namespace mpisim::sim {

template <typename T, void* (*Get)(std::size_t), void (*Put)(void*, std::size_t) noexcept>
struct FunctionAllocator {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = FunctionAllocator<U, Get, Put>;
  };
  FunctionAllocator() = default;
  template <typename U>
  FunctionAllocator(const FunctionAllocator<U, Get, Put>&) noexcept {}  // NOLINT: rebinding, as std::allocator
  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(Get(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { Put(p, n * sizeof(T)); }
  template <typename U>
  friend bool operator==(const FunctionAllocator&, const FunctionAllocator<U, Get, Put>&) noexcept {
    return true;
  }
};

}  // namespace mpisim::sim
