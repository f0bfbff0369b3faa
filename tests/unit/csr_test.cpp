#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "bfs/bfs_options.hpp"
#include "core/error.hpp"
#include "graph/csr_1d.hpp"
#include "graph/degree_code.hpp"
#include "test_graphs.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

// Both stored id widths: 32-bit (any N <= 2^32) and 64-bit.
template <class Column>
class Csr1DTest : public ::testing::Test {};
using ColumnTypes = ::testing::Types<std::uint32_t, vertex_t>;
TYPED_TEST_SUITE(Csr1DTest, ColumnTypes);

// Rows hold each distinct neighbour once, sorted, with self-loops gone, whatever the round size.
TYPED_TEST(Csr1DTest, RowsAreTheSortedDistinctNeighbours) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 4);
  const std::vector<Edge> edges = all_edges(gen);
  const std::vector<std::set<vertex_t>> expect = neighbour_sets(edges, gen.num_vertices());
  const SliceSource source = source_of(edges, world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (std::int64_t round : {std::int64_t{1000}, std::int64_t{1} << 22}) {
    const Csr1D<TypeParam> csr = build_csr_1d<TypeParam>(source, part, world, RowOrder::by_id, round);
    ASSERT_EQ(static_cast<local_t>(csr.offsets.size()), part.local_count() + 1);
    for (local_t i = 0; i < part.local_count(); ++i) {
      const auto& want = expect[part.to_global(i)];
      ASSERT_EQ(csr.degree(i), static_cast<edge_count_t>(want.size()));
      ASSERT_TRUE(std::equal(csr.begin(i), csr.end(i), want.begin()));
    }
  }
}

// Ordered by neighbour degree, each row holds the same distinct neighbours, highest arc count first
// (duplicate tuples counted, compared by their one-byte codes), ties by id, whatever the round size.
TYPED_TEST(Csr1DTest, RowsOrderedByNeighbourDegree) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 6);
  const std::vector<Edge> edges = all_edges(gen);
  const std::vector<std::set<vertex_t>> expect = neighbour_sets(edges, gen.num_vertices());
  std::vector<std::size_t> arcs(gen.num_vertices(), 0);
  for (const Edge& e : edges) {
    if (e.u == e.v) continue;
    ++arcs[e.u];
    ++arcs[e.v];
  }
  const SliceSource source = source_of(edges, world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (std::int64_t round : {std::int64_t{7}, std::int64_t{500}, std::int64_t{1} << 22}) {
    const Csr1D<TypeParam> csr = build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round);
    for (local_t i = 0; i < part.local_count(); ++i) {
      const auto& want = expect[part.to_global(i)];
      ASSERT_EQ(csr.degree(i), static_cast<edge_count_t>(want.size()));
      ASSERT_EQ(std::set<vertex_t>(csr.begin(i), csr.end(i)), want);
      for (const TypeParam* it = csr.begin(i); it + 1 < csr.end(i); ++it) {
        const int d0 = degree_code(arcs[it[0]]), d1 = degree_code(arcs[it[1]]);
        ASSERT_TRUE(d0 > d1 || (d0 == d1 && it[0] < it[1])) << "row " << i << " round " << round;
      }
    }
  }
}

TEST(Csr1DIds, ThirtyTwoBitsHoldUpTo2To32Vertices) {
  EXPECT_TRUE(fits_32_bit(vertex_t{1} << 32));
  EXPECT_FALSE(fits_32_bit((vertex_t{1} << 32) + 1));
  EXPECT_TRUE(use_32_bit_ids(IdWidth::automatic, vertex_t{1} << 20));
  EXPECT_FALSE(use_32_bit_ids(IdWidth::automatic, vertex_t{1} << 33));
  EXPECT_FALSE(use_32_bit_ids(IdWidth::bits64, vertex_t{1} << 20));
  EXPECT_THROW(use_32_bit_ids(IdWidth::bits32, vertex_t{1} << 33), UserError);
}

}  // namespace
}  // namespace g500
