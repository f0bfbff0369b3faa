#include <gtest/gtest.h>

#include "generator/generate_slice.hpp"
#include "mpi/comm.hpp"

namespace g500 {
namespace {

// The slices of all ranks are consecutive ranges that together are the whole list, and each holds
// exactly the generator's tuples: the graph is the same for every rank count.
TEST(Distribution, SlicesPartitionTheGlobalList) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(11, 16, 21);
  const EdgeSlice slice = generate_slice(gen, world, true);
  const std::vector<std::int64_t> firsts = world.allgather(slice.first);
  const std::vector<std::int64_t> sizes = world.allgather(static_cast<std::int64_t>(slice.edges.size()));
  std::int64_t next = 0;
  for (int r = 0; r < world.size(); ++r) {
    EXPECT_EQ(firsts[r], next);
    next += sizes[r];
  }
  EXPECT_EQ(next, gen.num_edges());
  for (std::size_t i = 0; i < slice.edges.size(); ++i) {
    const Edge e = gen.edge(slice.first + static_cast<std::int64_t>(i));
    ASSERT_EQ(slice.edges[i].u, e.u);
    ASSERT_EQ(slice.edges[i].v, e.v);
    ASSERT_EQ(slice.weights[i], gen.weight(slice.first + static_cast<std::int64_t>(i)));
  }
}

}  // namespace
}  // namespace g500
