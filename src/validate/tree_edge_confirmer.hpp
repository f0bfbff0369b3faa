#pragma once
// Rule 5 of a validation (every reached vertex but the root is joined to its parent by an input
// tuple), for a batch of searches, shared by the BFS and SSSP scans: a scan names a tuple (child,
// parent) that could be child's tree edge in search s (its levels or distances fit); the child's
// owner confirms it if `parent` is child's parent there. Candidates travel to their owners once a
// round; this rank's own ones wait for the same sweep, so each parent read (at random) is prefetched.
#include <omp.h>

#include <cstdint>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/padded.hpp"
#include "exchange/owner_buckets.hpp"
#include "partition/partition_1d.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

// Id: the width candidates travel at (std::uint32_t whenever N allows).
template <class Id>
class TreeEdgeConfirmer {
 public:
  TreeEdgeConfirmer(const Partition1D& part, const mpi::Comm& comm, std::span<const SlotParents> parents)
      : part_(part), comm_(comm), parents_(parents), confirmed_(parents.size(), Bitmap(part.local_count())),
        to_owner_(comm.size(), omp_get_max_threads(), "validation.tree_edge_candidates"), own_(omp_get_max_threads()) {}

  // On thread t: `parent` may be `child`'s parent in search `slot`.
  void candidate(int t, int slot, vertex_t child, vertex_t parent) {
    const int owner = part_.owner(child);
    const Candidate c{static_cast<Id>(child), static_cast<Id>(parent), static_cast<std::uint32_t>(slot)};
    if (owner == comm_.rank()) own_[t].value.push_back(c);
    else to_owner_.push(t, owner, c);
  }

  // Collective, once a round: the round's candidates to their owners, each confirmed or not.
  void confirm_round() {
    to_owner_.exchange(comm_, received_);
    confirm(received_);
    for (Padded<std::vector<Candidate>>& list : own_) {
      confirm(list.value);
      list.value.clear();
    }
  }

  bool confirmed(int slot, local_t i) const { return confirmed_[slot].test(i); }

 private:
  struct Candidate {
    Id child, parent;
    std::uint32_t slot;
  };
  static constexpr std::int64_t kPrefetchDistance = 16;

  void confirm(const std::vector<Candidate>& list) {
    const std::int64_t m = static_cast<std::int64_t>(list.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kPrefetchDistance < m) {
        // Both reads at random: the parent, and (for a match, most candidates) the bit to set.
        const Candidate& soon = list[k + kPrefetchDistance];
        const local_t i = part_.to_local(static_cast<vertex_t>(soon.child));
        __builtin_prefetch(parents_[soon.slot].address(i));
        __builtin_prefetch(confirmed_[soon.slot].data() + (i >> 6), 1);
      }
      const local_t i = part_.to_local(static_cast<vertex_t>(list[k].child));
      if (parents_[list[k].slot][i] == static_cast<vertex_t>(list[k].parent)) confirmed_[list[k].slot].set_atomic(i);
    }
  }

  const Partition1D& part_;
  const mpi::Comm& comm_;
  std::span<const SlotParents> parents_;
  std::vector<Bitmap> confirmed_;  // by search: this rank's vertices whose tree edge a tuple confirmed
  exchange::OwnerBuckets<Candidate> to_owner_;
  std::vector<Candidate> received_;
  std::vector<Padded<std::vector<Candidate>>> own_;  // by thread: candidates this rank owns
};

}  // namespace g500::validation
