#pragma once
// Hub replication for top-down steps (paper 002 §5, "degree aware prefetch"): every rank keeps,
// for the K highest-degree vertices, whether each is visited and whether it was reached this
// level. An edge to a visited hub is dropped on the spot; an edge to an unvisited hub becomes a
// parent candidate in a K-entry array that one allreduce (minimum) settles at the end of the level,
// and only when some rank reached a hub (the paper's "special flag" for an empty hub frontier).
// Either way no point-to-point message carries it. Hubs are chosen by degree class (the one-byte
// code of graph/degree_code.hpp): all the vertices of the highest classes that fit in K.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/id_index.hpp"
#include "core/types.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500::exchange {

// The vertices of the highest degree classes (graph/degree_code.hpp's one-byte codes) that fit in
// `limit` together, never class 0, in ascending order, on every rank. degree_code(i): the class
// of local vertex i. Collective.
template <class DegreeCode>
std::vector<vertex_t> highest_degree_vertices(const mpi::Comm& comm, const Partition1D& part, std::int64_t limit,
                                              DegreeCode&& degree_code) {
  std::vector<std::int64_t> histogram(256, 0);
  for (local_t i = 0; i < part.local_count(); ++i) ++histogram[degree_code(i)];
  comm.allreduce_inplace<std::int64_t>(histogram, mpi::Op::sum);
  // The lowest class such that it and every class above it fit in `limit`.
  int lowest = 256;
  std::int64_t taken = 0;
  while (lowest > 1 && taken + histogram[lowest - 1] <= limit) taken += histogram[--lowest];
  std::vector<vertex_t> mine;
  for (local_t i = 0; i < part.local_count(); ++i)
    if (degree_code(i) >= lowest) mine.push_back(part.to_global(i));
  const mpi::Counts counts = comm.allgather(static_cast<std::int64_t>(mine.size()));
  // Ranks own ascending blocks, so the list is sorted.
  std::vector<vertex_t> all(static_cast<std::size_t>(taken));
  comm.allgatherv<vertex_t>(mine, all.data(), counts, mpi::Comm::displacements(counts));
  return all;
}

class ReplicatedHubs {
 public:
  static constexpr vertex_t kNone = std::numeric_limits<vertex_t>::max();

  // Collective. degree_code(i): the degree class of local vertex i (0 for none). At most `limit`
  // hubs; vertices of degree class 0 never are.
  template <class DegreeCode>
  void select(const mpi::Comm& comm, const Partition1D& part, int limit, DegreeCode&& degree_code) {
    hubs_ = highest_degree_vertices(comm, part, limit, degree_code);
    index_ = IdIndex(hubs_);
    visited_.assign(hubs_.size(), 0);
    candidates_.assign(hubs_.size(), kNone);
  }

  std::int64_t count() const { return static_cast<std::int64_t>(hubs_.size()); }
  vertex_t hub(std::int64_t h) const { return hubs_[h]; }

  // Which hub v is, or -1: its place in the ascending list, found by id (core/id_index.hpp, on
  // every edge of a top-down step: most ids end at the index's one-bit filter).
  std::int64_t index(vertex_t v) const { return index_.find(v); }
  bool visited(std::int64_t h) const { return visited_[h] != 0; }

  // Thread-safe: `parent` reached unvisited hub h; the smallest candidate wins.
  void offer(std::int64_t h, vertex_t parent) {
    std::atomic_ref<vertex_t> slot(candidates_[h]);
    vertex_t seen = slot.load(std::memory_order_relaxed);
    while (parent < seen && !slot.compare_exchange_weak(seen, parent, std::memory_order_relaxed)) {
    }
    any_offer_.store(true, std::memory_order_relaxed);
  }

  // Collective, at the end of a top-down level: every rank learns which hubs were reached and
  // marks them visited; claim(hub id, parent) runs for each such hub (the owner claims it).
  template <class Claim>
  void settle(const mpi::Comm& comm, Claim&& claim) {
    if (!comm.allreduce<std::int64_t>(any_offer_.load() ? 1 : 0, mpi::Op::max)) return;
    comm.allreduce_inplace<vertex_t>(candidates_, mpi::Op::min);
    for (std::size_t h = 0; h < hubs_.size(); ++h) {
      if (candidates_[h] == kNone) continue;
      visited_[h] = 1;
      claim(hubs_[h], candidates_[h]);
      candidates_[h] = kNone;
    }
    any_offer_.store(false);
  }

  // Collective: visited bits from the owners (after steps that visit hubs without offers).
  template <class OwnerVisited>
  void refresh(const mpi::Comm& comm, const Partition1D& part, OwnerVisited&& visited_here) {
    for (std::size_t h = 0; h < hubs_.size(); ++h) visited_[h] = part.owns(hubs_[h]) && visited_here(hubs_[h]);
    comm.allreduce_inplace<std::uint8_t>(visited_, mpi::Op::max);
  }

  // A new search: nothing visited.
  void reset() {
    std::fill(visited_.begin(), visited_.end(), 0);
    std::fill(candidates_.begin(), candidates_.end(), kNone);
    any_offer_.store(false);
  }

 private:
  std::vector<vertex_t> hubs_;            // ascending
  IdIndex index_;                         // each hub's place in hubs_
  std::vector<std::uint8_t> visited_;     // per hub, the same on every rank
  std::vector<vertex_t> candidates_;      // per hub: the smallest parent offered this level
  std::atomic<bool> any_offer_{false};
};

}  // namespace g500::exchange
