#pragma once
// Bulk all-to-all exchange: threads drop items into per-(thread, destination) buckets without
// locks, then one alltoallv delivers them (or two, through relay ranks). Used by top-down steps,
// graph construction and the validator; the buckets keep their capacity from one round to the next.
#include <omp.h>

#include <cstdint>
#include <vector>

#include "exchange/relay_grid.hpp"
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
    const std::vector<int> send_counts = pack();
    mpi::traffic().add_logical(items_name_, static_cast<std::int64_t>(send_.size()) - send_counts[comm.rank()]);
    comm.alltoallv_into<T>(send_, send_counts, received);
  }

  // exchange(), but each item travels through the relay rank in its destination's row and this
  // rank's column (exchange/relay_grid.hpp); dest_of(item) names the destination rank again at the
  // relay. `received` is grouped by relay. Collective over comm, whose ranks the grid arranges.
  template <class DestOf>
  void exchange_relayed(const mpi::Comm& comm, const RelayGrid& grid, std::vector<T>& received, DestOf&& dest_of) {
    const std::vector<int> send_counts = pack();
    mpi::traffic().add_logical(items_name_, static_cast<std::int64_t>(send_.size()) - send_counts[comm.rank()]);
    // Stage one: rows are runs of consecutive ranks, so what goes to row i is one run of send_.
    std::vector<int> to_row(grid.rows(), 0);
    for (int d = 0; d < num_ranks_; ++d) to_row[grid.row_of(d)] += send_counts[d];
    mpi::traffic().add_logical("relay.stage_one_bytes", bytes_of(send_.size() - to_row[grid.row_of(comm.rank())]));
    grid.column().alltoallv_into<T>(send_, to_row, relayed_);
    // Stage two: the relay sorts what its column sent by destination column.
    std::vector<int> to_col(grid.cols(), 0);
    for (const T& item : relayed_) ++to_col[grid.col_of(dest_of(item))];
    std::vector<int> at = mpi::Comm::displacements(to_col);
    send_.resize(relayed_.size());
    for (const T& item : relayed_) send_[at[grid.col_of(dest_of(item))]++] = item;
    mpi::traffic().add_logical("relay.stage_two_bytes", bytes_of(send_.size() - to_col[grid.col_of(comm.rank())]));
    grid.row().alltoallv_into<T>(send_, to_col, received);
  }

 private:
  static std::int64_t bytes_of(std::size_t items) { return static_cast<std::int64_t>(items * sizeof(T)); }

  // Every bucket into send_, by destination rank, emptying the buckets; returns the count per rank.
  std::vector<int> pack() {
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
    return send_counts;
  }

  int num_ranks_;
  const char* items_name_;
  std::vector<std::vector<T>> buckets_;
  std::vector<T> send_, relayed_;
};

}  // namespace g500::exchange
