#pragma once
// Small graphs and a serial BFS oracle for tests.
#include <cstdint>
#include <queue>
#include <set>
#include <vector>

#include "core/types.hpp"
#include "generator/generate_slice.hpp"
#include "graph/edge_source.hpp"
#include "generator/kronecker.hpp"
#include "mpi/comm.hpp"

namespace g500::testing {

// Every tuple of the generator, in index order (small SCALEs only).
inline std::vector<Edge> all_edges(const KroneckerGenerator& gen) {
  std::vector<Edge> edges(gen.num_edges());
  for (std::int64_t i = 0; i < gen.num_edges(); ++i) edges[i] = gen.edge(i);
  return edges;
}

// This rank's share of an explicit tuple list, split as the generator splits, as an edge source.
inline SliceSource source_of(const std::vector<Edge>& edges, const mpi::Comm& comm) {
  EdgeSlice s;
  s.global_edges = static_cast<std::int64_t>(edges.size());
  s.first = slice_begin(s.global_edges, comm.rank(), comm.size());
  const std::int64_t last = slice_begin(s.global_edges, comm.rank() + 1, comm.size());
  s.edges.assign(edges.begin() + s.first, edges.begin() + last);
  return SliceSource(std::move(s), comm.rank(), comm.size());
}

// The distinct neighbours of every vertex, self-loops left out.
inline std::vector<std::set<vertex_t>> neighbour_sets(const std::vector<Edge>& edges, vertex_t n) {
  std::vector<std::set<vertex_t>> adj(n);
  for (const Edge& e : edges) {
    if (e.u == e.v) continue;
    adj[e.u].insert(e.v);
    adj[e.v].insert(e.u);
  }
  return adj;
}

// Serial BFS depth of every vertex (-1 unreached).
inline std::vector<int> bfs_levels(const std::vector<Edge>& edges, vertex_t n, vertex_t root) {
  std::vector<std::vector<vertex_t>> adj(n);
  for (const Edge& e : edges) {
    adj[e.u].push_back(e.v);
    adj[e.v].push_back(e.u);
  }
  std::vector<int> level(n, -1);
  std::queue<vertex_t> q;
  level[root] = 0;
  q.push(root);
  while (!q.empty()) {
    const vertex_t u = q.front();
    q.pop();
    for (vertex_t v : adj[u])
      if (level[v] < 0) {
        level[v] = level[u] + 1;
        q.push(v);
      }
  }
  return level;
}

// Vertices found at each depth 1, 2, ... of a serial BFS (the root, depth 0, left out).
inline std::vector<std::int64_t> found_per_level(const std::vector<int>& level) {
  std::vector<std::int64_t> per_level;
  for (int l : level) {
    if (l < 1) continue;
    if (static_cast<int>(per_level.size()) < l) per_level.resize(l, 0);
    ++per_level[l - 1];
  }
  return per_level;
}

}  // namespace g500::testing
