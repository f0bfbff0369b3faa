#pragma once
// Arcs to their owners: every non-loop tuple (u, v) of the edge source becomes the arcs u->v and
// v->u, each delivered to the owner of its first end, round by round. Kernel 1 (row sizes, then
// rows) and the root scan (which vertices have an edge) read the source this way.
#include <omp.h>

#include <span>
#include <vector>

#include "exchange/owner_buckets.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// Collective. Sends every non-loop tuple's two arcs (row, to) to the owners of the rows as
// make_item(row, to), a rank's own arcs included (the exchange copies them in place), and hands each
// rank the arcs of its rows, one round at a time: deliver(span of items). `name` names the logical
// count of the items sent.
template <class Item, class MakeItem, class Deliver>
void route_arcs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, std::int64_t round,
                const char* name, MakeItem&& make_item, Deliver&& deliver) {
  exchange::OwnerBuckets<Item> outgoing(comm.size(), omp_get_max_threads(), name);
  std::vector<Item> arrived;
  for_each_round(source, comm, round, [&](std::int64_t, std::span<const Edge> edges) {
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        const Edge e = edges[i];
        if (e.u == e.v) continue;
        outgoing.push(t, part.owner(e.u), make_item(e.u, e.v));
        outgoing.push(t, part.owner(e.v), make_item(e.v, e.u));
      }
    }
    outgoing.exchange(comm, arrived);
    deliver(std::span<const Item>(arrived));
  });
}

}  // namespace g500
