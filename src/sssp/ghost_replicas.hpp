#pragma once
// Kernel 3's third form of what a rank keeps of the finished vertices (SsspOptions::replicas):
// ghosts, the distinct vertices its own rows reach, each with its final distance once its owner has
// settled it. A rank learns only about its ghosts: when a heavy step's members settle, each owner
// sends each member's distance to the ranks whose rows reach it, named by their places in those
// ranks' ghost lists (learned once, when the graph is built). So a search sends and sets a
// distance for each (vertex, rank whose rows reach it) pair once: O(min(N, M/P)) a rank, where the
// whole form's bits take every one of the N vertices on every rank. The distances serve both
// pruning (a ghost settled in an earlier bucket cannot be offered less) and pulls (a ghost settled
// in the current bucket offers its distance plus the edge's weight), found through each entry's
// ghost place: 4 bytes an entry, 4 a ghost, and 8 for each rank a vertex's owner tells.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/owner_buckets.hpp"
#include "exchange/rounds.hpp"
#include "exchange/sparse_exchange.hpp"
#include "graph/weighted_csr.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

template <class Column>
class GhostReplicas {
 public:
  // Bytes a rank holds: `kept` between searches (each entry's ghost, each ghost's distance, the
  // ranks each vertex's owner tells), `search` more while searching (a heavy step's notices, in
  // buckets, sent, received and in the sparse exchange's inbox), `build` more while being built (the sorted copy
  // of the entries' neighbours and a round of questions to the owners). `entries`: a rank's.
  struct Bytes {
    double kept = 0, search = 0, build = 0;
  };
  static Bytes bytes(double vertices, double entries, int ranks, double id_bytes) {
    // A rank's ghosts, and the (rank, place) pairs its owners keep, are about as many.
    const double ghosts = std::min(vertices, entries);
    Bytes b;
    b.kept = 4 * entries + 4 * ghosts + 8 * ghosts + 8 * (vertices / ranks + 1);
    b.search = 4 * 8 * ghosts;
    b.build = id_bytes * entries + 3 * 16 * std::min(ghosts, static_cast<double>(exchange::kBuildRound));
    return b;
  }

  // This rank's ghosts from its rows, each entry's ghost place, and, from what the other ranks
  // tell, which ranks to tell about each local vertex. Collective.
  void build(const mpi::Comm& comm, const Partition1D& part, const WeightedCsr1D<Column>& csr, bool sparse) {
    const edge_count_t entries = csr.local_entries();
    std::vector<Column> ghosts(static_cast<std::size_t>(entries));
#pragma omp parallel for schedule(static)
    for (edge_count_t k = 0; k < entries; ++k) ghosts[k] = csr.column(k);
    std::sort(ghosts.begin(), ghosts.end());
    ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
    if (ghosts.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("a rank's rows reach more than 2^32 distinct vertices: --sssp-replicas ghosts");
    entry_ghost_.resize(static_cast<std::size_t>(entries));
#pragma omp parallel for schedule(static)
    for (edge_count_t k = 0; k < entries; ++k) {
      entry_ghost_[k] =
          static_cast<std::uint32_t>(std::lower_bound(ghosts.begin(), ghosts.end(), csr.column(k)) - ghosts.begin());
    }
    dist_.assign(ghosts.size(), kNotSettled);
    tell_owners(comm, part, ghosts);
    notices_ = exchange::OwnerBuckets<Notice>(comm.size(), omp_get_max_threads(), "sssp.notices");
    if (sparse && !sparse_) sparse_ = std::make_unique<exchange::SparseExchange<Notice>>(comm);
  }

  // A new search: no ghost settled.
  void reset() { std::fill(dist_.begin(), dist_.end(), kNotSettled); }

  // The final distance of entry k's neighbour, or +infinity while it is not settled.
  float dist(edge_count_t k) const { return dist_[entry_ghost_[k]]; }

  // Tells every rank whose rows reach one of `members` (local ids of vertices just settled, each
  // once a search) its final distance, dist_of(v), and sets what the others tell this rank.
  // Collective.
  template <class DistOf>
  void notify(const mpi::Comm& comm, std::span<const local_t> members, DistOf&& dist_of) {
    const edge_count_t* offsets = tell_offsets_.data();
    const Tell* tell = tell_.data();
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(dynamic, 64)
      for (std::size_t i = 0; i < members.size(); ++i) {
        const local_t v = members[i];
        const float d = dist_of(v);
        for (edge_count_t r = offsets[v], end = offsets[v + 1]; r < end; ++r) {
          const Tell to = tell[r];
          notices_.push(t, to.rank, Notice{to.ghost, d});
        }
      }
    }
    if (sparse_)
      notices_.exchange_sparse(*sparse_, arrived_);
    else
      notices_.exchange(comm, arrived_);
    float* dist = dist_.data();
    for (const Notice& n : arrived_) dist[n.ghost] = n.dist;
  }

  // Frees what a search keeps for the next one.
  void release_search_buffers() {
    notices_.release();
    release_storage(arrived_);
  }

 private:
  static constexpr float kNotSettled = std::numeric_limits<float>::infinity();
  struct Notice {
    std::uint32_t ghost;  // its place in the receiving rank's ghost list
    float dist;
  };
  struct Tell {
    std::int32_t rank;
    std::uint32_t ghost;
  };
  // What a rank tells a ghost's owner: the ghost and its place there.
  struct Reach {
    vertex_t vertex;
    std::uint32_t ghost;
    std::int32_t rank;
  };

  // Each ghost to its owner, in rounds; the owners list, by local vertex, who to tell.
  void tell_owners(const mpi::Comm& comm, const Partition1D& part, const std::vector<Column>& ghosts) {
    exchange::OwnerBuckets<Reach> asks(comm.size(), 1, "sssp.ghosts");
    std::vector<Reach> received, reaches;
    const std::int64_t n = static_cast<std::int64_t>(ghosts.size());
    exchange::in_rounds(comm, n, exchange::kBuildRound, [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t g = first; g < last; ++g) {
        const vertex_t v = static_cast<vertex_t>(ghosts[g]);
        asks.push(0, part.owner(v), Reach{v, static_cast<std::uint32_t>(g), comm.rank()});
      }
      asks.exchange(comm, received);
      reaches.insert(reaches.end(), received.begin(), received.end());
    });
    tell_offsets_.assign(static_cast<std::size_t>(part.local_count()) + 1, 0);
    for (const Reach& r : reaches) ++tell_offsets_[part.to_local(r.vertex) + 1];
    for (local_t v = 0; v < part.local_count(); ++v) tell_offsets_[v + 1] += tell_offsets_[v];
    tell_.resize(reaches.size());
    std::vector<edge_count_t> at(tell_offsets_.begin(), tell_offsets_.end() - 1);
    for (const Reach& r : reaches) tell_[at[part.to_local(r.vertex)]++] = Tell{r.rank, r.ghost};
  }

  big_vector<std::uint32_t> entry_ghost_;  // each entry's neighbour's place in the ghost list
  big_vector<float> dist_;                 // each ghost's final distance, or kNotSettled
  big_vector<edge_count_t> tell_offsets_;  // each local vertex's ranks to tell, in tell_
  big_vector<Tell> tell_;
  exchange::OwnerBuckets<Notice> notices_{1, 1, "sssp.notices"};
  std::unique_ptr<exchange::SparseExchange<Notice>> sparse_;
  big_vector<Notice> arrived_;
};

}  // namespace g500
