#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "graph/csr_1d.hpp"
#include "test_graphs.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

// Rows hold each distinct neighbour once, sorted, with self-loops gone, whatever the chunk size.
TEST(Csr1D, RowsAreTheSortedDistinctNeighbours) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 4);
  const std::vector<Edge> edges = all_edges(gen);
  std::vector<std::set<vertex_t>> expect(gen.num_vertices());
  for (const Edge& e : edges) {
    if (e.u == e.v) continue;
    expect[e.u].insert(e.v);
    expect[e.v].insert(e.u);
  }
  const EdgeSlice slice = slice_of(edges, gen.num_vertices(), world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (std::int64_t chunk : {std::int64_t{1000}, std::int64_t{1} << 22}) {
    const Csr1D csr = build_csr_1d(slice, part, world, chunk);
    ASSERT_EQ(static_cast<local_t>(csr.offsets.size()), part.local_count() + 1);
    for (local_t i = 0; i < part.local_count(); ++i) {
      const auto& want = expect[part.to_global(i)];
      ASSERT_EQ(csr.degree(i), static_cast<edge_count_t>(want.size()));
      ASSERT_TRUE(std::equal(csr.begin(i), csr.end(i), want.begin()));
    }
  }
}

}  // namespace
}  // namespace g500
