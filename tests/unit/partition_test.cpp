#include <gtest/gtest.h>

#include "partition/partition_1d.hpp"

namespace g500 {
namespace {

// Every vertex has exactly one owner, blocks are contiguous whole words, and sizes differ by at most
// one word, for rank counts that are not powers of two too.
TEST(Partition1D, BlocksCoverAllVerticesForAnyRankCount) {
  for (vertex_t n : {vertex_t{2}, vertex_t{64}, vertex_t{100}, vertex_t{1} << 10, (vertex_t{1} << 16) - 5, vertex_t{1} << 16}) {
    for (int p : {1, 2, 3, 5, 6, 7, 12, 31}) {
      if (p > n) continue;
      vertex_t expect_begin = 0;
      vertex_t smallest = n, largest = 0;
      for (int r = 0; r < p; ++r) {
        const Partition1D part(n, p, r);
        ASSERT_EQ(part.begin(), expect_begin) << "n " << n << " p " << p << " r " << r;
        ASSERT_EQ(part.begin() % 64, 0);
        for (vertex_t v = part.begin(); v < part.end(); ++v) {
          ASSERT_EQ(part.owner(v), r) << "n " << n << " p " << p << " v " << v;
          ASSERT_TRUE(part.owns(v));
          ASSERT_EQ(part.to_global(part.to_local(v)), v);
        }
        smallest = std::min(smallest, part.local_count());
        largest = std::max(largest, part.local_count());
        expect_begin = part.end();
      }
      EXPECT_EQ(expect_begin, n);
      if (n >= 64 * p) {
        EXPECT_LE(largest - smallest, 64) << "n " << n << " p " << p;
      }
    }
  }
}

// SCALE 42 on 608,256 ranks (as many as the largest Graph500 entries run): every rank's block as
// the counts and displacements of a collective, in vertices and in words, adds up without
// overflow; ownership holds at the blocks' edges, for a power-of-two rank count (owner by shift)
// and one that is not.
TEST(Partition1D, CountsAndDisplacementsHoldAtScale42OnAMillionRanks) {
  const vertex_t n = vertex_t{1} << 42;
  for (int p : {608256, 1 << 19}) {
    const Partition1D part(n, p, p - 1);
    const std::vector<std::int64_t> counts = part.vertex_counts(), displs = part.vertex_displs();
    const std::vector<std::int64_t> word_counts = part.word_counts(), word_displs = part.word_displs();
    ASSERT_EQ(static_cast<int>(counts.size()), p);
    std::int64_t at = 0, words = 0;
    for (int r = 0; r < p; ++r) {
      ASSERT_EQ(displs[r], at) << "rank " << r;
      ASSERT_EQ(word_displs[r], words) << "rank " << r;
      ASSERT_GT(counts[r], std::int64_t{1} << 22);  // about 2^42 / 2^19.2
      ASSERT_EQ(counts[r], 64 * word_counts[r]);
      at += counts[r];
      words += word_counts[r];
    }
    EXPECT_EQ(at, n);
    EXPECT_EQ(words, n / 64);
    EXPECT_GT(displs.back(), std::int64_t{1} << 41);  // far past int
    EXPECT_EQ(part.begin(), displs.back());
    EXPECT_EQ(part.local_count(), counts.back());
    for (int r : {0, 1, p / 2, p - 2, p - 1}) {
      const vertex_t first = part.begin_of(r), last = part.begin_of(r + 1) - 1;
      EXPECT_EQ(part.owner(first), r) << "p " << p << " rank " << r;
      EXPECT_EQ(part.owner(last), r) << "p " << p << " rank " << r;
    }
  }
}

}  // namespace
}  // namespace g500
