#pragma once
// Remote lookups by owner: each rank sends questions about vertices to their owners and gets the
// answers back in the order it asked. Two alltoallv rounds (questions, then answers).
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "graph/partition_1d.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

// vertex_of(question) names the vertex a question is about; answer(question) runs on its owner,
// possibly on many threads at once.
template <class Reply, class Question, class VertexOf, class Answer>
std::vector<Reply> query_owners(const mpi::Comm& comm, const Partition1D& part, const std::vector<Question>& questions,
                                VertexOf&& vertex_of, Answer&& answer) {
  const int p = comm.size();
  const std::size_t n = questions.size();
  std::vector<int> counts(p, 0);
  std::vector<int> dest(n);
  for (std::size_t i = 0; i < n; ++i) {
    dest[i] = part.owner(vertex_of(questions[i]));
    ++counts[dest[i]];
  }
  std::vector<int> next = mpi::Comm::displacements(counts);
  std::vector<std::int64_t> slot(n);
  std::vector<Question> ordered(n);
  for (std::size_t i = 0; i < n; ++i) {
    slot[i] = next[dest[i]]++;
    ordered[slot[i]] = questions[i];
  }
  std::vector<int> recv_counts;
  const std::vector<Question> asked = comm.alltoallv<Question>(ordered, counts, recv_counts);
  std::vector<Reply> answers(asked.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < asked.size(); ++i) answers[i] = answer(asked[i]);
  std::vector<int> back_counts;
  const std::vector<Reply> replies = comm.alltoallv<Reply>(answers, recv_counts, back_counts);
  std::vector<Reply> out(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) out[i] = replies[slot[i]];
  return out;
}

}  // namespace g500::exchange
