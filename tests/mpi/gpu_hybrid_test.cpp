// gpu-hybrid's own settings: exchanges staged through host memory or handed straight to MPI (the
// CPU build's device memory is host memory), and top-down steps in one round or many, give the
// same levels; both directions run, switched where hybrid-1d switches, since both take
// DirectionPolicy's rule from the same global sums.
#include <gtest/gtest.h>

#include "bfs/registry.hpp"
#include "generator/kronecker_source.hpp"
#include "harness/resolve.hpp"
#include "harness/roots.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

struct Level {
  Direction direction;
  std::int64_t discovered, edges_examined;
  bool operator==(const Level&) const = default;
};

std::vector<Level> levels_of(const SearchProfile& profile) {
  std::vector<Level> levels;
  for (const LevelRecord& l : profile) levels.push_back({l.direction, l.discovered, l.edges_examined});
  return levels;
}

BfsOptions settled(BfsOptions options, vertex_t n, double tuples, int ranks) {
  RunOptions asked;
  asked.bfs = std::move(options);
  asked.skip_validation = true;
  return resolved_options(asked, ProblemSize{static_cast<double>(n), tuples, ranks}).bfs;
}

TEST(GpuHybrid, StagingAndRoundsGiveTheSameLevelsAndHybrid1dDirections) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(12, 16, 29);
  const std::vector<Edge> edges = all_edges(gen);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 3, 7);
  ASSERT_EQ(roots.size(), 3u);
  const double tuples = static_cast<double>(edges.size());

  // The reference levels: hybrid-1d's directions and per-level finds.
  BfsOptions cpu;
  cpu.engine = "hybrid-1d";
  auto hybrid =
      find_engine("hybrid-1d").make(EngineContext{world, part, settled(cpu, gen.num_vertices(), tuples, world.size())});
  hybrid->build(source);
  std::vector<vertex_t> parents(part.local_count());
  std::vector<SearchProfile> reference(roots.size());
  for (std::size_t i = 0; i < roots.size(); ++i) hybrid->search(roots[i], parents, &reference[i]);

  std::vector<std::vector<Level>> first;
  for (Staging staging : {Staging::on, Staging::off}) {
    for (std::int64_t round : {std::int64_t{0}, std::int64_t{97}}) {
      BfsOptions options;
      options.engine = "gpu-hybrid";
      options.device.staging = staging;
      options.exchange_round = round;
      auto engine = find_engine("gpu-hybrid")
                        .make(EngineContext{world, part, settled(options, gen.num_vertices(), tuples, world.size())});
      engine->build(source);
      for (std::size_t i = 0; i < roots.size(); ++i) {
        SearchProfile profile;
        engine->search(roots[i], parents, &profile);
        const ValidationResult r = validate_bfs(source, part, world, roots[i], parents);
        ASSERT_TRUE(r.ok) << "root " << roots[i] << ": rule " << r.rule << ": " << r.message;
        const std::vector<std::int64_t> per_level = found_per_level(bfs_levels(edges, gen.num_vertices(), roots[i]));
        ASSERT_EQ(profile.size(), per_level.size() + 1);
        ASSERT_EQ(profile.size(), reference[i].size());
        bool top_down = false, bottom_up = false;
        for (std::size_t l = 0; l < profile.size(); ++l) {
          if (l < per_level.size()) {
            EXPECT_EQ(profile[l].discovered, per_level[l]) << "level " << l;
          }
          EXPECT_EQ(profile[l].direction, reference[i][l].direction) << "root " << roots[i] << " level " << l;
          top_down |= profile[l].direction == Direction::top_down;
          bottom_up |= profile[l].direction == Direction::bottom_up;
          EXPECT_FALSE(profile[l].steps.empty());
        }
        EXPECT_TRUE(top_down && bottom_up) << "root " << roots[i] << ": both directions should run";
        // Whatever the staging and the rounds, the same work: counters equal level by level.
        if (first.size() < roots.size())
          first.push_back(levels_of(profile));
        else
          EXPECT_EQ(levels_of(profile), first[i]) << "root " << roots[i];
      }
    }
  }
}

}  // namespace
}  // namespace g500
