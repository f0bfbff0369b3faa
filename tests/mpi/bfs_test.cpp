#include <gtest/gtest.h>
#include <omp.h>

#include <map>

#include "bench/roots.hpp"
#include "bfs/engine.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

struct Setting {
  std::string name;
  double alpha, beta;
  int granularity;
  int threads;
};

class EngineSetting : public ::testing::TestWithParam<Setting> {};

// Every search validates, and the number of vertices found at each level equals a serial BFS's,
// in every direction policy, summary granularity and thread count.
TEST_P(EngineSetting, SearchesValidateAndMatchSerialLevels) {
  const mpi::Comm world = mpi::Comm::world();
  const Setting& s = GetParam();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(s.threads);
  const KroneckerGenerator gen(11, 16, 13);
  const std::vector<Edge> edges = all_edges(gen);
  const EdgeSlice slice = generate_slice(gen, world, false);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  BfsOptions options;
  options.alpha = s.alpha;
  options.beta = s.beta;
  options.summary_granularity = s.granularity;
  auto engine = make_engine(options, world, part);
  engine->build(slice);
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(slice, part, world), part, world, 6, 3);
  ASSERT_EQ(roots.size(), 6u);
  std::vector<vertex_t> parents(part.local_count());
  std::map<Direction, int> directions;
  for (vertex_t root : roots) {
    SearchProfile profile;
    engine->search(root, parents, &profile);
    const ValidationResult r = validate_bfs(slice, part, world, root, parents);
    ASSERT_TRUE(r.ok) << "root " << root << ": rule " << r.rule << ": " << r.message;
    const std::vector<int> level = bfs_levels(edges, gen.num_vertices(), root);
    std::vector<std::int64_t> per_level;
    std::int64_t expect_nedge = 0;
    for (vertex_t v = 0; v < gen.num_vertices(); ++v) {
      if (level[v] < 1) continue;
      if (static_cast<int>(per_level.size()) < level[v]) per_level.resize(level[v], 0);
      ++per_level[level[v] - 1];
    }
    for (const Edge& e : edges) expect_nedge += level[e.u] >= 0;
    EXPECT_EQ(r.nedge, expect_nedge);
    ASSERT_EQ(profile.size(), per_level.size() + 1);  // the last level finds nothing
    for (std::size_t l = 0; l < per_level.size(); ++l) {
      EXPECT_EQ(profile[l].discovered, per_level[l]) << "root " << root << " level " << l;
      ++directions[profile[l].direction];
    }
  }
  omp_set_num_threads(saved);
  if (s.name == "top_down_only") EXPECT_EQ(directions[Direction::bottom_up], 0);
  if (s.name == "bottom_up_early") EXPECT_GT(directions[Direction::bottom_up], directions[Direction::top_down]);
  if (s.name == "beamer_defaults") {
    EXPECT_GT(directions[Direction::bottom_up], 0);
    EXPECT_GT(directions[Direction::top_down], 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Hybrid1D, EngineSetting,
                         ::testing::Values(Setting{"beamer_defaults", 15, 18, 64, 1},
                                           Setting{"two_threads", 15, 18, 64, 2},
                                           Setting{"top_down_only", 1e-12, 18, 64, 2},
                                           Setting{"bottom_up_early", 1e12, 1e-12, 1, 1},
                                           Setting{"coarse_summary", 15, 18, 256, 2}),
                         [](const auto& info) { return info.param.name; });

TEST(Roots, DistinctConnectedAndIndependentOfRankCount) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 77);
  const EdgeSlice slice = generate_slice(gen, world, false);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(slice, part, world), part, world, 64, 5);
  ASSERT_EQ(roots.size(), 64u);
  std::vector<int> degree(gen.num_vertices(), 0);
  for (const Edge& e : all_edges(gen))
    if (e.u != e.v) ++degree[e.u], ++degree[e.v];
  std::set<vertex_t> distinct(roots.begin(), roots.end());
  EXPECT_EQ(distinct.size(), roots.size());
  for (vertex_t r : roots) EXPECT_GT(degree[r], 0) << r;
  // Rank count must not matter: one rank alone, holding the whole list, picks the same roots.
  const mpi::Comm self = mpi::Comm::self();
  const EdgeSlice whole = generate_slice(gen, self, false);
  const Partition1D alone(gen.num_vertices(), 1, 0);
  EXPECT_EQ(roots, choose_roots(connected_vertices(whole, alone, self), alone, self, 64, 5));
}

TEST(Roots, FewerWhenFewerVerticesQualify) {
  const mpi::Comm world = mpi::Comm::world();
  // Tuples only among vertices 3, 5, 9 (and a self-loop on 12, which does not qualify).
  const std::vector<Edge> edges = {{3, 5}, {5, 9}, {12, 12}, {9, 3}};
  const EdgeSlice slice = slice_of(edges, 128, world);
  const Partition1D part(128, world.size(), world.rank());
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(slice, part, world), part, world, 64, 1);
  EXPECT_EQ(roots, (std::vector<vertex_t>{3, 5, 9}));
}

}  // namespace
}  // namespace g500
