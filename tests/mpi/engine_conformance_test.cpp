// The conformance test every engine of the registry passes: on several graphs and thread counts
// (and, through ctest, rank counts), every search validates and finds, level by level, exactly the
// vertices a serial BFS finds. A new engine is tested by adding its registry row.
#include <gtest/gtest.h>
#include <omp.h>

#include "bfs/registry.hpp"
#include "fault_cases.hpp"
#include "generator/kronecker_source.hpp"
#include "graph/vertex_count.hpp"
#include "harness/roots.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

struct Conformance {
  std::string engine;
  int threads;
  IdWidth ids;
};

class EngineConformance : public ::testing::TestWithParam<Conformance> {};

// Searches from `roots` (or, when empty, up to 6 roots the harness would choose) and checks each.
void check_engine(const Conformance& c, const std::vector<Edge>& edges, std::vector<vertex_t> roots) {
  const std::string& name = c.engine;
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(edges, world);
  const vertex_t n = count_vertices(source, world);
  const Partition1D part(n, world.size(), world.rank());
  BfsOptions options;
  options.engine = name;
  options.ids = c.ids;
  auto engine = find_engine(name).make(EngineContext{world, part, options});
  engine->build(source);
  if (roots.empty()) roots = choose_roots(connected_vertices(source, part, world), part, world, 6, 3);
  ASSERT_FALSE(roots.empty());
  std::vector<vertex_t> parents(part.local_count());
  for (vertex_t root : roots) {
    SearchProfile profile;
    engine->search(root, parents, &profile);
    const ValidationResult r = validate_bfs(source, part, world, root, parents);
    ASSERT_TRUE(r.ok) << name << " root " << root << ": rule " << r.rule << ": " << r.message;
    const std::vector<int> level = bfs_levels(edges, n, root);
    const std::vector<std::int64_t> per_level = found_per_level(level);
    std::int64_t expect_nedge = 0;
    for (const Edge& e : edges) expect_nedge += level[e.u] >= 0;
    EXPECT_EQ(r.nedge, expect_nedge) << name << " root " << root;
    ASSERT_EQ(profile.size(), per_level.size() + 1) << name << " root " << root;  // the last level finds nothing
    EXPECT_EQ(profile.front().frontier_vertices, 1);
    for (std::size_t l = 0; l < per_level.size(); ++l) {
      EXPECT_EQ(profile[l].level, static_cast<int>(l));
      EXPECT_EQ(profile[l].discovered, per_level[l]) << name << " root " << root << " level " << l;
      EXPECT_EQ(profile[l + 1].frontier_vertices, per_level[l]) << name << " root " << root << " level " << l;
    }
    EXPECT_EQ(profile.back().discovered, 0);
  }
}

TEST_P(EngineConformance, KroneckerSearchesMatchSerialBfs) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam().threads);
  check_engine(GetParam(), all_edges(KroneckerGenerator(11, 16, 13)), {});
  omp_set_num_threads(saved);
}

// Self-loops, a duplicate, a second component, isolated vertices, a root in a two-vertex component.
TEST_P(EngineConformance, SmallGraphWithLoopsDuplicatesAndComponents) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam().threads);
  std::vector<Edge> edges = fault_graph_edges();
  edges.push_back({kFaultGraphVertices - 1, kFaultGraphVertices - 1});  // N = 16 from the edges
  check_engine(GetParam(), edges, {0, 3, 5, 6});
  omp_set_num_threads(saved);
}

std::vector<Conformance> every_engine() {
  std::vector<Conformance> all;
  for (const EngineSpec& e : engine_table())
    for (int threads : {1, 2})
      for (IdWidth ids : {IdWidth::automatic, IdWidth::bits64}) all.push_back({e.name, threads, ids});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Registry, EngineConformance, ::testing::ValuesIn(every_engine()), [](const auto& info) {
  std::string name = info.param.engine + "_t" + std::to_string(info.param.threads) +
                     (info.param.ids == IdWidth::bits64 ? "_ids64" : "_idsauto");
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

}  // namespace
}  // namespace g500
