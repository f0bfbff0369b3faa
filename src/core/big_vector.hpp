#pragma once
// Storage for the big arrays (edge slices, CSR, per-vertex state). Two differences from
// std::vector's default allocator, both for speed:
//  - large blocks are 2 MiB aligned and advised as transparent huge pages, which cuts the TLB
//    misses of random vertex accesses and the cost of first-touch page faults;
//  - resize() leaves trivial elements uninitialized instead of zeroing them, since every such array
//    is written before it is read.
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace g500 {

template <class T>
class BigAllocator {
 public:
  using value_type = T;
  BigAllocator() noexcept = default;
  template <class U>
  BigAllocator(const BigAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHuge) {
      if (void* p = std::malloc(bytes ? bytes : 1)) return static_cast<T*>(p);
      failed();
    }
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (!p) failed();
    madvise(p, rounded, MADV_HUGEPAGE);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) noexcept { std::free(p); }

  // Default-initialize (no zeroing) when no value is given.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const BigAllocator&, const BigAllocator&) { return true; }

 private:
  // As operator new fails: through the program's new_handler when it has one (g500 ends the job
  // with one line there, mpi/comm.hpp), else std::bad_alloc.
  [[noreturn]] static void failed() {
    if (const std::new_handler handler = std::get_new_handler()) handler();
    throw std::bad_alloc();
  }

  static constexpr std::size_t kHuge = std::size_t{2} << 20;
};

template <class T>
using big_vector = std::vector<T, BigAllocator<T>>;

// Frees what any vector holds, capacity and all (clear() keeps the capacity).
template <class Vector>
void release_storage(Vector& v) {
  Vector().swap(v);
}

// Resizes v for contents about to be written whole: storage too small is freed before the new is
// taken, where resize() would copy the old contents beside the new (both held at once).
template <class Vector>
void resize_for_overwrite(Vector& v, std::size_t n) {
  if (n > v.capacity()) release_storage(v);
  v.resize(n);
}

// Hands the pages of v's spare capacity back to the system without moving v (shrink_to_fit would
// copy, doubling the peak); v keeps its capacity, and pages touched again come back zeroed.
template <class T>
void release_spare_capacity(big_vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  constexpr std::uintptr_t kPage = 4096;
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(v.data() + v.size()) + kPage - 1) & ~(kPage - 1);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(v.data() + v.capacity()) & ~(kPage - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace g500
