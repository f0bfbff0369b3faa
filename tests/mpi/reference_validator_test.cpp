// The distributed batch validators (src/validate) against the plain rules of
// tests/reference_validator.hpp, on random graphs with correct trees mutated at random: parents
// moved, cut, looped, sent out of range; distances nudged by an ulp, cut, made negative. Both must
// name the same rule for every tree, and the same edge count for every valid one, at any rank
// count, batch size and round size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <random>
#include <vector>

#include "partition/partition_1d.hpp"
#include "reference_validator.hpp"
#include "test_graphs.hpp"
#include "validate/bfs_validator.hpp"
#include "validate/sssp_validator.hpp"

namespace g500 {
namespace {

using namespace g500::testing;
using Rng = std::mt19937_64;

constexpr float kInf = std::numeric_limits<float>::infinity();

// Every rank draws the same numbers, so every rank holds the same graph, trees and mutations.
vertex_t below(Rng& rng, vertex_t n) { return static_cast<vertex_t>(rng() % static_cast<std::uint64_t>(n)); }

struct RandomGraph {
  vertex_t n = 0;
  std::vector<Edge> edges;
  std::vector<float> weights;
  std::vector<std::vector<std::pair<vertex_t, float>>> adj;  // self-loops left out
};

// Sparse random tuples, or (one in four) a long path with a few chords, whose trees run deep
// (past the levels a byte holds, where the BFS validator takes wider entries). Some self-loops and
// duplicates; weights in [0, 1) as the generator's, some of them 0.
RandomGraph random_graph(Rng& rng) {
  RandomGraph g;
  g.n = 20 + below(rng, 700);
  const bool path = rng() % 4 == 0;
  if (path)
    for (vertex_t v = 1; v < g.n; ++v) g.edges.push_back({v - 1, v});
  const vertex_t extra = path ? g.n / 20 : g.n / 2 + below(rng, 3 * g.n);
  for (vertex_t k = 0; k < extra; ++k) g.edges.push_back({below(rng, g.n), below(rng, g.n)});
  for (int k = 0; k < 3; ++k) g.edges.push_back(g.edges[below(rng, static_cast<vertex_t>(g.edges.size()))]);
  g.edges.push_back({below(rng, g.n), 0});
  g.edges.back().v = g.edges.back().u;  // a self-loop
  std::uniform_real_distribution<float> weight(0.0f, 1.0f);
  for (std::size_t k = 0; k < g.edges.size(); ++k) g.weights.push_back(rng() % 50 == 0 ? 0.0f : weight(rng));
  g.adj.resize(g.n);
  for (std::size_t k = 0; k < g.edges.size(); ++k) {
    const Edge& e = g.edges[k];
    if (e.u == e.v) continue;
    g.adj[e.u].push_back({e.v, g.weights[k]});
    g.adj[e.v].push_back({e.u, g.weights[k]});
  }
  return g;
}

// This rank's share of the tuples and their weights, split as the generator splits.
SliceSource weighted_share(const RandomGraph& g, const mpi::Comm& comm) {
  EdgeSlice slice = source_of(g.edges, comm).slice();
  const auto first = g.weights.begin() + slice.first;
  slice.weights.assign(first, first + static_cast<std::ptrdiff_t>(slice.edges.size()));
  return SliceSource(std::move(slice), comm.rank(), comm.size());
}

// A correct BFS tree: each reached vertex's parent drawn among its neighbours a level up.
std::vector<vertex_t> bfs_tree(const RandomGraph& g, vertex_t root, Rng& rng) {
  const std::vector<int> level = bfs_levels(g.edges, g.n, root);
  std::vector<vertex_t> parent(g.n, kNoParent);
  parent[root] = root;
  for (vertex_t v = 0; v < g.n; ++v) {
    if (level[v] <= 0) continue;
    std::vector<vertex_t> up;
    for (const auto& [u, w] : g.adj[v])
      if (level[u] == level[v] - 1) up.push_back(u);
    parent[v] = up[below(rng, static_cast<vertex_t>(up.size()))];
  }
  return parent;
}

// A correct SSSP tree: Dijkstra in float, adding as the search adds, each parent one whose
// distance plus the weight gives the vertex's exactly.
void sssp_tree(const RandomGraph& g, vertex_t root, std::vector<vertex_t>& parent, std::vector<float>& dist) {
  dist.assign(g.n, kInf);
  parent.assign(g.n, kNoParent);
  using Item = std::pair<float, vertex_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[root] = 0;
  parent[root] = root;
  heap.push({0.0f, root});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    for (const auto& [v, w] : g.adj[u]) {
      if (d + w < dist[v]) {
        dist[v] = d + w;
        parent[v] = u;
        heap.push({dist[v], v});
      }
    }
  }
}

// A reached vertex, not the root, that is no vertex's parent (from a random place on), or kNoParent.
vertex_t some_leaf(const std::vector<vertex_t>& parent, vertex_t root, Rng& rng) {
  const vertex_t n = static_cast<vertex_t>(parent.size());
  std::vector<bool> has_child(n);
  for (vertex_t v = 0; v < n; ++v)
    if (parent[v] >= 0 && parent[v] < n && parent[v] != v) has_child[parent[v]] = true;
  for (vertex_t k = 0, v = below(rng, n); k < n; ++k, v = (v + 1) % n)
    if (parent[v] != kNoParent && v != root && !has_child[v]) return v;
  return kNoParent;
}

// One random change to a tree: most break a rule, some leave it valid (another parent a level up,
// or an equally short one).
void mutate_parents(const RandomGraph& g, vertex_t root, Rng& rng, std::vector<vertex_t>& parent) {
  const vertex_t v = below(rng, g.n);
  const auto neighbour = [&](vertex_t x) { return g.adj[x].empty() ? x : g.adj[x][below(rng, g.adj[x].size())].first; };
  const vertex_t leaf = some_leaf(parent, root, rng);
  switch (rng() % 11) {
    case 0:
      parent[v] = below(rng, g.n);
      break;
    case 1:
      parent[v] = kNoParent;
      break;
    case 2:
      parent[v] = v;
      break;
    case 3:
      parent[v] = rng() % 2 ? g.n + below(rng, 3) : -2 - below(rng, 3);
      break;
    case 4:
      parent[v] = neighbour(v);
      break;
    case 5:
      parent[root] = below(rng, g.n);
      break;
    case 6:
      std::swap(parent[v], parent[below(rng, g.n)]);
      break;
    case 7:  // an unreached vertex hung under a neighbour
      for (vertex_t k = 0, u = v; k < g.n; ++k, u = (u + 1) % g.n) {
        if (parent[u] == kNoParent) {
          parent[u] = neighbour(u);
          break;
        }
      }
      break;
    case 8:
    case 9:  // a leaf cut off
      if (leaf != kNoParent) parent[leaf] = kNoParent;
      break;
    default:  // a leaf hung under another reached vertex (no cycle: nothing hangs under a leaf)
      if (leaf != kNoParent && parent[v] != kNoParent && v != leaf) parent[leaf] = v;
  }
}

void mutate_distances(const RandomGraph& g, vertex_t root, Rng& rng, std::vector<vertex_t>& parent,
                      std::vector<float>& dist) {
  const vertex_t v = below(rng, g.n);
  const vertex_t leaf = some_leaf(parent, root, rng);
  switch (rng() % 8) {
    case 7:  // a leaf cut off, its distance too
      if (leaf != kNoParent) {
        parent[leaf] = kNoParent;
        dist[leaf] = kInf;
      }
      break;
    case 0:
      dist[v] = std::nextafter(dist[v], kInf);
      break;
    case 1:
      dist[v] = std::nextafter(dist[v], -kInf);
      break;
    case 2:
      dist[v] = kInf;
      break;
    case 3:
      dist[v] = kInf;
      parent[v] = kNoParent;
      break;
    case 4:
      dist[v] = -dist[v] - 1e-3f;
      break;
    case 5:
      dist[root] = 0.5f;
      break;
    default:  // another neighbour as parent, its distance made tight
      if (!g.adj[v].empty() && v != root) {
        const auto [u, w] = g.adj[v][below(rng, g.adj[v].size())];
        if (std::isfinite(dist[u])) {
          parent[v] = u;
          dist[v] = dist[u] + w;
        }
      }
  }
}

// The rule each verdict names (0: valid) and, for valid trees, the edge count.
struct Tally {
  std::map<int, int> by_rule;
  int trees = 0;
};

void expect_same(const Verdict& want, const ValidationResult& got, const char* kernel, int tree, Tally& tally) {
  const int got_rule = got.ok ? 0 : got.rule;
  EXPECT_EQ(got_rule, want.rule) << kernel << " tree " << tree << ": " << got.message;
  if (want.rule == 0 && got.ok) {
    EXPECT_EQ(got.nedge, want.nedge) << kernel << " tree " << tree;
  }
  ++tally.by_rule[want.rule];
  ++tally.trees;
}

// A batch of `batch` mutated trees of one graph through the BFS batch validator, and the plain rules.
void check_bfs_batch(const RandomGraph& g, const SliceSource& source, const Partition1D& part, int batch,
                     std::int64_t chunk, Rng& rng, Tally& tally) {
  const mpi::Comm world = mpi::Comm::world();
  BfsBatchValidator validator(source, part, world, batch, chunk);
  std::vector<Verdict> want;
  for (int k = 0; k < batch; ++k) {
    const vertex_t root = below(rng, g.n);
    std::vector<vertex_t> parent = bfs_tree(g, root, rng);
    for (int m = static_cast<int>(rng() % 4); m > 0; --m) mutate_parents(g, root, rng, parent);
    want.push_back(reference_bfs(g.edges, g.n, root, parent));
    const std::span<const vertex_t> mine(parent.data() + part.begin(), part.local_count());
    if (k + 1 < batch) {
      validator.wait(root, mine);
      continue;
    }
    const std::vector<ValidationResult> got = validator.check(root, mine);
    ASSERT_EQ(got.size(), want.size());
    for (int j = 0; j < batch; ++j) expect_same(want[j], got[j], "BFS", tally.trees, tally);
  }
}

void check_sssp_batch(const RandomGraph& g, const SliceSource& source, const Partition1D& part, int batch,
                      std::int64_t chunk, Rng& rng, Tally& tally) {
  const mpi::Comm world = mpi::Comm::world();
  SsspBatchValidator validator(source, part, world, batch, chunk);
  std::vector<Verdict> want;
  std::vector<vertex_t> parent;
  std::vector<float> dist;
  for (int k = 0; k < batch; ++k) {
    const vertex_t root = below(rng, g.n);
    sssp_tree(g, root, parent, dist);
    for (int m = static_cast<int>(rng() % 4); m > 0; --m) {
      if (rng() % 2) {
        mutate_parents(g, root, rng, parent);
      } else {
        mutate_distances(g, root, rng, parent, dist);
      }
    }
    want.push_back(reference_sssp(g.edges, g.weights, g.n, root, parent, dist));
    const std::span<const vertex_t> mine(parent.data() + part.begin(), part.local_count());
    const std::span<const float> mine_dist(dist.data() + part.begin(), part.local_count());
    if (k + 1 < batch) {
      validator.wait(root, mine, mine_dist);
      continue;
    }
    const std::vector<ValidationResult> got = validator.check(root, mine, mine_dist);
    ASSERT_EQ(got.size(), want.size());
    for (int j = 0; j < batch; ++j) expect_same(want[j], got[j], "SSSP", tally.trees, tally);
  }
}

// Trees a rank count checks, per kernel (CI runs -np 1, 2, 3 and 4).
constexpr int kTrees = 10000;

TEST(ReferenceValidator, BatchValidatorsNameTheSameRuleOnMutatedTrees) {
  const mpi::Comm world = mpi::Comm::world();
  Rng rng(20261128);
  Tally bfs, sssp;
  const int target = kTrees;
  while (bfs.trees < target || sssp.trees < target) {
    const RandomGraph g = random_graph(rng);
    const SliceSource source = weighted_share(g, world);
    const Partition1D part(g.n, world.size(), world.rank());
    const std::int64_t chunk = rng() % 3 == 0 ? 16 + below(rng, 200) : exchange::kValidationRound;
    check_bfs_batch(g, source, part, 1 + static_cast<int>(rng() % 16), chunk, rng, bfs);
    check_sssp_batch(g, source, part, 1 + static_cast<int>(rng() % 16), chunk, rng, sssp);
    if (::testing::Test::HasFailure()) break;
  }
  // The trees are worth checking: valid ones and every rule a mutation can break, many times over.
  for (int rule : {0, 1, 3, 4, 5}) EXPECT_GE(bfs.by_rule[rule], target / 100) << "BFS rule " << rule;
  for (int rule : {0, 1, 3, 4, 5}) EXPECT_GE(sssp.by_rule[rule], target / 100) << "SSSP rule " << rule;
  if (world.is_root()) {
    std::printf(
        "reference validator: %d BFS trees (valid %d, rule 1 %d, 3 %d, 4 %d, 5 %d), %d SSSP trees "
        "(valid %d, rule 1 %d, 3 %d, 4 %d, 5 %d)\n",
        bfs.trees, bfs.by_rule[0], bfs.by_rule[1], bfs.by_rule[3], bfs.by_rule[4], bfs.by_rule[5], sssp.trees,
        sssp.by_rule[0], sssp.by_rule[1], sssp.by_rule[3], sssp.by_rule[4], sssp.by_rule[5]);
  }
}

}  // namespace
}  // namespace g500
