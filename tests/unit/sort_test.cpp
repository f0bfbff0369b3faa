#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/key_sort.hpp"
#include "exchange/owner_buckets.hpp"
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

// The queued exchange's sort: items by destination, and in push order within one, like a stable
// sort, for destinations of one digit (one pass), of many (up to three passes) with digits that
// never vary, and already in order.
TEST(SortByDestination, StableLikeStdStableSort) {
  std::mt19937_64 rng(7);
  for (const std::uint32_t ranks : {1u, 2u, 2048u, 2049u, 1u << 22, 608256u, 1u << 31}) {
    for (const std::size_t n : {0, 1, 2, 3, 100, 5000}) {
      std::vector<std::uint32_t> dests(n);
      for (auto& d : dests) d = static_cast<std::uint32_t>(rng() % ranks) & ~0x700u;  // bits 8..10 never set
      std::vector<std::pair<std::uint32_t, std::size_t>> want(n);
      std::vector<std::size_t> items(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = {dests[i], items[i] = i};
      std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<std::uint32_t> dests_aside;
      std::vector<std::size_t> items_aside;
      exchange::sort_by_destination(dests, items, dests_aside, items_aside);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(dests[i], want[i].first) << ranks << " ranks, " << n << " items, at " << i;
        ASSERT_EQ(items[i], want[i].second) << ranks << " ranks, " << n << " items, at " << i;
      }
      exchange::sort_by_destination(dests, items, dests_aside, items_aside);  // in order: unchanged
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(items[i], want[i].second);
    }
  }
}

}  // namespace
}  // namespace g500
