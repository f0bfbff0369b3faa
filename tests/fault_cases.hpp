#pragma once
// A small graph with a known BFS tree, and corruptions of that tree that each break one rule.
#include <functional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace g500::testing {

// 0-1, 0-2, 1-3, 2-3, 3-4, 4-5 in the root's component, a self-loop and a duplicate in it,
// 6-7 apart, and 8..15 isolated. N = 16.
inline std::vector<Edge> fault_graph_edges() {
  return {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {1, 1}, {1, 0}, {6, 7}};
}
inline constexpr vertex_t kFaultGraphVertices = 16;
inline constexpr vertex_t kFaultGraphRoot = 0;
inline constexpr std::int64_t kFaultGraphNedge = 8;  // all tuples but 6-7

inline std::vector<vertex_t> fault_graph_tree() {
  std::vector<vertex_t> p(kFaultGraphVertices, kNoParent);
  p[0] = 0;
  p[1] = 0;
  p[2] = 0;
  p[3] = 1;
  p[4] = 3;
  p[5] = 4;
  return p;
}

struct FaultCase {
  std::string name;
  int rule;  // the rule the validator must name
  std::function<void(std::vector<vertex_t>&)> corrupt;
};

inline std::vector<FaultCase> fault_cases() {
  return {
      {"parent_not_a_neighbour", 5, [](auto& p) { p[4] = 1; }},
      {"cycle", 1, [](auto& p) { p[3] = 4; }},
      {"level_skip", 3, [](auto& p) { p[2] = 3; }},
      {"connected_vertex_unreached", 4, [](auto& p) { p[5] = kNoParent; }},
      {"parent_for_isolated_vertex", 5, [](auto& p) { p[8] = 0; }},
      {"parent_chain_outside_tree", 1, [](auto& p) { p[6] = 7; }},
      {"root_not_its_own_parent", 1, [](auto& p) { p[0] = 1; }},
      {"root_unreached", 1, [](auto& p) { p[0] = kNoParent; }},
      {"parent_out_of_range", 1, [](auto& p) { p[2] = 100; }},
      {"self_parent_not_root", 1, [](auto& p) { p[5] = 5; }},
  };
}

}  // namespace g500::testing
