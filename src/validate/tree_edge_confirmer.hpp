#pragma once
// Rule 5 of a validation (every reached vertex but the root is joined to its parent by an input
// tuple), for a batch of searches, shared by the BFS and SSSP scans: a scan names a tuple (child,
// parent) that could be child's tree edge in search s (its levels or distances fit); the child's
// owner confirms it if `parent` is child's parent there. Candidates travel to their owners once a
// round; this rank's own ones wait for the same sweep, so each parent read (at random) is prefetched.
// A kept (packed) copy of the parents records a confirmed edge by clearing the parent, in the cache
// line just read; parents in place, which are not ours to change, are marked in a bitmap.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/padded.hpp"
#include "exchange/owner_buckets.hpp"
#include "partition/partition_1d.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

// Bytes a scanned tuple adds to a round's buffers with its candidates (buckets, sent, received),
// ids of `id_bytes`: a tuple makes at most two (one each way, each with its searches), and in
// Graph500's graphs about one tuple in six makes one; this allows one in two.
inline double candidate_round_bytes(double id_bytes) {
  constexpr double kCandidatesPerTuple = 0.5;
  return 3 * kCandidatesPerTuple * (id_bytes == 4 ? 12 : 24);
}

// Id: the width candidates travel at (std::uint32_t whenever N allows).
template <class Id>
class TreeEdgeConfirmer {
 public:
  TreeEdgeConfirmer(const Partition1D& part, const mpi::Comm& comm, std::span<const SlotParents> parents)
      : part_(part), comm_(comm), parents_(parents), confirmed_(parents.size()),
        to_owner_(comm.size(), omp_get_max_threads(), "validation.tree_edge_candidates"), own_(omp_get_max_threads()) {
    for (std::size_t s = 0; s < parents.size(); ++s)
      if (!parents[s].packed) confirmed_[s] = Bitmap(part.local_count());
  }

  // On thread t: `parent` may be `child`'s parent in each search whose bit `slots` sets (bit s:
  // slot s). One tuple is the tree edge of a vertex in several searches of a batch as often as not
  // (a hub is its parent in most trees), so the searches travel as one candidate.
  void candidate(int t, std::uint32_t slots, vertex_t child, vertex_t parent) {
    const int owner = part_.owner(child);
    const Candidate c{static_cast<Id>(child), static_cast<Id>(parent), slots};
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

  // Rule 5's verdict, once every round is confirmed: unconfirmed(s, i) for the first of this rank's
  // vertices i, in order, that needs a tree edge in search s (needs(i, s)) and has none. One sweep
  // over the vertices on all threads, every search of a row together.
  template <class Needs, class Report>
  void first_unconfirmed(Needs&& needs, Report&& unconfirmed) const {
    const int slots = static_cast<int>(confirmed_.size());
    const local_t count = part_.local_count();
    std::vector<local_t> first(slots, count);
#pragma omp parallel
    {
      std::vector<local_t> mine(slots, count);  // this thread's first, by search
#pragma omp for schedule(static) nowait
      for (local_t i = 0; i < count; ++i)
        for (int s = 0; s < slots; ++s)
          if (mine[s] == count && needs(i, s) && !confirmed(s, i)) mine[s] = i;
#pragma omp critical
      for (int s = 0; s < slots; ++s) first[s] = std::min(first[s], mine[s]);
    }
    for (int s = 0; s < slots; ++s)
      if (first[s] < count) unconfirmed(s, first[s]);
  }

 private:
  struct Candidate {
    Id child, parent;
    std::uint32_t slots;  // bit s: search s
  };
  static_assert(sizeof(Candidate) == (sizeof(Id) == 4 ? 12 : 24));
  static constexpr std::int64_t kPrefetchDistance = 32;

  void confirm(const std::vector<Candidate>& list) {
    if (omp_get_max_threads() > 1) confirm_on_threads<true>(list);
    else confirm_on_threads<false>(list);
  }

  // Shared: other threads confirm beside this one (atomic clears).
  template <bool Shared>
  void confirm_on_threads(const std::vector<Candidate>& list) {
    const std::int64_t m = static_cast<std::int64_t>(list.size());
#pragma omp parallel for schedule(static) if (Shared)
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kPrefetchDistance < m) {
        // Read at random: each search's parent, cleared when it matches (most candidates), or a bit
        // to set.
        const Candidate& soon = list[k + kPrefetchDistance];
        const local_t i = part_.to_local(static_cast<vertex_t>(soon.child));
        for (std::uint32_t slots = soon.slots; slots; slots &= slots - 1) {
          const int s = std::countr_zero(slots);
          const SlotParents& p = parents_[s];
          __builtin_prefetch(p.address(i), 1);
          if (!p.packed) __builtin_prefetch(confirmed_[s].data() + (i >> 6), 1);
        }
      }
      const Candidate& c = list[k];
      const local_t i = part_.to_local(static_cast<vertex_t>(c.child));
      for (std::uint32_t slots = c.slots; slots; slots &= slots - 1) {
        const int s = std::countr_zero(slots);
        const SlotParents& p = parents_[s];
        if (p.packed) p.packed->clear_if_equal<Shared>(i, static_cast<std::uint64_t>(c.parent) + 1);
        else if (p.wide[i] == static_cast<vertex_t>(c.parent)) confirmed_[s].set_atomic(i);
      }
    }
  }

  bool confirmed(int slot, local_t i) const {
    const SlotParents& p = parents_[slot];
    return p.packed ? p.packed->get(i) == 0 : confirmed_[slot].test(i);
  }

  const Partition1D& part_;
  const mpi::Comm& comm_;
  std::span<const SlotParents> parents_;
  std::vector<Bitmap> confirmed_;  // by search with parents in place: vertices whose tree edge a tuple confirmed
  exchange::OwnerBuckets<Candidate> to_owner_;
  std::vector<Candidate> received_;
  std::vector<Padded<std::vector<Candidate>>> own_;  // by thread: candidates this rank owns
};

}  // namespace g500::validation
