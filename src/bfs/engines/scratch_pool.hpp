#pragma once
// Scratch memory for Thrust's algorithms, kept between calls. Without it each sort, scan, count or
// compaction allocates its temporary storage and frees it again (cudaMalloc and cudaFree, which
// synchronise the device), several times a level. Blocks are reused by size, so after the first
// search the levels allocate nothing; the largest is a top-down round's sort, which device_bytes
// counts. Pass it as `thrust::device(pool)`. Part of the device halves: included by device_impl.hpp
// files only.
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>

#include <cstddef>
#include <map>

namespace g500::device {

class ScratchPool {
 public:
  using value_type = char;

  ScratchPool() = default;
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;
  ~ScratchPool() {
    for (auto& [bytes, block] : free_) thrust::device_free(thrust::device_pointer_cast(block));
    for (auto& [block, bytes] : lent_) thrust::device_free(thrust::device_pointer_cast(block));
  }

  // The smallest free block that holds `bytes`, else a new one (std::bad_alloc when none fits).
  char* allocate(std::ptrdiff_t bytes) {
    const auto fit = free_.lower_bound(bytes);
    char* block = nullptr;
    if (fit != free_.end()) {
      bytes = fit->first;
      block = fit->second;
      free_.erase(fit);
    } else {
      block = thrust::device_malloc<char>(static_cast<std::size_t>(bytes)).get();
    }
    lent_.emplace(block, bytes);
    return block;
  }

  void deallocate(char* block, std::size_t) {
    const auto it = lent_.find(block);
    free_.emplace(it->second, block);
    lent_.erase(it);
  }

 private:
  std::multimap<std::ptrdiff_t, char*> free_;  // by size
  std::map<char*, std::ptrdiff_t> lent_;
};

}  // namespace g500::device
