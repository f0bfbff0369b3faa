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

}  // namespace
}  // namespace g500
