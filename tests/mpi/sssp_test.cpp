// Kernel 3: delta-stepping gives the serial Dijkstra distances (float sums, exactly) for any rank
// count and delta, its results validate, and broken results are caught by the rule they break.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <queue>

#include "core/error.hpp"
#include "generator/kronecker_source.hpp"
#include "harness/roots.hpp"
#include "sssp/delta_stepping.hpp"
#include "test_graphs.hpp"
#include "validate/sssp_validator.hpp"

namespace g500 {
namespace {

// Options as a run settles them for the partition's graph (harness/resolve.hpp).
SsspOptions settled(SsspOptions options, const Partition1D& part) {
  options.replicas = settle_replicas(options.replicas, static_cast<double>(part.num_vertices()), part.num_ranks());
  return options;
}

using namespace g500::testing;

// Serial Dijkstra on an explicit weighted tuple list, adding in float as the search does.
std::vector<float> dijkstra(const std::vector<Edge>& edges, const std::vector<float>& weights, vertex_t n,
                            vertex_t root) {
  std::vector<std::vector<std::pair<vertex_t, float>>> adj(n);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (edges[i].u == edges[i].v) continue;
    adj[edges[i].u].push_back({edges[i].v, weights[i]});
    adj[edges[i].v].push_back({edges[i].u, weights[i]});
  }
  std::vector<float> dist(n, std::numeric_limits<float>::infinity());
  using Item = std::pair<float, vertex_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[root] = 0;
  heap.push({0, root});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    for (const auto& [v, w] : adj[u]) {
      if (d + w < dist[v]) {
        dist[v] = d + w;
        heap.push({dist[v], v});
      }
    }
  }
  return dist;
}

// The same on the generator's tuples and weights.
std::vector<float> dijkstra(const KroneckerGenerator& gen, vertex_t root) {
  std::vector<float> weights(gen.num_edges());
  for (std::int64_t i = 0; i < gen.num_edges(); ++i) weights[i] = gen.weight(i);
  return dijkstra(all_edges(gen), weights, gen.num_vertices(), root);
}

struct Setting {
  float delta;
  int threads;
  Fusion fusion = Fusion::on;
  HeavyDirection heavy = HeavyDirection::automatic;
  bool tail = true;
  bool prune = true;
  WholeRows whole = WholeRows::automatic;
  Replicas replicas = Replicas::automatic;
};

// Whether each bucket of `profile` relaxed whole rows as `mode` says it must: the last bucket
// always; automatically, every bucket after one pushed that follows one pulled.
bool whole_rows_as_told(const SsspProfile& profile, WholeRows mode) {
  bool pulled = false, past_peak = false;
  for (const BucketRecord& b : profile) {
    const bool want = b.bucket >= std::int64_t{1} << 62 || mode == WholeRows::on || (mode == WholeRows::automatic && past_peak);
    if (b.whole_rows != want) return false;
    past_peak = past_peak || (pulled && !b.pulled);
    pulled = pulled || b.pulled;
  }
  return true;
}

class DeltaSteppingTest : public ::testing::TestWithParam<Setting> {};

TEST_P(DeltaSteppingTest, DistancesAreDijkstrasAndValidate) {
  const mpi::Comm world = mpi::Comm::world();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam().threads);
  const KroneckerGenerator gen(10, 16, 5);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (bool ids32 : {true, false}) {
    std::int64_t pruned = 0;  // over the roots (profiles are summed over ranks)
    auto engine =
        make_delta_stepping(world, part,
                            settled(SsspOptions{GetParam().delta, GetParam().fusion, GetParam().heavy, GetParam().whole,
                                                GetParam().tail, GetParam().prune, GetParam().replicas},
                                    part),
                            ids32);
    engine->build(source);
    const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 4, 9);
    ASSERT_EQ(roots.size(), 4u);
    std::vector<vertex_t> parents(part.local_count());
    std::vector<float> dist(part.local_count());
    for (std::size_t k = 0; k < roots.size(); ++k) {
      const vertex_t root = roots[k];
      // Every other search starts from released buffers, as the one after a batch's check does.
      if (k % 2 == 1) engine->release_search_buffers();
      SsspProfile profile;
      engine->search(root, parents, dist, &profile);
      EXPECT_TRUE(whole_rows_as_told(profile, GetParam().whole)) << "root " << root;
      if (GetParam().whole == WholeRows::automatic && GetParam().heavy == HeavyDirection::automatic &&
          GetParam().delta == 0.01f && GetParam().replicas != Replicas::hubs) {
        // The default settings pass their dense buckets here too (a pushed bucket after a pulled one:
        // with hubs only, nothing is pulled).
        EXPECT_GT(std::count_if(profile.begin(), profile.end() - 1, [](const BucketRecord& b) { return b.whole_rows; }), 0)
            << "root " << root;
      }
      if (GetParam().heavy == HeavyDirection::pull && GetParam().whole == WholeRows::off) {
        // Told to pull, every bucket with heavy work pulls, by copy or by asking.
        EXPECT_GT(std::count_if(profile.begin(), profile.end(), [](const BucketRecord& b) { return b.pulled; }), 0)
            << "root " << root;
      }
      const std::vector<float> expect = dijkstra(gen, root);
      std::int64_t settled = 0;
      for (const BucketRecord& b : profile) {
        settled += b.settled;
        pruned += b.pruned_relaxations;
      }
      std::int64_t reached = 0;
      for (local_t i = 0; i < part.local_count(); ++i) {
        ASSERT_EQ(dist[i], expect[part.to_global(i)]) << "vertex " << part.to_global(i) << " root " << root;
        reached += std::isfinite(dist[i]);
      }
      EXPECT_EQ(settled, world.allreduce(reached, mpi::Op::sum));
      const ValidationResult r = validate_sssp(source, part, world, root, parents, dist);
      ASSERT_TRUE(r.ok) << "root " << root << ": rule " << r.rule << ": " << r.message;
      // The same component as the BFS tree's, so the same edge count.
      std::int64_t expect_nedge = 0;
      for (std::int64_t i = 0; i < gen.num_edges(); ++i) expect_nedge += std::isfinite(expect[gen.edge(i).u]);
      EXPECT_EQ(r.nedge, expect_nedge);
    }
    // Pruning drops relaxations once buckets finish (with narrow buckets, many do), and only then.
    if (!GetParam().prune) {
      EXPECT_EQ(pruned, 0);
    } else if (GetParam().delta >= 0.01f && GetParam().delta <= 0.1f) {
      EXPECT_GT(pruned, 0);
    }
  }
  omp_set_num_threads(saved);
}

INSTANTIATE_TEST_SUITE_P(
    Sssp, DeltaSteppingTest,
    ::testing::Values(
        Setting{0.1f, 1}, Setting{0.1f, 2}, Setting{0.1f, 1, Fusion::off}, Setting{0.1f, 2, Fusion::off},
        // automatic fusion (on with one rank, off with several)
        Setting{0.1f, 1, Fusion::automatic}, Setting{0.01f, 2, Fusion::automatic},
        // every mode of the heavy edges, with and without fusion
        Setting{0.1f, 1, Fusion::on, HeavyDirection::push}, Setting{0.1f, 2, Fusion::off, HeavyDirection::pull},
        Setting{0.3f, 2, Fusion::on, HeavyDirection::pull}, Setting{0.02f, 1, Fusion::off, HeavyDirection::push, false},
        Setting{0.01f, 2, Fusion::on, HeavyDirection::automatic, false}, Setting{0.01f, 1}, Setting{1.0f, 2},
        Setting{0.01f, 2, Fusion::off}, Setting{8.0f, 1},
        // every relaxation sent, none pruned
        Setting{0.01f, 2, Fusion::on, HeavyDirection::automatic, true, false},
        Setting{0.1f, 1, Fusion::off, HeavyDirection::push, false, false},
        // whole rows in every bucket, or never but the last
        Setting{0.1f, 2, Fusion::on, HeavyDirection::automatic, true, true, WholeRows::on},
        Setting{0.01f, 1, Fusion::off, HeavyDirection::push, false, true, WholeRows::on},
        Setting{0.01f, 2, Fusion::off, HeavyDirection::automatic, true, true, WholeRows::off},
        Setting{0.01f, 1, Fusion::on, HeavyDirection::pull, true, false, WholeRows::off},
        // finished bits for the hubs only, heavy edges pushed
        Setting{0.1f, 2, Fusion::off, HeavyDirection::automatic, true, true, WholeRows::automatic, Replicas::hubs},
        Setting{0.01f, 1, Fusion::on, HeavyDirection::push, false, true, WholeRows::on, Replicas::hubs},
        Setting{0.01f, 2, Fusion::automatic, HeavyDirection::automatic, true, true, WholeRows::automatic,
                Replicas::hubs},
        // and pulled by asking the owners
        Setting{0.1f, 2, Fusion::off, HeavyDirection::pull, true, true, WholeRows::automatic, Replicas::hubs},
        Setting{0.01f, 1, Fusion::on, HeavyDirection::pull, false, false, WholeRows::off, Replicas::hubs},
        // the distances of the vertices a rank's rows reach, told by
        // their owners: pruning, pushes and pulls from them
        Setting{0.1f, 2, Fusion::off, HeavyDirection::automatic, true, true, WholeRows::automatic, Replicas::ghosts},
        Setting{0.01f, 1, Fusion::on, HeavyDirection::push, false, true, WholeRows::on, Replicas::ghosts},
        Setting{0.01f, 2, Fusion::automatic, HeavyDirection::automatic, true, true, WholeRows::automatic,
                Replicas::ghosts},
        Setting{0.1f, 2, Fusion::off, HeavyDirection::pull, true, true, WholeRows::automatic, Replicas::ghosts},
        Setting{0.01f, 1, Fusion::on, HeavyDirection::pull, false, false, WholeRows::off, Replicas::ghosts},
        // the extremes --delta accepts: every distance past the
        // last bucket's start, or all in the first
        Setting{1e-30f, 1}, Setting{FLT_MIN, 2}, Setting{FLT_MAX, 1}));

// This rank's share of an explicit weighted tuple list, padded with self-loops (which no search
// follows) so that every rank's share holds a tuple and so a weight.
SliceSource weighted_source_of(std::vector<Edge> edges, std::vector<float> weights, const mpi::Comm& comm) {
  while (edges.size() < static_cast<std::size_t>(comm.size())) {
    edges.push_back({0, 0});
    weights.push_back(0.5f);
  }
  EdgeSlice slice = source_of(edges, comm).slice();
  const auto first = weights.begin() + slice.first;
  slice.weights.assign(first, first + static_cast<std::ptrdiff_t>(slice.edges.size()));
  return SliceSource(std::move(slice), comm.rank(), comm.size());
}

// Whether following parents from every reached vertex ends at the root (no cycle), on every
// rank's copy of the whole parents array.
bool parents_form_a_tree(const std::vector<vertex_t>& parent, vertex_t root) {
  const vertex_t n = static_cast<vertex_t>(parent.size());
  if (parent[root] != root) return false;
  for (vertex_t v = 0; v < n; ++v) {
    vertex_t at = v;
    for (vertex_t steps = 0; parent[at] != kNoParent && at != root; ++steps) {
      if (steps > n) return false;
      at = parent[at];
    }
    if (parent[v] != kNoParent && at != root) return false;
  }
  return true;
}

// The parents the search must give whatever the rank and thread count (sssp/labels.hpp,
// sssp/flat_parents.hpp): the lowest steep candidate (d(u) + w == d(v), d(u) < d(v)); failing
// one, the lowest flat candidate (d(u) == d(v)) of the least level, where a vertex with a steep
// parent has level 0 and one with a flat parent one more than that parent.
std::vector<vertex_t> canonical_parents(const std::vector<Edge>& edges, const std::vector<float>& weights,
                                        const std::vector<float>& dist, vertex_t root) {
  const vertex_t n = static_cast<vertex_t>(dist.size());
  std::vector<std::vector<vertex_t>> flat_candidates(n);
  std::vector<vertex_t> parent(n, kNoParent);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    for (const auto& [u, v] : {std::pair{edges[i].u, edges[i].v}, std::pair{edges[i].v, edges[i].u}}) {
      if (u == v || v == root || std::isinf(dist[u]) || dist[u] + weights[i] != dist[v]) continue;
      if (dist[u] < dist[v]) parent[v] = parent[v] == kNoParent ? u : std::min(parent[v], u);
      else flat_candidates[v].push_back(u);
    }
  }
  parent[root] = root;
  std::vector<int> level(n, -1);
  std::vector<vertex_t> now;
  for (vertex_t v = 0; v < n; ++v)
    if (parent[v] != kNoParent) level[v] = 0, now.push_back(v);
  for (int k = 1; !now.empty(); ++k) {
    std::vector<vertex_t> next;
    for (vertex_t v = 0; v < n; ++v) {
      if (level[v] >= 0 || std::isinf(dist[v])) continue;
      for (const vertex_t u : flat_candidates[v])
        if (level[u] == k - 1) parent[v] = parent[v] == kNoParent ? u : std::min(parent[v], u);
      if (parent[v] != kNoParent) next.push_back(v);
    }
    for (const vertex_t v : next) level[v] = k;
    now.swap(next);
  }
  return parent;
}

struct TieGraph {
  const char* name;
  std::vector<Edge> edges;
  std::vector<float> weights;
  vertex_t n;
  std::vector<vertex_t> roots;
};

// Graphs whose offers tie: zero weights (the generator draws one a 2^24 tuples), -0, weights too
// small to change a distance, zero-weight cycles and all-zero weights.
std::vector<TieGraph> tie_graphs() {
  std::vector<TieGraph> graphs;
  graphs.push_back({"a zero-weight edge at the root", {{0, 1}, {1, 2}}, {0.0f, 1.0f}, 3, {1, 0, 2}});
  graphs.push_back({"-0 and 1e-50 at the root", {{0, 1}, {1, 2}, {2, 3}}, {-0.0f, 1e-30f, 0.0f}, 4, {1, 2}});
  graphs.push_back({"a zero-weight cycle", {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 2}, {4, 5}},
                    {0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.25f}, 6, {0, 1, 5, 3}});
  const KroneckerGenerator gen(9, 16, 7);
  TieGraph zeros{"all-zero weights", all_edges(gen), std::vector<float>(gen.num_edges(), 0.0f), gen.num_vertices(), {}};
  TieGraph mixed{"a third zero, a third tiny", zeros.edges, {}, gen.num_vertices(), {}};
  for (std::int64_t i = 0; i < gen.num_edges(); ++i) {
    const float w = gen.weight(i);
    mixed.weights.push_back(i % 3 == 0 ? 0.0f : i % 3 == 1 ? w * 1e-9f : w);
  }
  for (TieGraph* g : {&zeros, &mixed}) {
    for (vertex_t r : {g->edges[0].u, g->edges[5].v, g->edges[100].u}) g->roots.push_back(r);
    graphs.push_back(std::move(*g));
  }
  return graphs;
}

class SsspTies : public ::testing::TestWithParam<Setting> {};

// A tie never replaces the root's label nor closes a cycle: every search gives Dijkstra's
// distances, a tree that validates, parents that lead to the root, and the same parents for any
// rank and thread count.
TEST_P(SsspTies, GiveATreeWithDijkstrasDistances) {
  const mpi::Comm world = mpi::Comm::world();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam().threads);
  for (const TieGraph& g : tie_graphs()) {
    const SliceSource source = weighted_source_of(g.edges, g.weights, world);
    const Partition1D part(g.n, world.size(), world.rank());
    for (bool ids32 : {true, false}) {
      const Setting& s = GetParam();
      auto engine = make_delta_stepping(
          world, part, settled(SsspOptions{s.delta, s.fusion, s.heavy, s.whole, s.tail, s.prune}, part), ids32);
      engine->build(source);
      std::vector<vertex_t> parents(part.local_count());
      std::vector<float> dist(part.local_count());
      for (const vertex_t root : g.roots) {
        engine->search(root, parents, dist, nullptr);
        const std::vector<float> expect = dijkstra(g.edges, g.weights, g.n, root);
        std::vector<vertex_t> everyone(g.n, std::numeric_limits<vertex_t>::min());
        for (local_t i = 0; i < part.local_count(); ++i) {
          ASSERT_EQ(dist[i], expect[part.to_global(i)]) << g.name << ", vertex " << part.to_global(i) << ", root " << root;
          everyone[part.to_global(i)] = parents[i];
        }
        world.allreduce_inplace<vertex_t>(everyone, mpi::Op::max);
        EXPECT_TRUE(parents_form_a_tree(everyone, root)) << g.name << ", root " << root << ", ids32 " << ids32;
        EXPECT_EQ(everyone, canonical_parents(g.edges, g.weights, expect, root)) << g.name << ", root " << root;
        const ValidationResult r = validate_sssp(source, part, world, root, parents, dist);
        EXPECT_TRUE(r.ok) << g.name << ", root " << root << ": rule " << r.rule << ": " << r.message;
      }
    }
  }
  omp_set_num_threads(saved);
}

// Push and pull, with and without fusion, narrow and wide buckets, one and two threads.
INSTANTIATE_TEST_SUITE_P(Sssp, SsspTies,
                         ::testing::Values(Setting{0.1f, 1, Fusion::on, HeavyDirection::push},
                                           Setting{0.1f, 2, Fusion::off, HeavyDirection::push},
                                           Setting{0.1f, 1, Fusion::off, HeavyDirection::pull},
                                           Setting{0.01f, 2, Fusion::on, HeavyDirection::pull},
                                           Setting{0.01f, 1, Fusion::automatic, HeavyDirection::automatic, false},
                                           Setting{0.25f, 2, Fusion::automatic, HeavyDirection::automatic, true, false,
                                                   WholeRows::on}));

// A distance past the largest float is refused on every rank, never left for the validator.
// Kernel 3's rows (both id widths, one and two threads): each neighbour once, at the lightest weight
// of the tuples joining the pair, loops dropped, each row ascending by weight then id, and
// light_end at the first weight >= delta; the generator's tuples, with many copies of hub pairs.
template <class Column>
void expect_weighted_rows(const KroneckerGenerator& gen, const SliceSource& source, const mpi::Comm& world) {
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  const WeightedCsr1D<Column> csr = build_weighted_csr_1d<Column>(source, part, world, 1000);
  std::vector<std::map<vertex_t, float>> lightest(part.local_count());
  const std::vector<Edge> edges = all_edges(gen);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const float w = gen.weight(static_cast<std::int64_t>(i));
    for (const auto& [u, v] : {std::pair{edges[i].u, edges[i].v}, std::pair{edges[i].v, edges[i].u}}) {
      if (u == v || !part.owns(u)) continue;
      auto [at, fresh] = lightest[part.to_local(u)].emplace(v, w);
      if (!fresh) at->second = std::min(at->second, w);
    }
  }
  for (local_t i = 0; i < part.local_count(); ++i) {
    std::vector<std::pair<float, vertex_t>> expect;
    for (const auto& [v, w] : lightest[i]) expect.push_back({w, v});
    std::sort(expect.begin(), expect.end());
    std::vector<std::pair<float, vertex_t>> got;
    for (edge_count_t k = csr.offsets[i]; k < csr.offsets[i + 1]; ++k)
      got.push_back({csr.weight(k), static_cast<vertex_t>(csr.column(k))});
    ASSERT_EQ(got, expect) << "row " << part.to_global(i);
    for (const float delta : {0.0f, 0.05f, 0.5f, 2.0f}) {
      const auto heavy = std::lower_bound(expect.begin(), expect.end(), std::pair{delta, vertex_t{-1}});
      EXPECT_EQ(csr.light_end(i, delta) - csr.offsets[i], heavy - expect.begin()) << "row " << part.to_global(i);
    }
  }
}

TEST(WeightedRows, HoldEachNeighbourOnceAtItsLightestWeight) {
  const mpi::Comm world = mpi::Comm::world();
  const int saved = omp_get_max_threads();
  const KroneckerGenerator gen(10, 16, 7);
  std::vector<float> weights(gen.num_edges());
  for (std::int64_t i = 0; i < gen.num_edges(); ++i) weights[i] = gen.weight(i);
  const SliceSource source = weighted_source_of(all_edges(gen), weights, world);
  for (const int threads : {1, 2}) {
    omp_set_num_threads(threads);
    expect_weighted_rows<std::uint32_t>(gen, source, world);
    expect_weighted_rows<vertex_t>(gen, source, world);
  }
  omp_set_num_threads(saved);
}

TEST(SsspOverflow, IsAnErrorOnEveryRank) {
  const mpi::Comm world = mpi::Comm::world();
  const SliceSource source = weighted_source_of({{0, 1}, {1, 2}, {2, 3}}, {2e38f, 2e38f, 1.0f}, world);
  const Partition1D part(4, world.size(), world.rank());
  for (bool ids32 : {true, false}) {
    auto engine = make_delta_stepping(world, part, settled(SsspOptions{}, part), ids32);
    engine->build(source);
    std::vector<vertex_t> parents(part.local_count());
    std::vector<float> dist(part.local_count());
    EXPECT_THROW(engine->search(0, parents, dist, nullptr), UserError);
    EXPECT_NO_THROW(engine->search(1, parents, dist, nullptr));  // no path from 1 sums past 2e38 + 1
  }
}

// Each way of breaking a correct result is caught, with the rule it breaks, on every rank alike.
TEST(SsspValidator, CatchesBrokenResults) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(9, 16, 3);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  auto engine = make_delta_stepping(world, part, settled(SsspOptions{}, part), true);
  engine->build(source);
  const vertex_t root = choose_roots(connected_vertices(source, part, world), part, world, 1, 1).front();
  std::vector<vertex_t> parents(part.local_count());
  std::vector<float> dist(part.local_count());
  engine->search(root, parents, dist, nullptr);
  ASSERT_TRUE(validate_sssp(source, part, world, root, parents, dist).ok);
  // A reached vertex other than the root, on the rank that owns the lowest such vertex.
  vertex_t victim = -1;
  for (local_t i = 0; i < part.local_count() && victim < 0; ++i)
    if (parents[i] != kNoParent && part.to_global(i) != root) victim = part.to_global(i);
  victim = world.allreduce(victim < 0 ? std::numeric_limits<vertex_t>::max() : victim, mpi::Op::min);
  struct Fault {
    const char* name;
    int rule;
    void (*apply)(vertex_t& parent, float& dist, vertex_t root);  // on the victim's entry
  };
  const Fault faults[] = {
      {"longer distance", 3, [](vertex_t&, float& d, vertex_t) { d += 1.5f; }},
      {"parent not a neighbour", 5, [](vertex_t& p, float&, vertex_t) { p = (p + 1) % 512; }},
      {"unreached", 4, [](vertex_t& p, float& d, vertex_t) { p = kNoParent, d = std::numeric_limits<float>::infinity(); }},
      {"parent out of range", 1, [](vertex_t& p, float&, vertex_t) { p = 1 << 20; }},
      {"parent without distance", 1, [](vertex_t&, float& d, vertex_t) { d = std::numeric_limits<float>::infinity(); }},
  };
  for (const Fault& fault : faults) {
    std::vector<vertex_t> p = parents;
    std::vector<float> d = dist;
    if (part.owns(victim)) fault.apply(p[part.to_local(victim)], d[part.to_local(victim)], root);
    const ValidationResult r = validate_sssp(source, part, world, root, p, d);
    EXPECT_FALSE(r.ok) << fault.name;
    EXPECT_EQ(r.rule, fault.rule) << fault.name << ": " << r.message;
  }
  // The root's own entry.
  std::vector<float> d = dist;
  if (part.owns(root)) d[part.to_local(root)] = 0.25f;
  const ValidationResult r = validate_sssp(source, part, world, root, parents, d);
  EXPECT_EQ(r.rule, 1) << r.message;
}

// A batch shares one pass over the tuples: each search gets the result it gets alone, a broken one
// (rule 3 or 5 in the scan, rule 1 before it) among valid ones included, and the batch is reusable.
TEST(SsspValidator, BatchGivesEachSearchItsOwnResult) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(9, 16, 4);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  auto engine = make_delta_stepping(world, part, settled(SsspOptions{}, part), true);
  engine->build(source);
  const std::vector<vertex_t> roots = choose_roots(connected_vertices(source, part, world), part, world, 5, 2);
  ASSERT_EQ(roots.size(), 5u);
  std::vector<std::vector<vertex_t>> parents(roots.size(), std::vector<vertex_t>(part.local_count()));
  std::vector<std::vector<float>> dist(roots.size(), std::vector<float>(part.local_count()));
  std::vector<std::int64_t> alone;
  for (std::size_t k = 0; k < roots.size(); ++k) {
    engine->search(roots[k], parents[k], dist[k], nullptr);
    const ValidationResult r = validate_sssp(source, part, world, roots[k], parents[k], dist[k]);
    ASSERT_TRUE(r.ok) << r.message;
    alone.push_back(r.nedge);
  }
  // Search 1: a reached vertex's distance too long (rule 3); search 2: its parent not a neighbour
  // (rule 5); search 3: the root's distance (rule 1).
  const auto first_reached = [&](std::size_t k) {
    vertex_t v = std::numeric_limits<vertex_t>::max();
    for (local_t i = 0; i < part.local_count(); ++i)
      if (parents[k][i] != kNoParent && part.to_global(i) != roots[k]) v = std::min(v, part.to_global(i));
    return world.allreduce(v, mpi::Op::min);
  };
  const vertex_t victim = first_reached(1);
  if (part.owns(victim)) dist[1][part.to_local(victim)] += 1.5f;
  const vertex_t orphan = first_reached(2);
  if (part.owns(orphan)) parents[2][part.to_local(orphan)] = (parents[2][part.to_local(orphan)] + 1) % 512;
  if (part.owns(roots[3])) dist[3][part.to_local(roots[3])] = 0.5f;
  SsspBatchValidator batch(source, part, world, 5);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k + 1 < roots.size(); ++k) batch.wait(roots[k], parents[k], dist[k]);
    const std::vector<ValidationResult> results = batch.check(roots.back(), parents.back(), dist.back());
    ASSERT_EQ(results.size(), roots.size());
    for (std::size_t k : {0u, 4u}) {
      EXPECT_TRUE(results[k].ok) << "search " << k << ": " << results[k].message;
      EXPECT_EQ(results[k].nedge, alone[k]) << "search " << k;
    }
    EXPECT_EQ(results[1].rule, 3) << results[1].message;
    EXPECT_EQ(results[2].rule, 5) << results[2].message;
    EXPECT_EQ(results[3].rule, 1) << results[3].message;
  }
}

}  // namespace
}  // namespace g500
