#pragma once
// Bulk all-to-all exchange: threads drop items into per-(thread, destination) buckets without
// locks, then one alltoallv delivers them (or two, through relay ranks). Used by top-down steps,
// graph construction and the validator; the buckets keep their capacity from one round to the next.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/big_vector.hpp"
#include "core/padded.hpp"
#include "exchange/relay_grid.hpp"
#include "exchange/sparse_exchange.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

template <class T>
class OwnerBuckets {
 public:
  // `items_name` names the logical count of items sent (for the traffic counters).
  OwnerBuckets(int num_ranks, int num_threads, const char* items_name)
      : num_ranks_(num_ranks),
        items_name_(items_name),
        buckets_(static_cast<std::size_t>(num_threads) * num_ranks),
        touched_(static_cast<std::size_t>(num_threads)) {}

  int num_threads() const { return static_cast<int>(buckets_.size() / num_ranks_); }

  void push(int thread, int dest, const T& item) {
    std::vector<T>& b = bucket(thread, dest);
    if (b.empty()) touched_[thread].value.push_back(dest);
    b.push_back(item);
  }
  std::vector<T>& bucket(int thread, int dest) {
    return buckets_[static_cast<std::size_t>(thread) * num_ranks_ + dest].value;
  }

  // Sends every bucket to its destination and empties them; `received` gets what this rank
  // received, grouped by source rank, in memory reused from round to round. Collective over comm.
  // This rank's own items skip MPI: they are copied from the buckets straight to their place in
  // `received`, in parallel (one rank with many threads sends nothing else).
  template <class Vector>
  void exchange(const mpi::Comm& comm, Vector& received) {
    const int me = comm.rank();
    mpi::Counts send_counts = totals();
    const std::int64_t own = send_counts[me];
    send_counts[me] = 0;
    mpi::Counts recv_counts = comm.alltoall_counts(send_counts);
    recv_counts[me] = own;
    const mpi::Counts send_displs = mpi::Comm::displacements(send_counts);
    const mpi::Counts recv_displs = mpi::Comm::displacements(recv_counts);
    resize_for_overwrite(send_, static_cast<std::size_t>(send_displs.back() + send_counts.back()));
    resize_for_overwrite(received, static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
    mpi::traffic().add_logical(items_name_, static_cast<std::int64_t>(send_.size()));
    empty_buckets_into([&](int d) { return d == me ? received.data() + recv_displs[me] : send_.data() + send_displs[d]; });
    recv_counts[me] = 0;
    comm.alltoallv_displaced<T>(send_.data(), send_counts, send_displs, received.data(), recv_counts, recv_displs);
  }

  // exchange(), for items queued by push() only, without the alltoall of counts: each destination
  // with items gets one message (exchange/sparse_exchange.hpp), and nothing here or in MPI loops
  // over the ranks without items. `received` gets this rank's own items first, then the others'
  // by source rank. Collective over the sparse exchange's ranks.
  void exchange_sparse(SparseExchange<T>& sparse, big_vector<T>& received) {
    const int me = sparse.rank();
    // The buckets with items, by destination then thread; each one's place among the items that
    // leave (or, for this rank's own, among those).
    full_.clear();
    for (int t = 0; t < num_threads(); ++t) {
      for (const int d : touched_[t].value)
        full_.push_back({static_cast<std::size_t>(t) * num_ranks_ + static_cast<std::size_t>(d), 0});
      touched_[t].value.clear();
    }
    const auto dest_of = [&](const FullBucket& f) { return static_cast<int>(f.bucket % num_ranks_); };
    // A destination's buckets side by side, by thread (one thread lists each destination once, and
    // the parts may go in any order).
    if (num_threads() > 1) {
      std::sort(full_.begin(), full_.end(), [&](const FullBucket& a, const FullBucket& b) {
        return dest_of(a) != dest_of(b) ? dest_of(a) < dest_of(b) : a.bucket < b.bucket;
      });
    }
    parts_.clear();
    std::int64_t leaving = 0, own = 0;
    for (FullBucket& f : full_) {
      const int d = dest_of(f);
      const auto n = static_cast<std::int64_t>(buckets_[f.bucket].value.size());
      std::int64_t& total = d == me ? own : leaving;
      f.at = total;
      total += n;
      if (d == me) continue;
      if (parts_.empty() || parts_.back().rank != d) parts_.push_back({d, f.at, 0});
      parts_.back().count += n;
    }
    resize_for_overwrite(send_, static_cast<std::size_t>(leaving));
    resize_for_overwrite(received, static_cast<std::size_t>(own));
    mpi::traffic().add_logical(items_name_, leaving);
    empty_buckets_into([&](int d) { return d == me ? received.data() : send_.data(); });
    sparse.exchange(send_.data(), parts_, received);
  }

  // Frees the capacity the buckets and send buffers keep from round to round.
  void release() {
    for (auto& b : buckets_) release_storage(b.value);
    release_storage(send_);
    release_storage(relayed_);
  }

  // exchange(), but each item travels through the relay rank in its destination's row and this
  // rank's column (exchange/relay_grid.hpp); dest_of(item) names the destination rank again at the
  // relay. `received` is grouped by relay. Collective over comm, whose ranks the grid arranges.
  template <class DestOf>
  void exchange_relayed(const mpi::Comm& comm, const RelayGrid& grid, std::vector<T>& received, DestOf&& dest_of) {
    const mpi::Counts send_counts = pack();
    mpi::traffic().add_logical(items_name_, static_cast<std::int64_t>(send_.size()) - send_counts[comm.rank()]);
    // Stage one: rows are runs of consecutive ranks, so what goes to row i is one run of send_.
    mpi::Counts to_row(grid.rows(), 0);
    for (int d = 0; d < num_ranks_; ++d) to_row[grid.row_of(d)] += send_counts[d];
    mpi::traffic().add_logical("relay.stage_one_bytes", bytes_of(send_.size() - to_row[grid.row_of(comm.rank())]));
    grid.column().alltoallv_into<T>(send_, to_row, relayed_);
    // Stage two: the relay sorts what its column sent by destination column.
    mpi::Counts to_col(grid.cols(), 0);
    for (const T& item : relayed_) ++to_col[grid.col_of(dest_of(item))];
    mpi::Counts at = mpi::Comm::displacements(to_col);
    resize_for_overwrite(send_, relayed_.size());
    for (const T& item : relayed_) send_[at[grid.col_of(dest_of(item))]++] = item;
    mpi::traffic().add_logical("relay.stage_two_bytes", bytes_of(send_.size() - to_col[grid.col_of(comm.rank())]));
    grid.row().alltoallv_into<T>(send_, to_col, received);
  }

 private:
  static std::int64_t bytes_of(std::size_t items) { return static_cast<std::int64_t>(items * sizeof(T)); }

  // Items per destination rank, over all threads' buckets; the buckets with items, with where
  // each one's go among its destination's (after the threads before it), into full_.
  mpi::Counts totals() {
    mpi::Counts counts(num_ranks_, 0);
    full_.clear();
    for (auto& t : touched_) t.value.clear();
    for (int t = 0; t < num_threads(); ++t)
      for (int d = 0; d < num_ranks_; ++d) {
        const std::int64_t n = static_cast<std::int64_t>(bucket(t, d).size());
        if (n == 0) continue;
        full_.push_back({static_cast<std::size_t>(t) * num_ranks_ + static_cast<std::size_t>(d), counts[d]});
        counts[d] += n;
      }
    return counts;
  }

  // Copies each bucket with items (totals() listed them) to start_of(its destination) + its place,
  // a bucket per task, and empties it. Empty buckets cost nothing here: a round that reaches few
  // ranks does no work for the others.
  template <class StartOf>
  void empty_buckets_into(StartOf&& start_of) {
    const std::int64_t tasks = static_cast<std::int64_t>(full_.size());
    const auto copy = [&](std::int64_t k) {
      std::vector<T>& b = buckets_[full_[k].bucket].value;
      std::copy(b.begin(), b.end(), start_of(static_cast<int>(full_[k].bucket % num_ranks_)) + full_[k].at);
      b.clear();
    };
    if (tasks <= 1 || omp_get_max_threads() == 1) {  // no team to start
      for (std::int64_t k = 0; k < tasks; ++k) copy(k);
      return;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t k = 0; k < tasks; ++k) copy(k);
  }

  // Every bucket into send_, by destination rank, emptying the buckets; returns the count per rank.
  mpi::Counts pack() {
    const mpi::Counts send_counts = totals();
    const mpi::Counts displs = mpi::Comm::displacements(send_counts);
    resize_for_overwrite(send_, static_cast<std::size_t>(displs.back() + send_counts.back()));
    empty_buckets_into([&](int d) { return send_.data() + displs[d]; });
    return send_counts;
  }

  int num_ranks_;
  const char* items_name_;
  std::vector<Padded<std::vector<T>>> buckets_;  // a line each: threads push side by side
  std::vector<T> send_, relayed_;
  struct FullBucket {
    std::size_t bucket;  // thread * ranks + destination
    std::int64_t at;     // among its destination's items
  };
  std::vector<FullBucket> full_;
  // Each thread's destinations whose bucket push() found empty since the last exchange.
  std::vector<Padded<std::vector<int>>> touched_;
  std::vector<SparsePart> parts_;
};

}  // namespace g500::exchange
