#include "core/key_sort.hpp"

#include <hwy/contrib/sort/vqsort.h>

namespace g500 {
namespace {

// A Sorter holds scratch and may be used by one thread at a time.
hwy::Sorter& sorter() {
  thread_local hwy::Sorter s;
  return s;
}

}  // namespace

void sort_long_keys(std::span<std::uint32_t> keys) { sorter()(keys.data(), keys.size(), hwy::SortAscending()); }
void sort_long_keys(std::span<std::uint64_t> keys) { sorter()(keys.data(), keys.size(), hwy::SortAscending()); }

}  // namespace g500
