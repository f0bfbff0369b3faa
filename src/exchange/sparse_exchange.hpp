#pragma once
// A personalized exchange whose cost follows the ranks that have items, not the number of ranks:
// the non-blocking consensus of Hoefler, Siebert and Lumsdaine ("Scalable communication protocols
// for dynamic sparse data exchange", PPoPP 2010). Each destination's items go in a synchronous-mode
// send; a rank takes whatever arrives while its sends are outstanding, enters a non-blocking
// barrier once all of them have been matched, and keeps taking messages until the barrier
// completes. No rank learns, sends or loops over anything for the ranks it exchanges nothing with,
// where an alltoallv first tells every rank every count (O(P) a round on every rank).
#include <algorithm>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "core/big_vector.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

// What goes to one rank: items [first, first + count) of the send buffer.
struct SparsePart {
  int rank = 0;
  std::int64_t first = 0;
  std::int64_t count = 0;
};

template <class T>
class SparseExchange {
 public:
  // Its messages travel on a communicator of their own, so no other receive of the program (one
  // from any source, any tag) can take them, and a probed message is the one received next.
  // Collective over comm.
  explicit SparseExchange(const mpi::Comm& comm) : comm_(comm.dup()) {}

  int rank() const { return comm_.rank(); }

  // Sends send[p.first, p.first + p.count) to p.rank for each part (none to this rank; each rank
  // at most once), and appends what the others sent this one to `received`, by source rank.
  // Collective over the ranks, each of which calls it the same number of times.
  void exchange(const T* send, std::span<const SparsePart> parts, big_vector<T>& received) {
    if (comm_.size() == 1) return;
    // A rank is at most one exchange ahead of any other (it cannot leave exchange k + 1 before all
    // have entered it), so two tags, taken in turn, keep consecutive exchanges apart.
    const int tag = 1 + static_cast<int>(round_++ & 1);
    post_sends(send, parts, tag);
    inbox_.clear();
    arrivals_.clear();
    mpi::Request barrier;
    bool in_barrier = false;
    for (;;) {
      mpi::Probed m;
      bool progressed = false;
      if (comm_.iprobe<T>(tag, m)) {
        progressed = true;
        const std::size_t at = inbox_.size();
        inbox_.resize(at + static_cast<std::size_t>(m.items));
        comm_.recv(m, inbox_.data() + at);
        arrivals_.push_back({m.source, static_cast<std::int64_t>(at), m.items});
      } else if (!in_barrier) {
        if (all_matched()) {
          comm_.ibarrier(barrier);
          in_barrier = progressed = true;
        }
      } else if (barrier.test()) {
        break;
      }
      // Nothing to do yet: let a rank that shares this core run (as MPI's own waits do when
      // oversubscribed); with a core a rank this returns at once.
      if (!progressed) std::this_thread::yield();
    }
    // By source rank (a source's messages stay in the order sent: MPI does not reorder them).
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [](const Arrival& a, const Arrival& b) { return a.source < b.source; });
    std::size_t out = received.size();
    received.resize(out + inbox_.size());
    for (const Arrival& a : arrivals_) {
      std::copy_n(inbox_.data() + a.at, a.items, received.data() + out);
      out += static_cast<std::size_t>(a.items);
    }
  }

 private:
  struct Arrival {
    int source;
    std::int64_t at, items;  // in inbox_
  };

  // One synchronous send a part, or several where a part passes what one MPI call moves.
  void post_sends(const T* send, std::span<const SparsePart> parts, int tag) {
    const std::int64_t limit = mpi::detail::count_limit();
    sends_.clear();
    for (const SparsePart& p : parts)
      for (std::int64_t at = 0; at < p.count; at += limit) {
        sends_.emplace_back();
        const std::int64_t n = std::min(limit, p.count - at);
        comm_.issend(std::span<const T>(send + p.first + at, static_cast<std::size_t>(n)), p.rank, tag, sends_.back());
      }
    pending_ = sends_.size();
  }
  // Whether every send has been matched by its receiver (tested from the last one not yet seen).
  bool all_matched() {
    while (pending_ > 0 && sends_[pending_ - 1].test()) --pending_;
    return pending_ == 0;
  }

  mpi::Comm comm_;
  std::uint64_t round_ = 0;
  std::vector<mpi::Request> sends_;
  std::size_t pending_ = 0;  // sends_[0, pending_) may still be unmatched
  big_vector<T> inbox_;      // messages as they arrived
  std::vector<Arrival> arrivals_;
};

}  // namespace g500::exchange
