#include "validate/tree_levels.hpp"

#include <omp.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "exchange/rounds.hpp"

namespace g500::validation {

std::string parent_id_problem(vertex_t v, vertex_t p, vertex_t root, vertex_t n) {
  if (p < kNoParent || p >= n) return "vertex " + vid(v) + " has parent " + vid(p) + ", not a vertex id";
  if (v == root) return p == root ? "" : "the root " + vid(root) + " has parent " + vid(p) + ", not itself";
  if (p == v) return "vertex " + vid(v) + " is its own parent but is not the root";
  return "";
}

RemoteChildren::RemoteChildren(const Partition1D& part, const mpi::Comm& comm)
    : part_(part), comm_(comm), narrow_ids_(fits_32_bit(part.num_vertices())),
      to_child_(comm.size(), 1, "validation.tree_levels") {}

void RemoteChildren::build(std::span<const vertex_t> parents, const Bitmap& remote) {
  if (narrow_ids_) build(narrow_, parents, remote);
  else build(wide_, parents, remote);
}

void RemoteChildren::release() {
  narrow_.waiting = {};
  wide_.waiting = {};
}

// The pairs go out in rounds of this rank's words, so that the buckets stay small; what arrives
// goes straight into `waiting`, sized first from the counts every rank will send.
template <class Id>
void RemoteChildren::build(Pairs<Id>& pairs, std::span<const vertex_t> parents, const Bitmap& remote) {
  using ChildOf = typename Pairs<Id>::ChildOf;
  mpi::Counts to_each(comm_.size(), 0);
  for (std::int64_t w = 0; w < remote.num_words(); ++w)
    for (word_t bits = remote.word(w); bits; bits &= bits - 1) ++to_each[part_.owner(parents[w * kWordBits + __builtin_ctzll(bits)])];
  std::int64_t arriving = 0;
  for (const std::int64_t c : comm_.alltoall_counts(to_each)) arriving += c;
  pairs.waiting.clear();
  pairs.waiting.reserve(static_cast<std::size_t>(arriving));
  exchange::OwnerBuckets<ChildOf> to_parent(comm_.size(), omp_get_max_threads(), "validation.tree_children");
  std::vector<ChildOf> arrived;
  exchange::in_rounds(comm_, remote.num_words(), kWordsPerRound, [&](std::int64_t first, std::int64_t last) {
#pragma omp parallel for schedule(static)
    for (std::int64_t w = first; w < last; ++w) {
      const int t = omp_get_thread_num();
      for (word_t bits = remote.word(w); bits; bits &= bits - 1) {
        const local_t i = w * kWordBits + __builtin_ctzll(bits);
        to_parent.push(t, part_.owner(parents[i]), {static_cast<Id>(parents[i]), static_cast<Id>(part_.to_global(i))});
      }
    }
    to_parent.exchange(comm_, arrived);
    pairs.waiting.insert(pairs.waiting.end(), arrived.begin(), arrived.end());
  });
}

void RemoteChildren::next_level(const Bitmap& previous, bool any, std::vector<local_t>& found) {
  if (any) {
    if (narrow_ids_) send_reached(narrow_, previous);
    else send_reached(wide_, previous);
  }
  to_child_.exchange(comm_, arrived_);
  found.resize(arrived_.size());
  for (std::size_t k = 0; k < arrived_.size(); ++k) found[k] = part_.to_local(arrived_[k]);
}

// One pass: the pairs whose parent was reached leave, the rest close up.
template <class Id>
void RemoteChildren::send_reached(Pairs<Id>& pairs, const Bitmap& previous) {
  const vertex_t begin = part_.begin();
  std::size_t kept = 0;
  for (const auto& pair : pairs.waiting) {
    if (previous.test(static_cast<vertex_t>(pair.parent) - begin)) {
      to_child_.push(0, part_.owner(static_cast<vertex_t>(pair.child)), static_cast<vertex_t>(pair.child));
    } else {
      pairs.waiting[kept++] = pair;
    }
  }
  pairs.waiting.resize(kept);
}

}  // namespace g500::validation
