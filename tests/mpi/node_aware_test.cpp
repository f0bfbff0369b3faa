// hybrid-1d's node-aware options (papers 000, 002): each alone and combined, with pretend nodes of
// 2 ranks when the rank count allows and on the real node otherwise, keep every search valid with
// the serial BFS's per-level counts, whichever direction each level takes.
#include <gtest/gtest.h>

#include <string>

#include "engine_check.hpp"
#include "fault_cases.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

struct NodeSetting {
  std::string name;
  bool node_shared = false;
  bool parallel_allgather = false;
  double alpha = 60;  // 1e-12: top-down only; the default goes bottom-up where it pays
  int hubs = 0;
  std::string relay;  // "auto" or "NxM"; "1xP", "Px1": filled in for the rank count
};

class NodeAware : public ::testing::TestWithParam<NodeSetting> {};

TEST_P(NodeAware, SearchesValidateAndMatchSerialLevels) {
  const NodeSetting& s = GetParam();
  const int ranks = mpi::Comm::world().size();
  for (int ranks_per_node : {0, 1, 2}) {
    if (ranks_per_node == 0 || ranks % ranks_per_node == 0) {
      BfsOptions options;
      options.engine = "hybrid-1d";
      options.direction.alpha = s.alpha;
      std::string relay = s.relay;
      if (relay == "1xP") relay = "1x" + std::to_string(ranks);
      if (relay == "Px1") relay = std::to_string(ranks) + "x1";
      options.node = {ranks_per_node, s.node_shared, s.parallel_allgather, relay, s.hubs};
      SCOPED_TRACE(s.name + ", ranks per node " + std::to_string(ranks_per_node));
      check_engine(options, all_edges(KroneckerGenerator(11, 16, 13)), {});
      // Self-loops, a duplicate, a second component, isolated vertices; ranks with empty blocks.
      std::vector<Edge> small = fault_graph_edges();
      small.push_back({kFaultGraphVertices - 1, kFaultGraphVertices - 1});
      check_engine(options, small, {0, 3, 5, 6});
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Hybrid1D, NodeAware,
                         ::testing::Values(NodeSetting{"node_shared", true, false, 60, 0, ""},
                                           NodeSetting{"parallel_allgather", true, true, 60, 0, ""},
                                           NodeSetting{"shared_bottom_up_early", true, true, 1e12, 0, ""},
                                           NodeSetting{"hubs_top_down_only", false, false, 1e-12, 64, ""},
                                           NodeSetting{"hubs_few", false, false, 60, 3, ""},
                                           NodeSetting{"hubs_with_shared_frontier", true, true, 60, 4096, ""},
                                           NodeSetting{"relay_auto_top_down_only", false, false, 1e-12, 0, "auto"},
                                           NodeSetting{"relay_one_row", false, false, 1e-12, 0, "1xP"},
                                           NodeSetting{"relay_one_column", false, false, 60, 0, "Px1"},
                                           NodeSetting{"all_combined", true, true, 60, 16, "auto"}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace g500
