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

}  // namespace
}  // namespace g500
