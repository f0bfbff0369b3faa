#pragma once
// The Graph500 rules 1-5 written plainly, on one whole tuple list and one whole parents array:
// the yardstick the distributed validators of src/validate are held to on random, mutated trees
// (tests/mpi/reference_validator_test.cpp). Slow and obvious on purpose: no batches, no lanes, no
// owners. A result names the lowest rule broken, as the validators do.
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace g500::testing {

struct Verdict {
  int rule = 0;            // 0: valid; else the lowest rule broken
  std::int64_t nedge = 0;  // when valid: tuples with both ends reached (self-loops and duplicates too)
};

inline std::int64_t tuples_within(const std::vector<Edge>& edges, const std::vector<bool>& reached) {
  std::int64_t nedge = 0;
  for (const Edge& e : edges) nedge += reached[e.u] && reached[e.v];
  return nedge;
}

// Kernel 2's tree `parent` (kNoParent: unreached) of a search from `root`.
inline Verdict reference_bfs(const std::vector<Edge>& edges, vertex_t n, vertex_t root,
                             const std::vector<vertex_t>& parent) {
  // Rule 1: a tree rooted at the root. The root is its own parent, every parent is a vertex id,
  // no other vertex is its own parent, and every reached vertex's chain of parents ends at the
  // root (a chain longer than n is a cycle).
  std::vector<bool> reached(n);
  for (vertex_t v = 0; v < n; ++v) reached[v] = parent[v] != kNoParent;
  if (parent[root] != root) return {1};
  for (vertex_t v = 0; v < n; ++v) {
    if (!reached[v]) continue;
    if (parent[v] < 0 || parent[v] >= n || (parent[v] == v && v != root)) return {1};
  }
  std::vector<std::int64_t> level(n, -1);
  for (vertex_t v = 0; v < n; ++v) {
    if (!reached[v]) continue;
    std::int64_t depth = 0;
    for (vertex_t u = v; u != root; u = parent[u])
      if (!reached[u] || ++depth > n) return {1};
    level[v] = depth;
  }
  int rule = 0;
  const auto broke = [&rule](int r) { rule = rule == 0 ? r : std::min(rule, r); };
  // Rule 2: a tree edge joins levels one apart.
  for (vertex_t v = 0; v < n; ++v)
    if (reached[v] && v != root && level[v] != level[parent[v]] + 1) broke(2);
  for (const Edge& e : edges) {
    // Rule 4: no tuple joins a reached vertex to an unreached one.
    if (reached[e.u] != reached[e.v]) broke(4);
    // Rule 3: a tuple between reached vertices spans at most one level.
    else if (reached[e.u] && std::abs(level[e.u] - level[e.v]) > 1)
      broke(3);
  }
  // Rule 5: every reached vertex but the root is joined to its parent by a tuple.
  std::vector<bool> joined(n);
  for (const Edge& e : edges) {
    if (reached[e.u] && parent[e.u] == e.v) joined[e.u] = true;
    if (reached[e.v] && parent[e.v] == e.u) joined[e.v] = true;
  }
  for (vertex_t v = 0; v < n; ++v)
    if (reached[v] && v != root && !joined[v]) broke(5);
  return rule ? Verdict{rule, 0} : Verdict{0, tuples_within(edges, reached)};
}

// Kernel 3's tree and distances (float, as the search adds them) of a search from `root`.
inline Verdict reference_sssp(const std::vector<Edge>& edges, const std::vector<float>& weights, vertex_t n,
                              vertex_t root, const std::vector<vertex_t>& parent, const std::vector<float>& dist) {
  // Rule 1: parents are vertex ids; a vertex has a parent exactly when its distance is finite;
  // the root is its own parent at distance 0; no distance is negative.
  std::vector<bool> reached(n);
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t p = parent[v];
    reached[v] = std::isfinite(dist[v]);
    if (p != kNoParent && (p < 0 || p >= n)) return {1};
    if ((p != kNoParent) != reached[v]) return {1};
    if (v == root && (p != root || dist[v] != 0.0f)) return {1};
    if (reached[v] && dist[v] < 0) return {1};
  }
  int rule = 0;
  const auto broke = [&rule](int r) { rule = rule == 0 ? r : std::min(rule, r); };
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const vertex_t u = edges[k].u, v = edges[k].v;
    const float w = weights[k];
    // Rule 4: no tuple joins a reached vertex to an unreached one.
    if (reached[u] != reached[v]) broke(4);
    // Rule 3: the triangle inequality both ways along every tuple between reached vertices.
    else if (reached[u] && (dist[v] > dist[u] + w || dist[u] > dist[v] + w))
      broke(3);
  }
  // Rule 5: every reached vertex but the root has a tuple to its parent that is tight.
  std::vector<bool> joined(n);
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const vertex_t u = edges[k].u, v = edges[k].v;
    if (reached[u] && reached[v] && parent[u] == v && dist[u] == dist[v] + weights[k]) joined[u] = true;
    if (reached[u] && reached[v] && parent[v] == u && dist[v] == dist[u] + weights[k]) joined[v] = true;
  }
  for (vertex_t v = 0; v < n; ++v)
    if (reached[v] && v != root && !joined[v]) broke(5);
  return rule ? Verdict{rule, 0} : Verdict{0, tuples_within(edges, reached)};
}

}  // namespace g500::testing
