#pragma once
// Every vertex of the buckets a search has finished, one bit each over all N ids, on every rank.
// A relaxation toward such a vertex cannot succeed: a vertex u in a later bucket has du > dv
// (bucket numbers grow with the distance), so du + w >= du > dv for any w >= 0, in float too.
// Dropping those before they are sent or offered keeps the distances exact and saves most of a thin
// bucket's heavy pushes, which in a Kronecker graph go mostly to hubs settled long before.
//
// A finished bucket's members reach every rank as a list of ids or, when the list would be bigger,
// as each rank's slice of the bitmap (the ranks own whole words, so the slices need no repacking):
// the bytes sent are never more than N/8 a bucket.
#include <cstdint>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// Column: the stored id width, which the lists of ids use.
template <class Column>
class FinishedBits {
 public:
  // Empties the set for a new search (allocating it the first time).
  void reset(const Partition1D& part) {
    if (bits_.size() != part.num_vertices()) bits_ = Bitmap(part.num_vertices());
    else bits_.clear();
  }

  // Adds this rank's members of a finished bucket (local ids, any order); every rank calls it
  // with its own. Collective.
  void add(const mpi::Comm& comm, const Partition1D& part, std::span<const local_t> members) {
    const mpi::Counts counts = comm.allgather(static_cast<std::int64_t>(members.size()));
    std::int64_t total = 0;
    for (const int c : counts) total += c;
    if (total == 0) return;
    const auto list_bytes = static_cast<std::uint64_t>(total) * sizeof(Column);
    if (list_bytes < static_cast<std::uint64_t>(bits_.num_words()) * sizeof(word_t)) {
      mine_.resize(members.size());
      for (std::size_t i = 0; i < members.size(); ++i) mine_[i] = static_cast<Column>(part.to_global(members[i]));
      all_.resize(static_cast<std::size_t>(total));
      comm.allgatherv<Column>(mine_, all_.data(), counts, mpi::Comm::displacements(counts));
      for (const Column v : all_) bits_.set(static_cast<std::int64_t>(v));
    } else {
      // A rank's own slice holds all its settled vertices, so the gathered slices lose no bit.
      for (const local_t v : members) bits_.set(part.to_global(v));
      comm.allgatherv_inplace(bits_.data(), part.word_counts(), part.word_displs());
    }
  }

  bool contains(vertex_t v) const { return bits_.test(v); }

 private:
  Bitmap bits_;
  std::vector<Column> mine_, all_;  // a list's ids: this rank's, everyone's
};

}  // namespace g500
