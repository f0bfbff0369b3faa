#include <gtest/gtest.h>
#include <omp.h>

#include <map>

#include "harness/roots.hpp"
#include "bfs/registry.hpp"
#include "generator/kronecker_source.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

// hybrid-1d's own settings: the direction policy and the summary granularity change the path a
// search takes (which the conformance test over all engines does not vary), never its answer.
struct Setting {
  std::string name;
  double alpha, beta;
  int granularity;
  int threads;
  std::int64_t exchange_round = 0;  // 0: the engine's default
  bool summary_check = false;
  bool degree_order = true;
};

class Hybrid1DSetting : public ::testing::TestWithParam<Setting> {};

TEST_P(Hybrid1DSetting, SearchesValidateAndMatchSerialLevels) {
  const mpi::Comm world = mpi::Comm::world();
  const Setting& s = GetParam();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(s.threads);
  const KroneckerGenerator gen(11, 16, 13);
  const std::vector<Edge> edges = all_edges(gen);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  BfsOptions options;
  options.engine = "hybrid-1d";
  options.direction = {s.alpha, s.beta};
  options.bottom_up.summary_granularity = s.granularity;
  options.bottom_up.summary_check = s.summary_check;
  options.bottom_up.degree_order = s.degree_order ? DegreeOrder::on : DegreeOrder::off;
  options.exchange_round = s.exchange_round;
  options.ids = settle_ids(options.ids, gen.num_vertices());
  auto engine = find_engine("hybrid-1d").make(EngineContext{world, part, options});
  engine->build(source);
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 6, 3);
  ASSERT_EQ(roots.size(), 6u);
  std::vector<vertex_t> parents(part.local_count());
  std::map<Direction, int> directions;
  for (vertex_t root : roots) {
    SearchProfile profile;
    engine->search(root, parents, &profile);
    const ValidationResult r = validate_bfs(source, part, world, root, parents);
    ASSERT_TRUE(r.ok) << "root " << root << ": rule " << r.rule << ": " << r.message;
    const std::vector<int> level = bfs_levels(edges, gen.num_vertices(), root);
    const std::vector<std::int64_t> per_level = found_per_level(level);
    ASSERT_EQ(profile.size(), per_level.size() + 1);
    for (std::size_t l = 0; l < per_level.size(); ++l) {
      EXPECT_EQ(profile[l].discovered, per_level[l]) << "root " << root << " level " << l;
      ++directions[profile[l].direction];
    }
  }
  omp_set_num_threads(saved);
  if (s.name == "top_down_only" || s.name == "small_rounds") {
    EXPECT_EQ(directions[Direction::bottom_up], 0);
  }
  if (s.name == "bottom_up_early") {
    EXPECT_GT(directions[Direction::bottom_up], directions[Direction::top_down]);
  }
  if (s.name == "beamer_defaults") {
    EXPECT_GT(directions[Direction::bottom_up], 0);
    EXPECT_GT(directions[Direction::top_down], 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Hybrid1D, Hybrid1DSetting,
                         ::testing::Values(Setting{"beamer_defaults", 15, 18, 64, 1},
                                           Setting{"top_down_only", 1e-12, 18, 64, 2},
                                           Setting{"bottom_up_early", 1e12, 1e-12, 1, 1},
                                           Setting{"coarse_summary", 15, 18, 256, 2},
                                           Setting{"summary_checked", 15, 18, 64, 1, 0, true},
                                           Setting{"coarse_summary_checked", 15, 18, 256, 2, 0, true},
                                           // Top-down steps in many exchange rounds of ~40 offers.
                                           Setting{"small_rounds", 1e-12, 18, 64, 2, 40},
                                           // The original numbering (the degree order is on above).
                                           Setting{"original_order", 15, 18, 64, 2, 0, false, false},
                                           Setting{"original_order_small_rounds", 1e-12, 18, 64, 1, 40, false, false}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace g500
