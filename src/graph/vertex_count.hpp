#pragma once
// Kernel 1's first step, as the spec asks: the number of vertices is found from the edges (the
// largest id + 1 over all ranks), not handed in, so a graph read from a file works the same way.
#include "core/error.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective. Throws UserError on every rank for a negative id or a list without tuples.
inline vertex_t count_vertices(const EdgeSource& source, const mpi::Comm& comm) {
  vertex_t top = -1, bottom = 0;
  for_each_round(source, comm, exchange::kBuildRound, [&](std::int64_t, std::span<const Edge> edges) {
#pragma omp parallel for reduction(max : top) reduction(min : bottom) schedule(static)
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const Edge e = edges[i];
      top = std::max(top, std::max(e.u, e.v));
      bottom = std::min(bottom, std::min(e.u, e.v));
    }
  });
  std::int64_t extremes[2] = {top, -bottom};
  comm.allreduce_inplace<std::int64_t>(extremes, mpi::Op::max);
  if (extremes[1] > 0) throw UserError("the edge list has a negative vertex id");
  if (extremes[0] < 0) throw UserError("the edge list has no tuples");
  return extremes[0] + 1;
}

}  // namespace g500
