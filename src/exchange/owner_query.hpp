#pragma once
// Remote lookups by owner: each rank asks the owners of some vertices a question and gets the
// answers back in the order it asked. Questions about this rank's own vertices are answered on the
// spot; the rest take two alltoallv rounds (questions, then answers). Buffers are kept from one
// call to the next, so repeated rounds do not pay for fresh memory.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "partition/vertex_partition.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

// For ask(): no prefetching.
struct NoPrefetch {
  void operator()(local_t) const {}
};

template <class Question, class Reply, VertexPartition Partition>
class OwnerQuery {
 public:
  OwnerQuery(const mpi::Comm& comm, const Partition& part) : comm_(comm), part_(part) {}

  // Frees the capacity its buffers keep from one ask to the next.
  void release() {
    release_storage(dest_);
    release_storage(slot_);
    release_storage(ordered_);
    release_storage(asked_);
    release_storage(answers_);
    release_storage(back_);
    release_storage(round_replies_);
  }

  // replies[i] = answer(questions[i]) as computed by the owner of vertex_of(questions[i]).
  // answer runs on many threads at once. Answers are random accesses into per-vertex arrays, so
  // prefetch(local index) is called a few questions ahead to overlap their cache misses. Collective.
  template <class VertexOf, class Answer, class Prefetch = NoPrefetch>
  void ask(std::span<const Question> questions, std::span<Reply> replies, VertexOf&& vertex_of, Answer&& answer,
           Prefetch&& prefetch = {}) {
    const int p = comm_.size(), me = comm_.rank();
    const std::int64_t n = static_cast<std::int64_t>(questions.size());
    const int threads = omp_get_max_threads();
    dest_.resize(n);
    slot_.resize(n);
    counts_.assign(static_cast<std::size_t>(threads) * p, 0);
#pragma omp parallel num_threads(threads)
    {
      // The runtime may grant fewer threads than asked: split by the team actually running.
      const int t = omp_get_thread_num(), team = omp_get_num_threads();
      const std::int64_t first = n * t / team, last = n * (t + 1) / team;
      std::int64_t* count = counts_.data() + static_cast<std::size_t>(t) * p;
      for (std::int64_t i = first; i < last; ++i) {
        if (i + kPrefetchDistance < last) {
          const vertex_t ahead = vertex_of(questions[i + kPrefetchDistance]);
          if (part_.owns(ahead)) prefetch(part_.to_local(ahead));
        }
        const int owner = part_.owner(vertex_of(questions[i]));
        dest_[i] = owner;
        if (owner == me) replies[i] = answer(questions[i]);
        else ++count[owner];
      }
#pragma omp barrier
#pragma omp single
      {
        // counts_[t][d] becomes the position where thread t's questions for d start.
        send_counts_.assign(p, 0);
        std::int64_t at = 0;
        for (int d = 0; d < p; ++d) {
          for (int u = 0; u < team; ++u) {
            const std::int64_t c = counts_[static_cast<std::size_t>(u) * p + d];
            counts_[static_cast<std::size_t>(u) * p + d] = at;
            at += c;
            send_counts_[d] += c;
          }
        }
        ordered_.resize(at);
      }
      for (std::int64_t i = first; i < last; ++i) {
        if (dest_[i] == me) continue;
        slot_[i] = count[dest_[i]]++;
        ordered_[slot_[i]] = questions[i];
      }
    }
    mpi::traffic().add_logical("owner_query.questions", static_cast<std::int64_t>(ordered_.size()));
    const mpi::Counts recv_counts = comm_.alltoallv_into<Question>(ordered_, send_counts_, asked_);
    const std::int64_t m = static_cast<std::int64_t>(asked_.size());
    answers_.resize(m);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kPrefetchDistance < m) prefetch(part_.to_local(vertex_of(asked_[k + kPrefetchDistance])));
      answers_[k] = answer(asked_[k]);
    }
    comm_.alltoallv_into<Reply>(answers_, recv_counts, back_);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      if (dest_[i] != me) replies[i] = back_[slot_[i]];
  }

  // ask() over `questions` in rounds of at most `round`, so that the buffers stay bounded; each
  // rank takes part in as many rounds as the rank with the most questions. After each round,
  // take(index of its first question, its replies). Collective.
  template <class VertexOf, class Answer, class Take>
  void ask_in_rounds(std::span<const Question> questions, std::int64_t round, VertexOf&& vertex_of, Answer&& answer,
                     Take&& take) {
    const std::int64_t n = static_cast<std::int64_t>(questions.size());
    const std::int64_t rounds = comm_.allreduce<std::int64_t>((n + round - 1) / round, mpi::Op::max);
    for (std::int64_t r = 0; r < rounds; ++r) {
      const std::int64_t first = std::min(n, r * round), last = std::min(n, first + round);
      round_replies_.resize(static_cast<std::size_t>(last - first));
      ask(questions.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(last - first)),
          std::span<Reply>(round_replies_), vertex_of, answer);
      take(first, std::span<const Reply>(round_replies_));
    }
  }

 private:
  static constexpr std::int64_t kPrefetchDistance = 16;
  const mpi::Comm& comm_;
  const Partition& part_;
  std::vector<int> dest_;
  std::vector<std::int64_t> slot_;
  std::vector<std::int64_t> counts_;
  mpi::Counts send_counts_;
  std::vector<Question> ordered_, asked_;
  std::vector<Reply> answers_, back_, round_replies_;
};

}  // namespace g500::exchange
