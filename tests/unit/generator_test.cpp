#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <map>
#include <set>

#include "generator/generate_slice.hpp"
#include "generator/kronecker_source.hpp"
#include "generator/kronecker.hpp"
#include "mpi/comm.hpp"

namespace g500 {
namespace {

TEST(Generator, EdgeIsAPureFunctionOfSeedScaleAndIndex) {
  const KroneckerGenerator a(12, 16, 7), b(12, 16, 7), other_seed(12, 16, 8);
  int differ = 0;
  for (std::int64_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(a.edge(i).u, b.edge(i).u);
    EXPECT_EQ(a.edge(i).v, b.edge(i).v);
    EXPECT_EQ(a.weight(i), b.weight(i));
    differ += a.edge(i).u != other_seed.edge(i).u;
  }
  EXPECT_GT(differ, 900);
  // Asking out of order gives the same answers.
  const Edge late = a.edge(999);
  EXPECT_EQ(late.u, b.edge(999).u);
}

TEST(Generator, SizesFollowTheSpec) {
  const KroneckerGenerator g(10, 16, 1);
  EXPECT_EQ(g.num_vertices(), 1024);
  EXPECT_EQ(g.num_edges(), 16 * 1024);
  const KroneckerGenerator g5(10, 5, 1);
  EXPECT_EQ(g5.num_edges(), 5 * 1024);
}

TEST(Generator, EndpointsInRangeAndWeightsInUnitInterval) {
  for (int scale : {1, 2, 7, 13}) {
    const KroneckerGenerator g(scale, 4, 3);
    for (std::int64_t i = 0; i < g.num_edges(); ++i) {
      const Edge e = g.edge(i);
      ASSERT_GE(e.u, 0);
      ASSERT_LT(e.u, g.num_vertices());
      ASSERT_GE(e.v, 0);
      ASSERT_LT(e.v, g.num_vertices());
      const float w = g.weight(i);
      ASSERT_GE(w, 0.0f);
      ASSERT_LT(w, 1.0f);
    }
  }
}

TEST(Generator, ScramblerIsABijection) {
  for (int scale : {1, 3, 8, 15}) {
    const VertexScrambler s(scale, 99);
    std::vector<bool> hit(std::size_t{1} << scale, false);
    for (vertex_t v = 0; v < (vertex_t{1} << scale); ++v) {
      const vertex_t x = s(v);
      ASSERT_GE(x, 0);
      ASSERT_LT(x, vertex_t{1} << scale);
      ASSERT_FALSE(hit[x]) << "scale " << scale << " maps two vertices to " << x;
      hit[x] = true;
    }
  }
}

// Kronecker graphs are skewed: the busiest vertex has far more tuples than the mean, many
// vertices have none, and the initiator fixes how often endpoints coincide in distribution.
TEST(Generator, DegreeDistributionIsSkewedLikeKronecker) {
  const int scale = 14;
  const KroneckerGenerator g(scale, 16, 5);
  std::vector<std::int64_t> degree(g.num_vertices(), 0);
  for (std::int64_t i = 0; i < g.num_edges(); ++i) {
    const Edge e = g.edge(i);
    ++degree[e.u];
    ++degree[e.v];
  }
  const std::int64_t max_degree = *std::max_element(degree.begin(), degree.end());
  const double mean = 2.0 * g.num_edges() / g.num_vertices();
  EXPECT_GT(max_degree, 50 * mean);
  const auto isolated = std::count(degree.begin(), degree.end(), 0);
  EXPECT_GT(isolated, g.num_vertices() / 10);
  EXPECT_LT(isolated, g.num_vertices() / 2);
}

// Self-loops stay in the tuple list (the CSR drops them later); with this initiator they are rare.
TEST(Generator, SelfLoopsAreKeptButRare) {
  const KroneckerGenerator g(12, 16, 11);
  std::int64_t loops = 0;
  for (std::int64_t i = 0; i < g.num_edges(); ++i) loops += g.edge(i).u == g.edge(i).v;
  EXPECT_GT(loops, 0);
  EXPECT_LT(loops, g.num_edges() / 20);
}

TEST(Generator, SliceDoesNotDependOnThreadCount) {
  const KroneckerGenerator g(12, 16, 2);
  const mpi::Comm world = mpi::Comm::world();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const EdgeSlice one = generate_slice(g, world, true);
  omp_set_num_threads(3);
  const EdgeSlice three = generate_slice(g, world, true);
  omp_set_num_threads(saved);
  ASSERT_EQ(one.edges.size(), three.edges.size());
  for (std::size_t i = 0; i < one.edges.size(); ++i) {
    ASSERT_EQ(one.edges[i].u, three.edges[i].u);
    ASSERT_EQ(one.edges[i].v, three.edges[i].v);
    ASSERT_EQ(one.weights[i], three.weights[i]);
  }
}

// The batch maker gives exactly edge(i), from any start, for any length (partial blocks of eight
// too), at any thread count, odd SCALE (a level on its own last) or even, and the Kronecker source
// reads the same tuples as the slice holds.
TEST(Generator, BatchesEqualSingleEdges) {
  const KroneckerGenerator g(13, 4, 9);
  const int saved = omp_get_max_threads();
  const KroneckerGenerator even(14, 2, 9);
  std::vector<Edge> batch(5000);
  even.edges(3, batch);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    ASSERT_EQ(batch[i].u, even.edge(3 + static_cast<std::int64_t>(i)).u) << i;
    ASSERT_EQ(batch[i].v, even.edge(3 + static_cast<std::int64_t>(i)).v) << i;
  }
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    for (std::int64_t first : {std::int64_t{0}, std::int64_t{5}, std::int64_t{777}}) {
      for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{8}, std::size_t{13}, std::size_t{33}, std::size_t{95}, std::size_t{1000}}) {
        std::vector<Edge> out(n);
        g.edges(first, out);
        for (std::size_t i = 0; i < n; ++i) {
          const Edge e = g.edge(first + static_cast<std::int64_t>(i));
          ASSERT_EQ(out[i].u, e.u) << first << " " << i;
          ASSERT_EQ(out[i].v, e.v) << first << " " << i;
        }
      }
    }
  }
  omp_set_num_threads(saved);
  const KroneckerSource source(g, 0, 1);
  EXPECT_EQ(source.count(), g.num_edges());
  std::vector<Edge> part(100);
  source.read(50, part);
  for (std::size_t i = 0; i < part.size(); ++i) EXPECT_EQ(part[i].v, g.edge(50 + static_cast<std::int64_t>(i)).v);
}

TEST(Generator, SliceBoundsCoverTheListForAnyRankCount) {
  for (int p : {1, 2, 3, 5, 7, 64}) {
    std::int64_t covered = 0;
    for (int r = 0; r < p; ++r) {
      const std::int64_t b = slice_begin(1000003, r, p), e = slice_begin(1000003, r + 1, p);
      ASSERT_EQ(b, covered);
      ASSERT_LE(e - b, 1000003 / p + 1);
      covered = e;
    }
    EXPECT_EQ(covered, 1000003);
  }
}

}  // namespace
}  // namespace g500
