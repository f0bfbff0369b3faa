#pragma once
// The trees a BFS validation checks, replicated on every rank: each vertex's level in each tree of
// a batch and a fingerprint of its parent, side by side, so that a tuple's endpoint costs one cache
// miss for the whole batch (validate/tuple_scan.hpp reads them). Rule 1 (the parents form a tree
// rooted at the root) is checked while the levels are found.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "core/bitmap.hpp"
#include "core/packed_ints.hpp"
#include "core/types.hpp"
#include "exchange/column_gather.hpp"
#include "exchange/slice_gather.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "validate/failure.hpp"

namespace g500::validation {

// Every rank holds every vertex's level in the tree and a few bits of a hash of its parent, so it
// checks its own share of the tuples where it generated them: no tuple travels. Level and
// fingerprint sit side by side, so each endpoint costs one cache miss. Two layouts:
//  - PackedEntry, one byte: levels 0-14 and a 4-bit fingerprint. Graph500 trees are a few levels
//    deep, and a batch's scan is bound by the misses into its table, which this halves;
//  - WideEntry<Level>: a Level each, for deeper trees (254 levels in 2 bytes; long paths in
//    graph files take 32-bit levels).
// A tuple (v, p) can be v's tree edge only if p's fingerprint is the one v keeps of its parent.
inline std::uint64_t parent_hash(vertex_t parent) { return static_cast<std::uint64_t>(parent) * 0x9E3779B97F4A7C15ull; }

struct PackedEntry {
  static constexpr std::uint32_t kUnreached = 15, kDeepest = 14;
  std::uint8_t bits = kUnreached;  // level below, fingerprint above
  std::uint32_t level() const { return bits & 15u; }
  std::uint32_t fingerprint() const { return bits >> 4; }
  void set_level(std::uint32_t level) { bits = static_cast<std::uint8_t>((bits & 0xf0u) | level); }
  void set_parent(vertex_t parent) { bits = static_cast<std::uint8_t>((bits & 15u) | (fingerprint_of(parent) << 4)); }
  static std::uint32_t fingerprint_of(vertex_t parent) { return static_cast<std::uint32_t>(parent_hash(parent) >> 60); }
};

template <class Level>
struct WideEntry {
  static constexpr std::uint32_t kUnreached = std::numeric_limits<Level>::max(), kDeepest = kUnreached - 1;
  Level level_ = static_cast<Level>(kUnreached);
  Level fingerprint_ = 0;
  std::uint32_t level() const { return level_; }
  std::uint32_t fingerprint() const { return fingerprint_; }
  void set_level(std::uint32_t level) { level_ = static_cast<Level>(level); }
  void set_parent(vertex_t parent) { fingerprint_ = static_cast<Level>(fingerprint_of(parent)); }
  static std::uint32_t fingerprint_of(vertex_t parent) { return static_cast<Level>(parent_hash(parent) >> 40); }
};

// The trees of a batch, on every rank: search s's entry for vertex v at v * slots + s, so that a
// tuple's endpoint is one cache miss for the whole batch.
template <class Entry>
class TreeTable {
 public:
  // 16 bytes to spare past the last row: a scan loads a row's slots as one 16-byte vector.
  TreeTable(vertex_t n, int slots) : slots_(slots), entries_(static_cast<std::size_t>(n) * slots + 16 / sizeof(Entry) + 1) {}
  int slots() const { return slots_; }
  Entry& at(vertex_t v, int s) { return entries_[static_cast<std::size_t>(v) * slots_ + s]; }
  const Entry* row(vertex_t v) const { return entries_.data() + static_cast<std::size_t>(v) * slots_; }

 private:
  int slots_;
  big_vector<Entry> entries_;
};

// A search's parents as the scan reads them: in place (the search just ended), or the copy a
// waiting search keeps, each parent + 1 in bit_width(N) bits (0: none). A check confirms a kept
// copy's tree edges by clearing them (tree_edge_confirmer.hpp), so the copy is spent by its check.
struct SlotParents {
  const vertex_t* wide = nullptr;
  PackedInts* packed = nullptr;
  vertex_t operator[](local_t i) const { return wide ? wide[i] : static_cast<vertex_t>(packed->get(i)) - 1; }
  const void* address(local_t i) const { return wide ? static_cast<const void*>(wide + i) : packed->address(i); }
};

// Rule 1's local checks (ids in range, the root its own parent and reached, no other vertex its own
// parent); returns the bitmap of this rank's vertices whose level is still to find.
Bitmap check_parent_ids(const Partition1D& part, vertex_t root, std::span<const vertex_t> parents, Failure& failure);

// Rule 1 and the levels of search `slot`, replicated: pass d gives level d to each vertex whose
// parent has level d - 1, and every rank learns which vertices those were (as bitmap words, or as
// positions once few). Each rank builds its own vertices' entries (level and parent's fingerprint)
// in a local column, writes them to its rows and gathers everyone's: each search sweeps the table
// once. False when the tree is deeper than an Entry holds.
template <class Entry>
bool replicate_tree(const Partition1D& part, const mpi::Comm& comm, vertex_t root, std::span<const vertex_t> parents,
                    TreeTable<Entry>& tree, int slot, Failure& failure) {
  const vertex_t n = part.num_vertices();
  Bitmap pending = check_parent_ids(part, root, parents, failure);
  if (agree(comm, failure).rule) return true;
  std::vector<Entry> mine(part.local_count());  // this rank's vertices' entries, unreached so far
  if (part.owns(root)) mine[part.to_local(root)].set_level(0);
  exchange::SliceGather gather(comm, {part.word_counts(), part.word_displs()});
  // The vertices of the level before, on every rank: a parent is looked up in this bitmap (N/8
  // bytes, mostly in cache) rather than in the table, where each look would miss.
  Bitmap fresh(part.local_count()), fresh_all(n), previous_all(n);
  previous_all.set(root);
  const bool positions_fit = exchange::SliceGather::positions_fit(part.count_of(0) + kWordBits);
  for (std::int64_t d = 1;; ++d) {
    const bool fits = d <= static_cast<std::int64_t>(Entry::kDeepest);
    const std::uint32_t level = static_cast<std::uint32_t>(d);
    std::int64_t found = 0;
#pragma omp parallel for schedule(static) reduction(+ : found)
    for (std::int64_t w = 0; w < pending.num_words(); ++w) {
      word_t& bits = pending.data()[w];
      word_t now = 0;
      for (word_t left = bits; left; left &= left - 1) {
        const int b = __builtin_ctzll(left);
        if (previous_all.test(parents[w * kWordBits + b])) now |= word_t{1} << b;
      }
      fresh.data()[w] = now;
      bits &= ~now;
      found += __builtin_popcountll(now);
      if (fits)
        for (; now; now &= now - 1) mine[w * kWordBits + __builtin_ctzll(now)].set_level(level);
    }
    const std::int64_t found_all = comm.allreduce(found, mpi::Op::sum);
    if (found_all == 0) {
      const std::int64_t left = pending.count();
      if (left > 0) {
        local_t i = 0;
        while (!pending.test(i)) ++i;
        failure.set(1, "the parent chain of vertex " + vid(part.to_global(i)) + " (parent " + vid(parents[i]) +
                           ") never reaches the root: a cycle or a detached branch");
      }
      break;
    }
    if (!fits) return false;
    gather.gather(fresh, fresh_all, positions_fit && found_all < n / 64);
    std::swap(previous_all, fresh_all);
  }
  // (A chain that never reached the root is reported by the caller; its fingerprints do no harm.)
  const vertex_t begin = part.begin();
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part.local_count(); ++i) {
    if (parents[i] != kNoParent) mine[i].set_parent(parents[i]);
    tree.at(begin + i, slot) = mine[i];
  }
  exchange::gather_column_inplace(comm, &tree.at(0, slot), tree.slots(), part.vertex_counts(), part.vertex_displs());
  return true;
}

}  // namespace g500::validation
