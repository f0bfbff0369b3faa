#pragma once
// Visits every tuple of this rank's share of the edge source together with what the owners of its
// two endpoints answer about them. Rounds of at most `chunk` tuples bound the buffers (the source
// makes or reads each round again); every rank runs the same number.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// What the owner of `vertex` is asked about one endpoint of a tuple.
struct EndpointQuestion {
  vertex_t vertex;
  vertex_t other;  // the tuple's other endpoint
};

// answer(EndpointQuestion) -> Reply runs on the owner, prefetch(local index) a few questions
// ahead of it; visit(thread, const Edge&, Reply of u, Reply of v) runs on the rank that read the tuple. All run
// on many threads at once.
template <class Reply, class Answer, class Prefetch, class Visit>
void scan_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, std::int64_t chunk,
                 Answer&& answer, Prefetch&& prefetch, Visit&& visit) {
  exchange::OwnerQuery<EndpointQuestion, Reply, Partition1D> query(comm, part);
  std::vector<EndpointQuestion> questions;
  std::vector<Reply> replies;
  for_each_round(source, comm, chunk, [&](std::int64_t, std::span<const Edge> edges) {
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
    questions.resize(2 * n);
    replies.resize(questions.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const Edge e = edges[i];
      questions[2 * i] = {e.u, e.v};
      questions[2 * i + 1] = {e.v, e.u};
    }
    query.ask(questions, replies, [](const EndpointQuestion& q) { return q.vertex; }, answer, prefetch);
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) visit(t, edges[i], replies[2 * i], replies[2 * i + 1]);
    }
  });
}

}  // namespace g500
