#pragma once
// Arcs to the ranks that store them: every non-loop tuple (u, v) of the edge source becomes the arcs
// u->v and v->u, each delivered to its rank (in 1D the owner of its first end), round by round.
// Kernel 1 (row sizes, then rows) and the root scan (which vertices have an edge) read the source
// this way.
#include <omp.h>

#include <span>
#include <type_traits>
#include <vector>

#include "exchange/owner_buckets.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// Collective. Sends every non-loop tuple's two arcs (row, to) to rank dest_of(row, to) as
// make_item(row, to), a rank's own arcs included (the exchange copies them in place), and hands each
// rank the arcs sent to it, one round at a time: deliver(span of items). `name` names the logical
// count of the items sent.
// A make_item(row, to, weight) reads the source's weights too (kernel 3's rows).
template <class Item, class DestOf, class MakeItem, class Deliver>
void route_arcs_to(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, const char* name,
                   DestOf&& dest_of, MakeItem&& make_item, Deliver&& deliver) {
  constexpr bool weighted = std::is_invocable_v<MakeItem, vertex_t, vertex_t, float>;
  exchange::OwnerBuckets<Item> outgoing(comm.size(), omp_get_max_threads(), name);
  std::vector<Item> arrived;
  if constexpr (weighted) {
    const auto visit = [&](std::int64_t, std::span<const Edge> edges, std::span<const float> weights) {
      const std::int64_t n = static_cast<std::int64_t>(edges.size());
#pragma omp parallel
      {
        const int t = omp_get_thread_num();
#pragma omp for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
          const Edge e = edges[i];
          if (e.u == e.v) continue;
          outgoing.push(t, dest_of(e.u, e.v), make_item(e.u, e.v, weights[i]));
          outgoing.push(t, dest_of(e.v, e.u), make_item(e.v, e.u, weights[i]));
        }
      }
      outgoing.exchange(comm, arrived);
      deliver(std::span<const Item>(arrived));
    };
    for_each_weighted_round(source, comm, round, visit);
  } else {
    // Each piece pushed while it is still in cache, where the thread made it.
    scan_in_pieces(
        source, comm, round,
        [&](int t, std::span<const Edge> edges) {
          for (const Edge& e : edges) {
            if (e.u == e.v) continue;
            outgoing.push(t, dest_of(e.u, e.v), make_item(e.u, e.v));
            outgoing.push(t, dest_of(e.v, e.u), make_item(e.v, e.u));
          }
        },
        [&] {
          outgoing.exchange(comm, arrived);
          deliver(std::span<const Item>(arrived));
        });
  }
}

// The arcs of each rank's own 1D rows: route_arcs_to the owner of the row.
template <class Item, class MakeItem, class Deliver>
void route_arcs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, std::int64_t round,
                const char* name, MakeItem&& make_item, Deliver&& deliver) {
  route_arcs_to<Item>(
      source, comm, round, name, [&](vertex_t row, vertex_t) { return part.owner(row); }, make_item, deliver);
}

}  // namespace g500
