// sort-unique's own settings: exchanges staged through host memory or handed straight to MPI (the
// CPU build's device memory is host memory) give the same levels; the next-level array shrinks
// through sort + unique and the visited filter, as the counters report.
#include <gtest/gtest.h>

#include "bfs/registry.hpp"
#include "generator/kronecker_source.hpp"
#include "harness/roots.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

std::int64_t logical(const LevelRecord& level, const char* name) {
  const auto it = level.traffic.logical.find(name);
  return it == level.traffic.logical.end() ? -1 : it->second.items;
}

TEST(SortUnique, StagedAndDirectExchangesAgreeAndPrune) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(11, 16, 13);
  const std::vector<Edge> edges = all_edges(gen);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 3, 5);
  ASSERT_EQ(roots.size(), 3u);
  for (Staging staging : {Staging::on, Staging::off}) {
    BfsOptions options;
    options.engine = "sort-unique";
    options.device.staging = staging;
    options.ids = settle_ids(options.ids, gen.num_vertices());
    auto engine = find_engine("sort-unique").make(EngineContext{world, part, options});
    engine->build(source);
    std::vector<vertex_t> parents(part.local_count());
    for (vertex_t root : roots) {
      SearchProfile profile;
      engine->search(root, parents, &profile);
      const ValidationResult r = validate_bfs(source, part, world, root, parents);
      ASSERT_TRUE(r.ok) << "root " << root << ": rule " << r.rule << ": " << r.message;
      const std::vector<std::int64_t> per_level = found_per_level(bfs_levels(edges, gen.num_vertices(), root));
      ASSERT_EQ(profile.size(), per_level.size() + 1);
      std::int64_t expanded = 0, unique = 0, kept = 0;
      for (std::size_t l = 0; l < profile.size(); ++l) {
        if (l < per_level.size()) {
          EXPECT_EQ(profile[l].discovered, per_level[l]) << "level " << l;
        }
        const std::int64_t e = logical(profile[l], "sort_unique.expanded");
        const std::int64_t u = logical(profile[l], "sort_unique.after_unique");
        const std::int64_t k = logical(profile[l], "sort_unique.after_visited");
        ASSERT_GE(k, 0);
        EXPECT_LE(u, e);
        EXPECT_LE(k, u);
        expanded += e;
        unique += u;
        kept += k;
        EXPECT_FALSE(profile[l].steps.empty());
      }
      // Kronecker frontiers share most neighbours: well over half the array goes.
      EXPECT_LT(2 * kept, expanded) << "root " << root;
      EXPECT_LE(kept, unique);
    }
  }
}

}  // namespace
}  // namespace g500
