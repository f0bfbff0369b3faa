#include <gtest/gtest.h>
#include <omp.h>

#include <random>

#include "core/bitmap.hpp"
#include "core/packed_ints.hpp"

namespace g500 {
namespace {

TEST(Bitmap, SetTestCount) {
  Bitmap b(130);
  EXPECT_EQ(b.num_words(), 3);
  EXPECT_EQ(b.count(), 0);
  b.set(0);
  b.set(63);
  b.set(64);
  b.set(129);
  EXPECT_TRUE(b.test(0));
  EXPECT_TRUE(b.test(63));
  EXPECT_TRUE(b.test(64));
  EXPECT_TRUE(b.test(129));
  EXPECT_FALSE(b.test(1));
  EXPECT_FALSE(b.test(128));
  EXPECT_EQ(b.count(), 4);
  b.clear();
  EXPECT_EQ(b.count(), 0);
}

TEST(Bitmap, SetAtomicReportsFirstSetterOnly) {
  Bitmap b(100);
  EXPECT_TRUE(b.set_atomic(70));
  EXPECT_FALSE(b.set_atomic(70));
  EXPECT_TRUE(b.test(70));
  int winners = 0;
#pragma omp parallel for reduction(+ : winners)
  for (int i = 0; i < 1000; ++i) winners += b.set_atomic(i % 100);
  EXPECT_EQ(winners, 99);  // bit 70 was already set
  EXPECT_EQ(b.count(), 100);
}

class SummaryGranularity : public ::testing::TestWithParam<int> {};

// may_contain(i) must be true exactly when some frontier bit of i's group is set.
TEST_P(SummaryGranularity, MatchesBruteForce) {
  const int g = GetParam();
  const std::int64_t n = 5000;
  Bitmap frontier(n);
  std::mt19937_64 rng(g);
  for (int k = 0; k < 40; ++k) frontier.set(static_cast<std::int64_t>(rng() % n));
  SummaryBitmap summary(n, g);
  EXPECT_EQ(summary.granularity(), g);
  summary.rebuild(frontier);
  for (std::int64_t i = 0; i < n; ++i) {
    bool any = false;
    const std::int64_t first = i / g * g;
    for (std::int64_t j = first; j < std::min(n, first + g); ++j) any = any || frontier.test(j);
    ASSERT_EQ(summary.may_contain(i), any) << "bit " << i << " granularity " << g;
  }
  frontier.clear();
  summary.rebuild(frontier);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_FALSE(summary.may_contain(i));
}

INSTANTIATE_TEST_SUITE_P(Bitmap, SummaryGranularity, ::testing::Values(1, 2, 8, 32, 64, 128, 256, 4096));

// Threads rewriting disjoint entries that share words (every thread takes every T-th entry, so
// neighbours in one word belong to different threads) leave each entry as its thread wrote it.
TEST(PackedInts, SharedSetsOfNeighboursDoNotClobberEachOther) {
  for (int bits : {3, 23, 33, 57}) {
    const std::int64_t n = 4096;
    PackedInts packed = PackedInts::for_overwrite(n, bits);
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    const auto value = [&](std::int64_t i, int round) {
      return ((static_cast<std::uint64_t>(i + round) * 0x9E3779B97F4A7C15ull) >> 7) & mask;
    };
    for (int round = 0; round < 3; ++round) {
#pragma omp parallel num_threads(4)
      {
        const int t = omp_get_thread_num(), threads = omp_get_num_threads();
        for (std::int64_t i = t; i < n; i += threads) packed.set_shared(i, value(i, round));
      }
      for (std::int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(packed.get_shared(i), value(i, round)) << bits << " bits, entry " << i << ", round " << round;
        ASSERT_EQ(packed.get(i), value(i, round));
      }
    }
  }
}

}  // namespace
}  // namespace g500

namespace g500 {
namespace {

TEST(PackedInts, HoldsEveryWidthEndToEnd) {
  for (int bits : {1, 5, 22, 23, 32, 33, 57}) {
    const std::int64_t n = 1000;
    PackedInts packed(n, bits);
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    const auto value = [&](std::int64_t i) { return (static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull) & mask; };
    for (std::int64_t i = 0; i < n; ++i) packed.set(i, value(i));
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(packed.get(i), value(i)) << bits << " bits, entry " << i;
    packed.set(500, mask);  // all ones next to its neighbours
    packed.set(501, 0);
    EXPECT_EQ(packed.get(499), value(499));
    EXPECT_EQ(packed.get(500), mask);
    EXPECT_EQ(packed.get(501), 0u);
    EXPECT_EQ(packed.get(502), value(502));
    EXPECT_LE(packed.bytes(), (n + 63) / 64 * bits * 8 + 8);
  }
}

// What a validation's confirmer relies on: a matching entry becomes 0, a different one and its
// neighbours (including entries that straddle two words) stay as they were; the same with the
// atomic clear (several threads) and the plain one (one thread), in storage made for overwrite.
template <bool Shared>
void check_clear_if_equal() {
  for (int bits : {1, 5, 23, 27, 33, 57}) {
    const std::int64_t n = 300;
    PackedInts packed = PackedInts::for_overwrite(n, bits);
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    const auto value = [&](std::int64_t i) { return ((static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull) & mask) | 1; };
    for (std::int64_t i = 0; i < n; ++i) packed.set(i, value(i));
    for (std::int64_t i = 0; i < n; i += 3) {
      if (bits > 1) {
        EXPECT_FALSE(packed.template clear_if_equal<Shared>(i, value(i) ^ 2)) << bits << " bits, entry " << i;
      }
      EXPECT_EQ(packed.get(i), value(i));
      EXPECT_TRUE(packed.template clear_if_equal<Shared>(i, value(i))) << bits << " bits, entry " << i;
    }
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(packed.get(i), i % 3 == 0 ? 0u : value(i)) << bits << " bits, entry " << i;
  }
}

TEST(PackedInts, ClearIfEqualClearsOnlyAMatchingEntry) {
  check_clear_if_equal<true>();
  check_clear_if_equal<false>();
}

}  // namespace
}  // namespace g500
