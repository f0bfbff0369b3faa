#pragma once
// The parents of the vertices a search reached only through flat offers (sssp/labels.hpp), made
// the same for any rank and thread count. During the search such a vertex keeps the first flat
// offer that lowered it, which depends on arrival order. Here each one gets a level instead: 1 when
// some candidate parent (a neighbour u with d(u) + w == d(v)) has a steep label, else one more than
// its lowest-levelled candidate; and its parent is the lowest candidate one level down. Levels
// fall along parents, so they still form a tree. Round 0 asks the owners of the flat vertices'
// neighbours for their distances (in pieces of bounded size); each later round, the vertices just
// levelled offer themselves to their neighbours. Graphs with no flat tie never come here.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "exchange/owner_buckets.hpp"
#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"
#include "graph/weighted_csr.hpp"
#include "mpi/comm.hpp"
#include "sssp/labels.hpp"

namespace g500 {

// Round 0 of order_flat_parents, in pieces of about kRelaxRound entries: each flat vertex whose
// candidates include a steep vertex takes the lowest such as its parent. Returns those levelled.
// Collective.
template <class Column>
std::vector<local_t> level_beside_steep(const mpi::Comm& comm, const Partition1D& part, const WeightedCsr1D<Column>& csr,
                                        std::span<const local_t> flat, const Bitmap& waiting,
                                        std::span<vertex_t> parents, std::span<const float> dist) {
  std::vector<std::size_t> ends;
  exchange::piece_ends(flat.size(), [&](std::size_t i) { return csr.degree(flat[i]); }, exchange::kRelaxRound, ends);
  const std::int64_t pieces = comm.allreduce<std::int64_t>(static_cast<std::int64_t>(ends.size()), mpi::Op::max);
  exchange::OwnerQuery<Column, float, Partition1D> query(comm, part);
  std::vector<Column> asked;
  std::vector<float> told;  // the neighbour's distance, its sign bit set when it waits too
  std::vector<local_t> levelled;
  for (std::int64_t p = 0; p < pieces; ++p) {
    const auto [lo, hi] = exchange::piece_range(ends, p);
    asked.clear();
    for (std::size_t i = lo; i < hi; ++i)
      for (edge_count_t k = csr.offsets[flat[i]]; k < csr.offsets[flat[i] + 1]; ++k) asked.push_back(csr.column(k));
    told.resize(asked.size());
    query.ask(std::span<const Column>(asked), std::span<float>(told), [](Column u) { return static_cast<vertex_t>(u); },
              [&](Column u) {
                const local_t lu = part.to_local(static_cast<vertex_t>(u));
                return with_flat_bit(dist[lu], waiting.test(lu));
              });
    std::size_t at = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const local_t v = flat[i];
      vertex_t best = -1;
      for (edge_count_t k = csr.offsets[v]; k < csr.offsets[v + 1]; ++k, ++at) {
        const vertex_t u = static_cast<vertex_t>(csr.column(k));
        if (!flat_bit(told[at]) && without_flat_bit(told[at]) + csr.weight(k) == dist[v] && (best < 0 || u < best))
          best = u;
      }
      if (best >= 0) {
        parents[v] = best;
        levelled.push_back(v);
      }
    }
  }
  return levelled;
}

// Collective. `flat`: this rank's vertices whose label is flat, in ascending order; `parents` and
// `dist` as the search left them (local vertices).
template <class Column>
void order_flat_parents(const mpi::Comm& comm, const Partition1D& part, const WeightedCsr1D<Column>& csr,
                        std::span<const local_t> flat, std::span<vertex_t> parents, std::span<const float> dist) {
  Bitmap waiting(part.local_count());  // flat vertices not yet levelled
  for (const local_t v : flat) waiting.set(v);
  std::vector<local_t> levelled = level_beside_steep(comm, part, csr, flat, waiting, parents, dist);
  for (const local_t v : levelled) waiting.reset(v);

  // Later rounds: the vertices just levelled offer themselves along their flat edges; a waiting
  // vertex at the same distance takes the round's lowest offer.
  struct Offer {
    Column vertex;
    Column parent;
    float dist;
  };
  exchange::OwnerBuckets<Offer> buckets(comm.size(), 1, "sssp.flat_offers");
  std::vector<Offer> arrived;
  while (comm.allreduce<std::int64_t>(static_cast<std::int64_t>(levelled.size()), mpi::Op::sum) > 0) {
    for (const local_t u : levelled) {
      const Column parent = static_cast<Column>(part.to_global(u));
      for (edge_count_t k = csr.offsets[u]; k < csr.offsets[u + 1]; ++k) {
        if (dist[u] + csr.weight(k) != dist[u]) break;  // rows ascend by weight: no flat edge is left
        buckets.push(0, part.owner(static_cast<vertex_t>(csr.column(k))), Offer{csr.column(k), parent, dist[u]});
      }
    }
    buckets.exchange(comm, arrived);
    std::sort(arrived.begin(), arrived.end(),
              [](const Offer& a, const Offer& b) { return a.vertex != b.vertex ? a.vertex < b.vertex : a.parent < b.parent; });
    levelled.clear();
    for (const Offer& o : arrived) {
      const local_t v = part.to_local(static_cast<vertex_t>(o.vertex));
      if (!waiting.test(v) || o.dist != dist[v]) continue;
      waiting.reset(v);  // the first offer for v is its lowest
      parents[v] = static_cast<vertex_t>(o.parent);
      levelled.push_back(v);
    }
  }
}

}  // namespace g500
