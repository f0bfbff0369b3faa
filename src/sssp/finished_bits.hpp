#pragma once
// The vertices of the buckets a search has finished, known on every rank, for pruning. A
// relaxation toward such a vertex cannot succeed: a vertex u in a later bucket has du > dv (bucket
// numbers grow with the distance), so du + w >= du > dv for any w >= 0, in float too. Dropping
// those before they are sent or offered keeps the distances exact and saves most of a thin
// bucket's heavy pushes, which in a Kronecker graph go mostly to hubs settled long before.
//
// Two forms (SsspOptions::replicas):
//  - whole: a bit for every vertex, N/8 bytes a rank. A finished bucket's members reach every rank
//    as a list of ids or, when the list would be bigger, as each rank's slice of the bitmap (the
//    ranks own whole words, so the slices need no repacking): never more than N/8 bytes a bucket.
//  - hubs: bits for the highest-degree vertices only, a bounded number of them (exchange/
//    replicated_hubs.hpp's choice), found by id in an IdIndex: O(1) bytes a rank; a finished
//    bucket's hubs reach every rank as their places in the hub list, each hub once a search.
//    Relaxations toward other finished vertices travel and fail at their owners.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/id_index.hpp"
#include "core/types.hpp"
#include "exchange/replicated_hubs.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// Column: the stored id width, which the lists of ids use.
template <class Column>
class FinishedBits {
 public:
  // Hubs every rank keeps bits for, in the hubs form: as many as a rank has vertices, from 2^10 to
  // kMostHubs. More hubs prune more relaxations but make each lookup slower: their index leaves
  // the cache (docs/sssp.md).
  static constexpr std::int64_t kMostHubs = std::int64_t{1} << 16;
  static std::int64_t hub_limit(double vertices, int ranks) {
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(vertices / ranks), 1024, kMostHubs);
  }
  // Bytes a rank holds in either form (the lists a bucket sends included).
  static double bytes(bool whole, double vertices, int ranks) {
    const double n_local = vertices / ranks + 64;
    if (whole) return 2 * vertices / 8 + 4 * n_local;
    const double hubs = static_cast<double>(hub_limit(vertices, ranks));
    return 8 * hubs + IdIndex::bytes(hubs) + hubs / 8 + n_local / 8 + 2 * 4 * hubs;
  }

  // The hubs form: this rank's hubs and the index of all, from degree_code(i) of each local
  // vertex. Without it, the whole form. Collective.
  template <class DegreeCode>
  void keep_hubs_only(const mpi::Comm& comm, const Partition1D& part, DegreeCode&& degree_code) {
    const std::vector<vertex_t> hubs = exchange::highest_degree_vertices(
        comm, part, hub_limit(static_cast<double>(part.num_vertices()), comm.size()), degree_code);
    hubs_ = IdIndex(hubs);
    local_hub_ = Bitmap(part.local_count());
    for (const vertex_t h : hubs)
      if (part.owns(h)) local_hub_.set(part.to_local(h));
    whole_ = false;
  }
  bool whole() const { return whole_; }

  // Empties the set for a new search (allocating it the first time).
  void reset(const Partition1D& part) {
    const std::int64_t bits = whole_ ? part.num_vertices() : hubs_.size();
    if (bits_.size() != bits) bits_ = Bitmap(bits);
    else bits_.clear();
  }

  // Adds this rank's members of a finished bucket (local ids, any order); every rank calls it
  // with its own. Collective.
  void add(const mpi::Comm& comm, const Partition1D& part, std::span<const local_t> members) {
    if (!whole_) return add_hubs(comm, part, members);
    const mpi::Counts counts = comm.allgather(static_cast<std::int64_t>(members.size()));
    std::int64_t total = 0;
    for (const auto c : counts) total += c;
    if (total == 0) return;
    const auto list_bytes = static_cast<std::uint64_t>(total) * sizeof(Column);
    if (list_bytes < static_cast<std::uint64_t>(bits_.num_words()) * sizeof(word_t)) {
      mine_.resize(members.size());
      for (std::size_t i = 0; i < members.size(); ++i) mine_[i] = static_cast<Column>(part.to_global(members[i]));
      gather_and_set(comm, counts, total);
    } else {
      // A rank's own slice holds all its settled vertices, so the gathered slices lose no bit.
      for (const local_t v : members) bits_.set(part.to_global(v));
      comm.allgatherv_inplace(bits_.data(), part.word_counts(), part.word_displs());
    }
  }

  bool contains(vertex_t v) const {
    if (whole_) return bits_.test(v);
    const std::int64_t h = hubs_.find(v);
    return h >= 0 && bits_.test(h);
  }

 private:
  void add_hubs(const mpi::Comm& comm, const Partition1D& part, std::span<const local_t> members) {
    mine_.clear();
    for (const local_t v : members)
      if (local_hub_.test(v)) mine_.push_back(static_cast<Column>(hubs_.find(part.to_global(v))));
    const mpi::Counts counts = comm.allgather(static_cast<std::int64_t>(mine_.size()));
    std::int64_t total = 0;
    for (const auto c : counts) total += c;
    if (total > 0) gather_and_set(comm, counts, total);
  }
  // Every rank's mine_ gathered, and their bits set.
  void gather_and_set(const mpi::Comm& comm, const mpi::Counts& counts, std::int64_t total) {
    all_.resize(static_cast<std::size_t>(total));
    comm.allgatherv<Column>(mine_, all_.data(), counts, mpi::Comm::displacements(counts));
    for (const Column v : all_) bits_.set(static_cast<std::int64_t>(v));
  }

  bool whole_ = true;
  Bitmap bits_;        // whole: by vertex; hubs: by place in the hub list
  IdIndex hubs_;       // hubs: every hub's place
  Bitmap local_hub_;   // hubs: this rank's vertices that are hubs
  std::vector<Column> mine_, all_;  // a list's ids (or hub places): this rank's, everyone's
};

}  // namespace g500
