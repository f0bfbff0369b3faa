#pragma once
// Bulk all-to-all exchange: threads drop items into per-(thread, destination) buckets without
// locks, then one alltoallv delivers them. Used by top-down steps, graph construction and the
// validator; the buckets keep their capacity from one round to the next.
#include <omp.h>

#include <cstdint>
#include <vector>

#include "mpi/comm.hpp"

namespace g500::exchange {

template <class T>
class OwnerBuckets {
 public:
  // `items_name` names the logical count of items sent (for the traffic counters).
  OwnerBuckets(int num_ranks, int num_threads, const char* items_name)
      : num_ranks_(num_ranks), items_name_(items_name), buckets_(static_cast<std::size_t>(num_threads) * num_ranks) {}

  int num_threads() const { return static_cast<int>(buckets_.size() / num_ranks_); }

  void push(int thread, int dest, const T& item) { bucket(thread, dest).push_back(item); }
  std::vector<T>& bucket(int thread, int dest) { return buckets_[static_cast<std::size_t>(thread) * num_ranks_ + dest]; }

  // Sends every bucket to its destination and empties them; `received` gets what this rank
  // received, grouped by source rank, in memory reused from round to round. Collective over comm.
  void exchange(const mpi::Comm& comm, std::vector<T>& received) {
    const int threads = num_threads();
    std::vector<int> send_counts(num_ranks_, 0);
    for (int t = 0; t < threads; ++t)
      for (int d = 0; d < num_ranks_; ++d) send_counts[d] += static_cast<int>(bucket(t, d).size());
    std::vector<int> displs = mpi::Comm::displacements(send_counts);
    send_.resize(static_cast<std::size_t>(displs.empty() ? 0 : displs.back() + send_counts.back()));
#pragma omp parallel for schedule(dynamic, 1)
    for (int d = 0; d < num_ranks_; ++d) {
      std::int64_t at = displs[d];
      for (int t = 0; t < threads; ++t) {
        auto& b = bucket(t, d);
        std::copy(b.begin(), b.end(), send_.begin() + at);
        at += static_cast<std::int64_t>(b.size());
        b.clear();
      }
    }
    mpi::traffic().add_logical(items_name_, static_cast<std::int64_t>(send_.size()) - send_counts[comm.rank()]);
    comm.alltoallv_into<T>(send_, send_counts, received);
  }

 private:
  int num_ranks_;
  const char* items_name_;
  std::vector<std::vector<T>> buckets_;
  std::vector<T> send_;
};

}  // namespace g500::exchange
