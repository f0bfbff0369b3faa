#pragma once
// Visits every tuple of the edge slice together with what the owners of its two endpoints answer
// about them. Rounds of at most `chunk` tuples bound the buffers; every rank runs the same number.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_slice.hpp"

namespace g500 {

// What the owner of `vertex` is asked about one endpoint of a tuple.
struct EndpointQuestion {
  vertex_t vertex;
  vertex_t other;  // the tuple's other endpoint
};

// answer(EndpointQuestion) -> Reply runs on the owner, prefetch(local index) a few questions
// ahead of it; visit(thread, const Edge&, Reply of u, Reply of v) runs on the slice's rank. All run
// on many threads at once.
template <class Reply, class Answer, class Prefetch, class Visit>
void scan_tuples(const EdgeSlice& slice, const Partition1D& part, const mpi::Comm& comm, std::int64_t chunk,
                 Answer&& answer, Prefetch&& prefetch, Visit&& visit) {
  const std::int64_t n = static_cast<std::int64_t>(slice.edges.size());
  exchange::OwnerQuery<EndpointQuestion, Reply, Partition1D> query(comm, part);
  std::vector<EndpointQuestion> questions;
  std::vector<Reply> replies;
  exchange::in_rounds(comm, n, chunk, [&](std::int64_t first, std::int64_t last) {
    questions.resize(2 * (last - first));
    replies.resize(questions.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = first; i < last; ++i) {
      const Edge e = slice.edges[i];
      questions[2 * (i - first)] = {e.u, e.v};
      questions[2 * (i - first) + 1] = {e.v, e.u};
    }
    query.ask(questions, replies, [](const EndpointQuestion& q) { return q.vertex; }, answer, prefetch);
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = first; i < last; ++i) {
        visit(t, slice.edges[i], replies[2 * (i - first)], replies[2 * (i - first) + 1]);
      }
    }
  });
}

}  // namespace g500
