#include <gtest/gtest.h>

#include <span>

#include "fault_cases.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

ValidationResult check(const std::vector<vertex_t>& parents, std::int64_t chunk) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(fault_graph_edges(), world);
  const Partition1D part(kFaultGraphVertices, world.size(), world.rank());
  std::span<const vertex_t> mine(parents.data() + part.begin(), part.local_count());
  return validate_bfs(source, part, world, kFaultGraphRoot, mine, chunk);
}

TEST(Validator, AcceptsTheCorrectTreeAndCountsComponentTuples) {
  for (std::int64_t chunk : {1, 3, 1 << 20}) {
    const ValidationResult r = check(fault_graph_tree(), chunk);
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_EQ(r.nedge, kFaultGraphNedge);
  }
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(fault_graph_edges(), world);
  const Partition1D part(kFaultGraphVertices, world.size(), world.rank());
  const auto tree = fault_graph_tree();
  EXPECT_EQ(count_reached_tuples(source, part, world, std::span(tree.data() + part.begin(), part.local_count())),
            kFaultGraphNedge);
}

class ValidatorFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(ValidatorFault, RejectsAndNamesTheRule) {
  std::vector<vertex_t> parents = fault_graph_tree();
  GetParam().corrupt(parents);
  for (std::int64_t chunk : {2, 1 << 20}) {
    const ValidationResult r = check(parents, chunk);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.rule, GetParam().rule) << r.message;
    EXPECT_FALSE(r.message.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Validator, ValidatorFault, ::testing::ValuesIn(fault_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace g500
