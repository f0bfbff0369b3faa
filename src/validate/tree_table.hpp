#pragma once
// The trees a BFS validation checks, each vertex's entries held by its owner: each vertex's level
// in each tree of a batch and a fingerprint of its parent, side by side, so that a tuple's endpoint
// costs one cache miss for the whole batch (validate/tuple_scan.hpp reads them as a tuple passes
// the endpoint's owner). Rule 1 (the parents form a tree rooted at the root) is checked while the
// levels are found (validate/tree_levels.hpp).
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/big_vector.hpp"
#include "core/packed_ints.hpp"
#include "core/types.hpp"

namespace g500::validation {

// Level and fingerprint sit side by side, so each endpoint costs one cache miss. Two layouts:
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

// The trees of a batch for this rank's vertices: search s's entry for local vertex i at
// i * slots + s, so that a tuple's endpoint is one cache miss for the whole batch. A row travels
// with a tuple as a Row: the 16 bytes from the vertex's first entry for packed entries (a batch of
// up to 16 trees, lanes past the batch ignored), a single entry for wide ones (a deep tree is
// validated alone).
template <class Entry>
class TreeTable {
 public:
  static constexpr int kRowEntries = std::is_same_v<Entry, PackedEntry> ? 16 : 1;
  // As raw bytes: a row is copied as it travels, never built entry by entry.
  struct Row {
    unsigned char bytes[kRowEntries * sizeof(Entry)];
    Entry entry(int k) const {
      Entry e;
      std::memcpy(static_cast<void*>(&e), bytes + k * sizeof(Entry), sizeof e);
      return e;
    }
  };
  // A row's worth to spare past the last vertex: its last row is read whole.
  TreeTable(local_t n_local, int slots) : slots_(slots), entries_(static_cast<std::size_t>(n_local) * slots + kRowEntries) {}
  int slots() const { return slots_; }
  Entry& at(local_t i, int s) { return entries_[static_cast<std::size_t>(i) * slots_ + s]; }
  const Entry& at(local_t i, int s) const { return entries_[static_cast<std::size_t>(i) * slots_ + s]; }
  Row row(local_t i) const {
    Row r;
    std::memcpy(r.bytes, address(i), sizeof r);
    return r;
  }
  const void* address(local_t i) const { return entries_.data() + static_cast<std::size_t>(i) * slots_; }

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

}  // namespace g500::validation
