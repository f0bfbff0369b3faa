#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/key_sort.hpp"
#include "graph/degree_code.hpp"

namespace g500 {
namespace {

// sort_keys agrees with std::sort for every length around the switch-over to the vector sort, for
// keys that use all their bits, only the low ones, or repeat.
template <class Key>
void expect_sorts_like_std(int bits) {
  std::mt19937_64 rng(bits);
  for (std::size_t n : {0, 1, 2, 31, 32, 33, 511, 512, 513, 5000}) {
    for (int repeats : {0, 1}) {
      std::vector<Key> keys(n);
      const std::uint64_t mask = bits >= 64 ? ~0ULL : (std::uint64_t{1} << bits) - 1;
      for (Key& k : keys) k = static_cast<Key>(rng() & (repeats ? 7 : mask));
      std::vector<Key> want = keys;
      std::sort(want.begin(), want.end());
      sort_keys(keys);
      ASSERT_EQ(keys, want) << "n " << n << " bits " << bits;
    }
  }
}

TEST(KeySort, MatchesStdSort) {
  expect_sorts_like_std<std::uint32_t>(30);
  expect_sorts_like_std<std::uint32_t>(32);
  expect_sorts_like_std<std::uint64_t>(40);
  expect_sorts_like_std<std::uint64_t>(64);
  expect_sorts_like_std<std::uint64_t>(11);
}

// Degree codes never invert the order of degrees, are exact below 16 and stay within 12.5% above.
TEST(DegreeCode, OrderPreservingAndClose) {
  for (std::uint64_t d = 0; d < 16; ++d) EXPECT_EQ(degree_code(d), d);
  std::uint8_t previous = 0;
  for (std::uint64_t d = 1; d < (1u << 20); ++d) {
    ASSERT_GE(degree_code(d), previous) << d;
    previous = degree_code(d);
  }
  EXPECT_GT(degree_code(1000), degree_code(800));
  EXPECT_EQ(degree_code(1024), degree_code(1100));  // one step is 128 wide at this size
  EXPECT_LE(degree_code(~std::uint64_t{0}), 255);
  EXPECT_GT(degree_code(std::uint64_t{1} << 33), degree_code(std::uint64_t{1} << 32));  // saturates from 2^34
}

}  // namespace
}  // namespace g500
