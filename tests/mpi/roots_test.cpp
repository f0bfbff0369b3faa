#include <gtest/gtest.h>

#include <set>

#include "generator/kronecker_source.hpp"
#include "harness/roots.hpp"
#include "test_graphs.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

TEST(Roots, DistinctConnectedAndIndependentOfRankCount) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 77);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 64, 5);
  ASSERT_EQ(roots.size(), 64u);
  std::vector<int> degree(gen.num_vertices(), 0);
  for (const Edge& e : all_edges(gen))
    if (e.u != e.v) ++degree[e.u], ++degree[e.v];
  std::set<vertex_t> distinct(roots.begin(), roots.end());
  EXPECT_EQ(distinct.size(), roots.size());
  for (vertex_t r : roots) EXPECT_GT(degree[r], 0) << r;
  // Rank count must not matter: one rank alone, holding the whole list, picks the same roots.
  const mpi::Comm self = mpi::Comm::self();
  const KroneckerSource whole(gen, 0, 1);
  const Partition1D alone(gen.num_vertices(), 1, 0);
  EXPECT_EQ(roots, choose_roots(connected_vertices(whole, alone, self), alone, self, 64, 5));
}

TEST(Roots, FewerWhenFewerVerticesQualify) {
  const mpi::Comm world = mpi::Comm::world();
  // Tuples only among vertices 3, 5, 9 (and a self-loop on 12, which does not qualify).
  const std::vector<Edge> edges = {{3, 5}, {5, 9}, {12, 12}, {9, 3}};
  const SliceSource source = source_of(edges, world);
  const Partition1D part(128, world.size(), world.rank());
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 64, 1);
  EXPECT_EQ(roots, (std::vector<vertex_t>{3, 5, 9}));
}

// The marks taken during a pass over the tuples give every rank the block connected_vertices
// finds with its own pass, bit for bit; an id past the marks' range makes them unusable everywhere.
TEST(Roots, MarksOnTheWayMatchTheScan) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(11, 8, 3);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  ConnectedMarks marks(gen.num_vertices());
  for_each_round(source, world, 1000, [&](std::int64_t, std::span<const Edge> tuples) { marks.mark(tuples); });
  const std::optional<Bitmap> marked = marks.local_block(part, world);
  ASSERT_TRUE(marked.has_value());
  const Bitmap scanned = connected_vertices(source, part, world);
  ASSERT_EQ(marked->size(), scanned.size());
  for (std::int64_t w = 0; w < scanned.num_words(); ++w) EXPECT_EQ(marked->word(w), scanned.word(w)) << "word " << w;

  const std::vector<Edge> edges = {{3, 5}, {5, 200}, {12, 12}};
  const SliceSource small = source_of(edges, world);
  ConnectedMarks short_marks(128);  // 200 lies past them
  for_each_round(small, world, 2, [&](std::int64_t, std::span<const Edge> tuples) { short_marks.mark(tuples); });
  EXPECT_FALSE(short_marks.local_block(Partition1D(256, world.size(), world.rank()), world).has_value());
}

}  // namespace
}  // namespace g500
