#pragma once
// Least-significant-digit radix sort of unsigned keys whose set bits all lie below `bits`, 11 bits
// a pass (the 2048 counters stay in L1). For long runs it beats a comparison sort several times
// over: a pass reads and writes each key once, with no branch to mispredict.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace g500 {

template <class Key>
void radix_sort(std::vector<Key>& keys, std::vector<Key>& scratch, int bits) {
  constexpr int kDigit = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigit;
  scratch.resize(keys.size());
  std::array<std::size_t, kBuckets> start;
  for (int shift = 0; shift < bits; shift += kDigit) {
    start.fill(0);
    for (const Key k : keys) ++start[(k >> shift) & (kBuckets - 1)];
    std::size_t at = 0;
    for (std::size_t& s : start) {
      const std::size_t here = s;
      s = at;
      at += here;
    }
    for (const Key k : keys) scratch[start[(k >> shift) & (kBuckets - 1)]++] = k;
    keys.swap(scratch);
  }
}

// Sorts `keys`: a comparison sort for short runs, the radix sort above for long ones.
template <class Key>
void sort_keys(std::vector<Key>& keys, std::vector<Key>& scratch, int bits) {
  constexpr std::size_t kRadixFrom = 512;
  if (keys.size() < kRadixFrom) std::sort(keys.begin(), keys.end());
  else radix_sort(keys, scratch, bits);
}

}  // namespace g500
