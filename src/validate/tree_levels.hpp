#pragma once
// Rule 1 of a BFS validation (the parents form a tree rooted at the root) and each vertex's level
// in that tree, found on the vertices' owners: O(N/P) a rank, whatever the scale. Level by level:
// a vertex whose parent is in the level before joins the next. A parent on this rank is looked up
// in a bitmap of this rank's level before; a vertex whose parent lives elsewhere has told the
// parent's owner, which sends it on once the parent has its level. A vertex never reached has a
// parent chain that never meets the root: a cycle or a detached branch.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "exchange/owner_buckets.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "validate/failure.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

// What is wrong with parent p of vertex v, when it is not simply an other vertex; empty if nothing.
[[gnu::noinline]] std::string parent_id_problem(vertex_t v, vertex_t p, vertex_t root, vertex_t n);

// Rule 1's local checks (ids in range, the root its own parent and reached, no other vertex its own
// parent), with each(i, parent) called for every vertex of this rank on the way. Returns the
// bitmap of this rank's vertices whose level is still to find and whose parent is here; `remote`
// gets those whose parent lives on another rank.
template <class Each>
Bitmap check_parent_ids(const Partition1D& part, vertex_t root, std::span<const vertex_t> parents, Bitmap& remote,
                        Failure& failure, Each&& each) {
  // Locals, not members: each() may store through a byte pointer, after which the compiler would
  // read any member again.
  const vertex_t n = part.num_vertices(), begin = part.begin();
  const local_t count = part.local_count();
  const vertex_t* const parent_of = parents.data();
  Bitmap pending(count);
  // Whole words a thread, in order, so that the first failure in vertex order is the one kept.
  std::vector<Failure> failures(omp_get_max_threads());
#pragma omp parallel for schedule(static)
  for (std::int64_t w = 0; w < pending.num_words(); ++w) {
    Failure& mine = failures[omp_get_thread_num()];
    word_t here = 0, elsewhere = 0;
    for (local_t i = w * kWordBits; i < std::min<local_t>(count, (w + 1) * kWordBits); ++i) {
      const vertex_t v = begin + i, p = parent_of[i];
      each(i, p);
      // The common cases without branches (whether a vertex was reached is a coin toss): a parent
      // in range, not the vertex itself, makes the vertex pending; anything else is looked at alone.
      const bool plain = (static_cast<std::uint64_t>(p) < static_cast<std::uint64_t>(n)) & (p != v) & (v != root);
      const word_t bit = word_t{1} << (i - w * kWordBits);
      const bool owned = static_cast<std::uint64_t>(p) - static_cast<std::uint64_t>(begin) < static_cast<std::uint64_t>(count);
      here |= plain & owned ? bit : 0;
      elsewhere |= plain & !owned ? bit : 0;
      if (__builtin_expect(!plain & (p != kNoParent), 0) == 0) continue;
      std::string problem = parent_id_problem(v, p, root, n);
      if (!problem.empty()) mine.set(1, std::move(problem));
    }
    pending.data()[w] = here;
    remote.data()[w] = elsewhere;
  }
  for (const Failure& f : failures)
    if (f.rule) failure.set(f.rule, f.message);
  if (part.owns(root) && parents[part.to_local(root)] == kNoParent) {
    failure.set(1, "the root " + vid(root) + " was not reached");
  }
  return pending;
}

// The tree edges whose parent lives on another rank, turned round: each such vertex tells its
// parent's owner, which keeps (parent, child) until the parent has its level. Kept from search to
// search, so that its buffers are reused.
class RemoteChildren {
 public:
  RemoteChildren(const Partition1D& part, const mpi::Comm& comm);
  // Collective: each vertex of `remote` (a bitmap of this rank's vertices) tells its parent's owner.
  void build(std::span<const vertex_t> parents, const Bitmap& remote);
  // The pairs' memory given back, once the levels are found: the tuples' scan comes next.
  void release();
  // Collective: the children kept here whose parent is in `previous` (this rank's vertices of the
  // level before; `any` when it holds one at all) go to their owners; `found` gets this rank's
  // vertices that arrived (local ids).
  void next_level(const Bitmap& previous, bool any, std::vector<local_t>& found);
  // Words of this rank's vertices whose pairs go out together.
  static constexpr std::int64_t kWordsPerRound = std::int64_t{1} << 12;
  // Bytes it takes per local vertex whose parent lives elsewhere (its pair, kept on the parent's
  // owner), with ids of `id_bytes`, and for a round's pairs (buckets, sent, received); for the
  // estimate.
  static double bytes_per_remote_vertex(double id_bytes) { return 2 * id_bytes; }
  static double round_bytes(double id_bytes) { return 3 * 2 * id_bytes * kWordsPerRound * 64; }

 private:
  // The pairs, at the width ids travel at (32-bit whenever N allows).
  template <class Id>
  struct Pairs {
    struct ChildOf {
      Id parent, child;
    };
    std::vector<ChildOf> waiting;  // whose parent has no level yet
  };
  template <class Id>
  void build(Pairs<Id>& pairs, std::span<const vertex_t> parents, const Bitmap& remote);
  template <class Id>
  void send_reached(Pairs<Id>& pairs, const Bitmap& previous);

  const Partition1D& part_;
  const mpi::Comm& comm_;
  Pairs<std::uint32_t> narrow_;
  Pairs<vertex_t> wide_;
  bool narrow_ids_;
  exchange::OwnerBuckets<vertex_t> to_child_;
  std::vector<vertex_t> arrived_;
};

// The vertices of `pending` (whose parents are on this rank) with a parent in `previous`: set in
// `next`, cleared from `pending`, reached(i) called for each. Returns how many.
template <class Reached>
std::int64_t local_children(const Partition1D& part, std::span<const vertex_t> parents, const Bitmap& previous,
                            Bitmap& pending, Bitmap& next, Reached&& reached) {
  const vertex_t begin = part.begin();
  std::int64_t found = 0;
#pragma omp parallel for schedule(static) reduction(+ : found)
  for (std::int64_t w = 0; w < pending.num_words(); ++w) {
    word_t now = 0;
    for (word_t bits = pending.word(w); bits; bits &= bits - 1) {
      const int b = __builtin_ctzll(bits);
      now |= static_cast<word_t>(previous.test(parents[w * kWordBits + b] - begin)) << b;
    }
    next.data()[w] = now;
    pending.data()[w] &= ~now;
    found += __builtin_popcountll(now);
    for (; now; now &= now - 1) reached(w * kWordBits + __builtin_ctzll(now));
  }
  return found;
}

// Rule 1 and the levels of search `slot` into `tree` (and each vertex's parent's fingerprint).
// Collective. False when the tree is deeper than an Entry holds (every rank agrees).
template <class Entry>
bool find_levels(const Partition1D& part, const mpi::Comm& comm, vertex_t root, std::span<const vertex_t> parents,
                 RemoteChildren& remote_children, TreeTable<Entry>& tree, int slot, Failure& failure) {
  const local_t count = part.local_count();
  Bitmap remote(count);
  Entry* const column = &tree.at(0, slot);
  const std::size_t stride = static_cast<std::size_t>(tree.slots());
  Bitmap pending = check_parent_ids(part, root, parents, remote, failure, [column, stride](local_t i, vertex_t p) {
    Entry e;
    if (p != kNoParent) e.set_parent(p);
    column[static_cast<std::size_t>(i) * stride] = e;
  });
  if (agree(comm, failure).rule) return true;
  remote_children.build(parents, remote);
  Bitmap previous(count), next(count);
  if (part.owns(root)) {
    previous.set(part.to_local(root));
    tree.at(part.to_local(root), slot).set_level(0);
  }
  std::vector<local_t> arrived;
  std::int64_t previous_here = part.owns(root);  // this rank's vertices of the level before
  for (std::uint32_t d = 1;; ++d) {
    const bool fits = d <= Entry::kDeepest;
    std::int64_t found = 0;
    // With none of this rank's vertices in the level before, none of its own children joins.
    if (previous_here == 0) next.clear();
    else found = local_children(part, parents, previous, pending, next, [&](local_t i) {
      if (fits) column[static_cast<std::size_t>(i) * stride].set_level(d);
    });
    remote_children.next_level(previous, previous_here > 0, arrived);
    for (const local_t i : arrived) {
      next.set(i);
      remote.reset(i);
      if (fits) column[static_cast<std::size_t>(i) * stride].set_level(d);
    }
    found += static_cast<std::int64_t>(arrived.size());
    previous_here = found;
    if (comm.allreduce(found, mpi::Op::sum) == 0) break;
    if (!fits) {
      remote_children.release();
      return false;
    }
    std::swap(previous, next);
  }
  remote_children.release();
  for (std::int64_t w = 0; w < pending.num_words(); ++w) {
    const word_t left = pending.word(w) | remote.word(w);
    if (!left) continue;
    const local_t i = w * kWordBits + __builtin_ctzll(left);
    failure.set(1, "the parent chain of vertex " + vid(part.to_global(i)) + " (parent " + vid(parents[i]) +
                       ") never reaches the root: a cycle or a detached branch");
    break;
  }
  return true;
}

}  // namespace g500::validation
