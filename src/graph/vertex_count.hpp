#pragma once
// Kernel 1's first step, as the spec asks: the number of vertices is found from the edges (the
// largest id + 1 over all ranks), not handed in, so a graph read from a file works the same way.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/padded.hpp"
#include "graph/arc_sketch.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective. Throws UserError on every rank for a negative id or a list without tuples. With a
// sketch, also counts the arcs of each word of rows (graph/arc_sketch.hpp) for a 1D build.
inline vertex_t count_vertices(const EdgeSource& source, const mpi::Comm& comm, ArcSketch* sketch = nullptr) {
  // Per thread, each piece scanned while it is still in cache (a generator makes it on the thread).
  std::vector<Padded<vertex_t>> tops(omp_get_max_threads(), Padded<vertex_t>{-1});
  std::vector<Padded<vertex_t>> bottoms(omp_get_max_threads(), Padded<vertex_t>{0});
  if (sketch) sketch->start(omp_get_max_threads());
  scan_in_pieces(
      source, comm, exchange::kBuildRound,
      [&](int t, std::span<const Edge> edges) {
        vertex_t top = tops[t].value, bottom = bottoms[t].value;
        for (const Edge& e : edges) {
          top = std::max(top, std::max(e.u, e.v));
          bottom = std::min(bottom, std::min(e.u, e.v));
        }
        if (sketch)
          for (const Edge& e : edges)
            if (e.u != e.v) sketch->add(t, e.u, e.v);
        tops[t].value = top;
        bottoms[t].value = bottom;
      },
      [] {});
  vertex_t top = -1, bottom = 0;
  for (std::size_t t = 0; t < tops.size(); ++t) {
    top = std::max(top, tops[t].value);
    bottom = std::min(bottom, bottoms[t].value);
  }
  std::int64_t extremes[2] = {top, -bottom};
  comm.allreduce_inplace<std::int64_t>(extremes, mpi::Op::max);
  if (sketch) sketch->finish(comm);
  if (extremes[1] > 0) throw UserError("the edge list has a negative vertex id");
  if (extremes[0] < 0) throw UserError("the edge list has no tuples");
  return extremes[0] + 1;
}

}  // namespace g500
