#pragma once
// The check every engine passes (tests/mpi/engine_conformance_test.cpp, and the tests of engines
// with options of their own): build from `edges`, search from `roots` (or, when empty, up to 6
// roots the harness would choose), validate every search and compare each level's vertices with a
// serial BFS.
#include <gtest/gtest.h>

#include <vector>

#include "bfs/registry.hpp"
#include "generator/kronecker_source.hpp"
#include "graph/vertex_count.hpp"
#include "harness/resolve.hpp"
#include "harness/roots.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500::testing {

// Searches from `roots` (or, when empty, up to 6 roots the harness would choose) and checks each.
inline void check_engine(const BfsOptions& options, const std::vector<Edge>& edges, std::vector<vertex_t> roots) {
  const std::string& name = options.engine;
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = source_of(edges, world);
  const vertex_t n = count_vertices(source, world);
  const Partition1D part(n, world.size(), world.rank());
  RunOptions asked;  // settled as a run settles them (harness/resolve.hpp)
  asked.bfs = options;
  asked.skip_validation = true;  // the engine's options only: no validation batch to fit
  const ProblemSize size{static_cast<double>(n), static_cast<double>(edges.size()), world.size()};
  const BfsOptions settled = resolved_options(asked, size).bfs;
  auto engine = find_engine(name).make(EngineContext{world, part, settled});
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

}  // namespace g500::testing
