#pragma once
// Bulk all-to-all exchange: threads queue items for destination ranks without locks, then one
// alltoallv delivers them (or two, through relay ranks). Used by top-down steps, graph construction,
// kernel 3 and the validator; the storage keeps its capacity from one round to the next.
//
// Two layouts, one order: a destination gets its items by thread, and each thread's in push order.
// - Per-rank buckets: a vector for each thread and destination, a cache line each, so a push is
//   one append. They cost threads x ranks lines, so they are kept while that stays small.
// - Queued: each thread appends (destination, item) to one queue, and an exchange sorts each queue
//   by destination (a stable radix sort). A rank then holds nothing for each rank but the counts
//   that MPI's alltoallv takes. At 608,256 ranks of 12 threads, buckets would take 1.8 GiB a rank.
#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/big_vector.hpp"
#include "core/padded.hpp"
#include "exchange/bucket_layout.hpp"
#include "exchange/relay_grid.hpp"
#include "exchange/sparse_exchange.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

// Items and their destinations, in destination order and otherwise as they were (a stable sort):
// least significant digits first, a pass for each digit that varies, between the pair of vectors
// and the pair aside. Leaves the sorted order in `dests` and `items`.
template <class T>
void sort_by_destination(std::vector<std::uint32_t>& dests, std::vector<T>& items,
                         std::vector<std::uint32_t>& dests_aside, std::vector<T>& items_aside) {
  constexpr int kDigitBits = 11;  // a pass's counts fit a thread's L1
  const std::size_t n = items.size();
  if (n < 2 || std::is_sorted(dests.begin(), dests.end())) return;
  const int bits = std::bit_width(*std::max_element(dests.begin(), dests.end()));
  const int passes = (bits + kDigitBits - 1) / kDigitBits;
  const int width = (bits + passes - 1) / passes;
  const std::size_t digits = std::size_t{1} << width;
  const std::uint32_t mask = static_cast<std::uint32_t>(digits - 1);
  resize_for_overwrite(dests_aside, n);
  resize_for_overwrite(items_aside, n);
  std::array<std::size_t, std::size_t{1} << kDigitBits> place;
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * width;
    std::fill(place.begin(), place.begin() + digits, 0);
    for (const std::uint32_t d : dests) ++place[(d >> shift) & mask];
    if (place[(dests[0] >> shift) & mask] == n) continue;  // one digit throughout: the order stands
    std::size_t at = 0;
    for (std::size_t k = 0; k < digits; ++k) at += std::exchange(place[k], at);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = place[(dests[i] >> shift) & mask]++;
      dests_aside[to] = dests[i];
      items_aside[to] = std::move(items[i]);
    }
    dests.swap(dests_aside);
    items.swap(items_aside);
  }
}

template <class T>
class OwnerBuckets {
 public:
  // `items_name` names the logical count of items sent (for the traffic counters).
  // `layout`: the run's choice unless a test asks for one. auto decides by the run's threads, not
  // this exchange's, so that every exchange of a run takes the layout the JSON and the memory
  // estimate name.
  OwnerBuckets(int num_ranks, int num_threads, const char* items_name, BucketLayout layout = g_bucket_layout)
      : num_ranks_(num_ranks),
        items_name_(items_name),
        queued_(queues_items(num_ranks, omp_get_max_threads(), layout)),
        buckets_(queued_ ? 0 : static_cast<std::size_t>(num_threads) * num_ranks),
        touched_(queued_ ? 0 : static_cast<std::size_t>(num_threads)),
        queues_(queued_ ? static_cast<std::size_t>(num_threads) : 0),
        threads_(num_threads) {}

  int num_threads() const { return threads_; }
  bool queued() const { return queued_; }
  // No item waits to leave.
  bool empty() const {
    for (const auto& q : queues_)
      if (!q.value.items.empty()) return false;
    for (const auto& b : buckets_)
      if (!b.value.empty()) return false;
    return true;
  }

  // The per-rank path stays small enough to inline into the loops that push; the queued one is a
  // call of its own.
  void push(int thread, int dest, const T& item) {
    if (queued_) [[unlikely]] {
      queue(thread, dest) = item;
      return;
    }
    first_touch(thread, dest).push_back(item);
  }
  // A new item for `dest`, made in place (a large item built aside and copied in stalls on its
  // own halves).
  T& add(int thread, int dest) {
    if (queued_) [[unlikely]]
      return queue(thread, dest);
    return first_touch(thread, dest).emplace_back();
  }

  // Sends every item to its destination and empties the buckets; `received` gets what this rank
  // received, grouped by source rank, in memory reused from round to round. Collective over comm.
  // This rank's own items skip MPI: they are copied straight to their place in `received`, in
  // parallel (one rank with many threads sends nothing else).
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
    copy_runs([&](int d) { return d == me ? received.data() + recv_displs[me] : send_.data() + send_displs[d]; });
    recv_counts[me] = 0;
    comm.alltoallv_displaced<T>(send_.data(), send_counts, send_displs, received.data(), recv_counts, recv_displs);
  }

  // exchange(), without the alltoall of counts: each destination with items gets one message
  // (exchange/sparse_exchange.hpp), and nothing here or in MPI loops over the ranks without items.
  // `received` gets this rank's own items first, then the others' by source rank. Collective over
  // the sparse exchange's ranks.
  void exchange_sparse(SparseExchange<T>& sparse, big_vector<T>& received) {
    const int me = sparse.rank();
    list_runs(false);
    // A destination's runs side by side, by thread (the parts may go in any order).
    if (threads_ > 1) {
      std::sort(runs_.begin(), runs_.end(),
                [](const Run& a, const Run& b) { return a.dest != b.dest ? a.dest < b.dest : a.thread < b.thread; });
    }
    parts_.clear();
    std::int64_t leaving = 0, own = 0;
    for (Run& r : runs_) {
      std::int64_t& total = r.dest == me ? own : leaving;
      r.at = total;
      total += r.count;
      if (r.dest == me) continue;
      if (parts_.empty() || parts_.back().rank != r.dest) parts_.push_back({r.dest, r.at, 0});
      parts_.back().count += r.count;
    }
    resize_for_overwrite(send_, static_cast<std::size_t>(leaving));
    resize_for_overwrite(received, static_cast<std::size_t>(own));
    mpi::traffic().add_logical(items_name_, leaving);
    copy_runs([&](int d) { return d == me ? received.data() : send_.data(); });
    sparse.exchange(send_.data(), parts_, received);
  }

  // Frees the capacity kept from round to round.
  void release() {
    for (auto& b : buckets_) release_storage(b.value);
    for (auto& q : queues_) q.value.release();
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
  // A thread's items for one destination, side by side: a bucket, or a stretch of a sorted queue.
  struct Run {
    const T* items;
    std::int64_t count;
    std::int64_t at;  // the place of its first item among its destination's
    int dest;
    int thread;
  };
  // Queued: a thread's items and their destinations in push order, and room to sort them.
  struct Queue {
    std::vector<std::uint32_t> dests, dests_aside;
    std::vector<T> items, items_aside;
    void clear() {
      dests.clear(), dests_aside.clear();
      items.clear(), items_aside.clear();
    }
    void release() {
      release_storage(dests), release_storage(dests_aside);
      release_storage(items), release_storage(items_aside);
    }
  };

  static std::int64_t bytes_of(std::size_t items) { return static_cast<std::int64_t>(items * sizeof(T)); }

  std::vector<T>& bucket(int thread, int dest) {
    return buckets_[static_cast<std::size_t>(thread) * num_ranks_ + dest].value;
  }
  // The bucket, its destination listed for the thread if the bucket was empty.
  std::vector<T>& first_touch(int thread, int dest) {
    std::vector<T>& b = bucket(thread, dest);
    if (b.empty()) touched_[thread].value.push_back(dest);
    return b;
  }
  [[gnu::noinline]] T& queue(int thread, int dest) {
    Queue& q = queues_[thread].value;
    q.dests.push_back(static_cast<std::uint32_t>(dest));
    return q.items.emplace_back();
  }

  // Items per destination rank, over all threads; each run's place among its destination's (after
  // the threads before it).
  mpi::Counts totals() {
    list_runs(true);
    mpi::Counts counts(num_ranks_, 0);
    for (Run& r : runs_) {
      r.at = counts[r.dest];
      counts[r.dest] += r.count;
    }
    return counts;
  }

  // Lists the items as runs_, by thread and, in a thread, by destination (per-rank buckets with
  // `every_rank` false: in the order the thread first reached each, with no loop over the ranks).
  void list_runs(bool every_rank) {
    runs_.clear();
    if (queued_) {
      if (threads_ > 1) {
#pragma omp parallel for schedule(dynamic, 1)
        for (int t = 0; t < threads_; ++t) sort_queue(queues_[t].value);
      } else {
        sort_queue(queues_[0].value);
      }
      for (int t = 0; t < threads_; ++t) list_queue_runs(t);
      return;
    }
    for (int t = 0; t < threads_; ++t) {
      std::vector<int>& touched = touched_[t].value;
      if (every_rank) {
        for (int d = 0; d < num_ranks_; ++d) add_bucket_run(t, d);
      } else {
        for (const int d : touched) add_bucket_run(t, d);
      }
      touched.clear();
    }
  }
  void add_bucket_run(int t, int d) {
    const std::vector<T>& b = bucket(t, d);
    if (!b.empty()) runs_.push_back({b.data(), static_cast<std::int64_t>(b.size()), 0, d, t});
  }

  static void sort_queue(Queue& q) { sort_by_destination(q.dests, q.items, q.dests_aside, q.items_aside); }
  void list_queue_runs(int t) {
    const Queue& q = queues_[t].value;
    const std::size_t n = q.items.size();
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && q.dests[j] == q.dests[i]) ++j;
      runs_.push_back({q.items.data() + i, static_cast<std::int64_t>(j - i), 0, static_cast<int>(q.dests[i]), t});
      i = j;
    }
  }

  // Copies each run to start_of(its destination) + its place, a run per task, and empties the
  // buckets or queues. Empty buckets cost nothing here: a round that reaches few ranks does no
  // work for the others.
  template <class StartOf>
  void copy_runs(StartOf&& start_of) {
    const std::int64_t tasks = static_cast<std::int64_t>(runs_.size());
    const auto copy = [&](std::int64_t k) {
      const Run& r = runs_[k];
      std::copy(r.items, r.items + r.count, start_of(r.dest) + r.at);
    };
    if (tasks <= 1 || omp_get_max_threads() == 1) {  // no team to start
      for (std::int64_t k = 0; k < tasks; ++k) copy(k);
    } else {
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t k = 0; k < tasks; ++k) copy(k);
    }
    if (queued_) {
      for (auto& q : queues_) q.value.clear();
    } else {
      for (const Run& r : runs_) bucket(r.thread, r.dest).clear();
    }
  }

  // Every item into send_, by destination rank, emptying the buckets; returns the count per rank.
  mpi::Counts pack() {
    const mpi::Counts send_counts = totals();
    const mpi::Counts displs = mpi::Comm::displacements(send_counts);
    resize_for_overwrite(send_, static_cast<std::size_t>(displs.back() + send_counts.back()));
    copy_runs([&](int d) { return send_.data() + displs[d]; });
    return send_counts;
  }

  int num_ranks_;
  const char* items_name_;
  bool queued_;
  std::vector<Padded<std::vector<T>>> buckets_;  // per-rank: thread * ranks + destination, a line each
  // Per-rank: each thread's destinations whose bucket add() found empty since the last exchange.
  std::vector<Padded<std::vector<int>>> touched_;
  std::vector<Padded<Queue>> queues_;  // queued: one a thread
  int threads_;
  std::vector<T> send_, relayed_;
  std::vector<Run> runs_;
  std::vector<SparsePart> parts_;
};

}  // namespace g500::exchange
