#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <stdexcept>

#include "fault_cases.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"
#include "validate/reached_tuple_counter.hpp"

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

// A path 0 - 1 - ... - n-1 from root 0: its tree has n - 1 levels, beyond the 254 that the
// validator's narrow entries hold, so the wide ones take over.
std::vector<Edge> path_edges(vertex_t n) {
  std::vector<Edge> edges;
  for (vertex_t v = 1; v < n; ++v) edges.push_back({v - 1, v});
  return edges;
}

std::vector<vertex_t> path_tree(vertex_t n) {
  std::vector<vertex_t> parents(n);
  for (vertex_t v = 0; v < n; ++v) parents[v] = v == 0 ? 0 : v - 1;
  return parents;
}

ValidationResult check_path(const std::vector<vertex_t>& parents, vertex_t n) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(path_edges(n), world);
  const Partition1D part(n, world.size(), world.rank());
  return validate_bfs(source, part, world, 0, std::span(parents.data() + part.begin(), part.local_count()), 64);
}

TEST(Validator, TreesDeeperThanANarrowLevel) {
  for (vertex_t n : {250, 256, 700}) {
    const ValidationResult r = check_path(path_tree(n), n);
    EXPECT_TRUE(r.ok) << n << ": " << r.message;
    EXPECT_EQ(r.nedge, n - 1);
    const mpi::Comm world = mpi::Comm::world();
    const Partition1D part(n, world.size(), world.rank());
    const auto tree = path_tree(n);
    const std::vector<std::int32_t> depth =
        tree_depths(part, world, 0, std::span(tree.data() + part.begin(), part.local_count()));
    for (local_t i = 0; i < part.local_count(); ++i) EXPECT_EQ(depth[i], part.to_global(i));
  }
  std::vector<vertex_t> shortcut = path_tree(700);
  shortcut[500] = 498;  // a level too high for 500, and no edge joins them
  const ValidationResult r = check_path(shortcut, 700);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.rule, 5) << r.message;
  std::vector<vertex_t> cut = path_tree(700);
  cut[600] = kNoParent;  // the path's far end left unreached
  EXPECT_EQ(check_path(cut, 700).rule, 1);  // 601's parent chain no longer reaches the root
}

// The same tuples from a source that must be read a round at a time (as a file is).
class RoundsOnly : public EdgeSource {
 public:
  explicit RoundsOnly(const SliceSource& inner) : EdgeSource(Share{inner.global_tuples(), inner.first(), inner.count()}), inner_(inner) {}
  void read(std::int64_t offset, std::span<Edge> out) const override { inner_.read(offset, out); }
  std::string describe() const override { return "rounds only"; }

 private:
  const SliceSource& inner_;
};

TEST(Validator, SourcesReadByRoundsGiveTheSameVerdicts) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource slices = source_of(fault_graph_edges(), world);
  const RoundsOnly source(slices);
  ASSERT_FALSE(source.reads_in_pieces());
  const Partition1D part(kFaultGraphVertices, world.size(), world.rank());
  const auto tree = fault_graph_tree();
  const ValidationResult ok = validate_bfs(source, part, world, kFaultGraphRoot, std::span(tree.data() + part.begin(), part.local_count()), 3);
  EXPECT_TRUE(ok.ok) << ok.message;
  EXPECT_EQ(ok.nedge, kFaultGraphNedge);
  for (const FaultCase& fault : fault_cases()) {
    std::vector<vertex_t> parents = fault_graph_tree();
    fault.corrupt(parents);
    const ValidationResult r = validate_bfs(source, part, world, kFaultGraphRoot, std::span(parents.data() + part.begin(), part.local_count()), 3);
    EXPECT_EQ(r.rule, fault.rule) << fault.name << ": " << r.message;
  }
}

// Validates `trees` (whole parent arrays) in batches of `batch`, through one buffer that each
// search overwrites, as the harness does; the verdicts in order.
std::vector<ValidationResult> check_in_batches(const EdgeSource& source, const Partition1D& part, vertex_t root,
                                               const std::vector<std::vector<vertex_t>>& trees, int batch) {
  const mpi::Comm world = mpi::Comm::world();
  BfsBatchValidator validator(source, part, world, batch, 3);
  EXPECT_EQ(validator.batch(), batch);
  std::vector<vertex_t> buffer(part.local_count());
  std::vector<ValidationResult> results;
  for (std::size_t k = 0; k < trees.size(); ++k) {
    std::copy(trees[k].begin() + part.begin(), trees[k].begin() + part.begin() + part.local_count(), buffer.begin());
    if (validator.waiting() + 1 < batch && k + 1 < trees.size()) {
      validator.wait(root, buffer);
      std::fill(buffer.begin(), buffer.end(), vertex_t{12345});  // the next search's garbage
    } else {
      for (const ValidationResult& r : validator.check(root, buffer)) results.push_back(r);
      EXPECT_EQ(validator.waiting(), 0);
    }
  }
  return results;
}

TEST(ValidatorBatch, EachSearchGetsTheVerdictItGetsAlone) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(fault_graph_edges(), world);
  const Partition1D part(kFaultGraphVertices, world.size(), world.rank());
  // Good trees between broken ones of every rule, so each batch mixes verdicts.
  std::vector<std::vector<vertex_t>> trees = {fault_graph_tree()};
  for (const FaultCase& fault : fault_cases()) {
    trees.push_back(fault_graph_tree());
    fault.corrupt(trees.back());
    trees.push_back(fault_graph_tree());
  }
  std::vector<ValidationResult> alone;
  for (const auto& tree : trees)
    alone.push_back(validate_bfs(source, part, world, kFaultGraphRoot, std::span(tree.data() + part.begin(), part.local_count()), 3));
  for (int batch : {1, 2, 3, 4, 7, 16}) {
    const std::vector<ValidationResult> batched = check_in_batches(source, part, kFaultGraphRoot, trees, batch);
    ASSERT_EQ(batched.size(), trees.size());
    for (std::size_t k = 0; k < trees.size(); ++k) {
      EXPECT_EQ(batched[k].ok, alone[k].ok) << "batch " << batch << ", search " << k;
      EXPECT_EQ(batched[k].rule, alone[k].rule) << "batch " << batch << ", search " << k << ": " << batched[k].message;
      EXPECT_EQ(batched[k].nedge, alone[k].nedge);
      if (alone[k].ok) {
        EXPECT_EQ(batched[k].nedge, kFaultGraphNedge);
      }
    }
  }
}

TEST(ValidatorBatch, DeepTreesAreValidatedAloneInsideABatch) {
  const mpi::Comm world = mpi::Comm::world();
  const vertex_t n = 700;
  const SliceSource source = source_of(path_edges(n), world);
  const Partition1D part(n, world.size(), world.rank());
  std::vector<vertex_t> shortcut = path_tree(n);
  shortcut[500] = 498;
  const std::vector<std::vector<vertex_t>> trees = {path_tree(n), shortcut, path_tree(n)};
  const std::vector<ValidationResult> r = check_in_batches(source, part, 0, trees, 3);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(r[0].ok) << r[0].message;
  EXPECT_EQ(r[0].nedge, n - 1);
  EXPECT_EQ(r[1].rule, 5) << r[1].message;
  EXPECT_TRUE(r[2].ok) << r[2].message;
}

TEST(ValidatorBatch, AFullBatchTakesNoMoreWaitingSearches) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(fault_graph_edges(), world);
  const Partition1D part(kFaultGraphVertices, world.size(), world.rank());
  const auto tree = fault_graph_tree();
  const std::span<const vertex_t> mine(tree.data() + part.begin(), part.local_count());
  BfsBatchValidator validator(source, part, world, 2);
  validator.wait(kFaultGraphRoot, mine);
  EXPECT_THROW(validator.wait(kFaultGraphRoot, mine), std::logic_error);
  const std::vector<ValidationResult> r = validator.check(kFaultGraphRoot, mine);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[0].ok && r[1].ok);
}

TEST(ValidatorBatch, ReachedCountsInBatchesAreEachSearchsOwn) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(fault_graph_edges(), world);
  const Partition1D part(kFaultGraphVertices, world.size(), world.rank());
  // Trees reaching more or fewer vertices: the whole tree, then with leaves cut off one by one.
  std::vector<std::vector<vertex_t>> trees = {fault_graph_tree()};
  for (int cut = 0; cut < 5; ++cut) {
    trees.push_back(trees.back());
    for (vertex_t v = kFaultGraphVertices - 1; v >= 0; --v) {
      if (v != kFaultGraphRoot && trees.back()[v] != kNoParent) {
        trees.back()[v] = kNoParent;
        break;
      }
    }
  }
  std::vector<std::int64_t> alone;
  for (const auto& tree : trees)
    alone.push_back(count_reached_tuples(source, part, world, std::span(tree.data() + part.begin(), part.local_count()), 3));
  EXPECT_EQ(alone.front(), kFaultGraphNedge);
  EXPECT_LT(alone.back(), alone.front());
  for (int batch : {2, 4, 16}) {
    ReachedTupleCounter counter(source, part, world, batch, 3);
    std::vector<vertex_t> buffer(part.local_count());
    std::vector<std::int64_t> batched;
    for (std::size_t k = 0; k < trees.size(); ++k) {
      std::copy(trees[k].begin() + part.begin(), trees[k].begin() + part.begin() + part.local_count(), buffer.begin());
      if ((k + 1) % batch != 0 && k + 1 < trees.size()) {
        counter.wait(buffer);
        std::fill(buffer.begin(), buffer.end(), kNoParent);
      } else {
        for (std::int64_t c : counter.count(buffer)) batched.push_back(c);
      }
    }
    EXPECT_EQ(batched, alone) << "batch " << batch;
  }
}

INSTANTIATE_TEST_SUITE_P(Validator, ValidatorFault, ::testing::ValuesIn(fault_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace g500
