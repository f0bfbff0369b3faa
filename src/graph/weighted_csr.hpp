#pragma once
// Kernel 1 for SSSP: the CSR rows of this rank's vertex block with a weight per entry. Each tuple
// (u, v, w) with u != v becomes u->v and v->u with weight w; of several tuples joining the same
// pair only the lightest is kept (no shortest path uses another). Each row is sorted by weight, so
// its light edges (w < delta) are a prefix for any delta.
//
// An entry keeps its neighbour and weight side by side, so a relaxation reads one cache line: with
// 32-bit ids one 64-bit word, the weight's bits above the id (a weight >= 0 orders like its bits,
// so a row sorted by word is sorted by weight, then id); with wider ids a packed pair. The 32-bit
// rows are placed by kernel 1's block machinery (graph/row_builder.hpp), the word as the arc's
// payload; wider ones by row.
#include <bit>
#include <cstdint>
#include <type_traits>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

struct [[gnu::packed]] WideWeightedEntry {
  vertex_t to;
  float weight;
};

// A weighted row's entry for ids stored as Column.
template <class Column>
using WeightedEntry = std::conditional_t<sizeof(Column) == 4, std::uint64_t, WideWeightedEntry>;

inline std::uint64_t weighted_word(std::uint32_t to, float weight) {
  return (std::uint64_t{std::bit_cast<std::uint32_t>(weight)} << 32) | to;
}

template <class Column>
struct WeightedCsr1D {
  using Entry = WeightedEntry<Column>;
  Partition1D part;
  big_vector<edge_count_t> offsets;  // local_count + 1 entries
  big_vector<Entry> entries;         // neighbours (global ids) and weights, ascending by weight within each row

  Column column(edge_count_t k) const {
    if constexpr (sizeof(Column) == 4) return static_cast<Column>(entries[k] & 0xffffffffu);
    else return entries[k].to;
  }
  float weight(edge_count_t k) const {
    if constexpr (sizeof(Column) == 4) return std::bit_cast<float>(static_cast<std::uint32_t>(entries[k] >> 32));
    else return entries[k].weight;
  }
  const void* address(edge_count_t k) const { return entries.data() + k; }
  edge_count_t degree(local_t i) const { return offsets[i + 1] - offsets[i]; }
  edge_count_t local_entries() const { return offsets.back(); }
  // Where row i's entries of weight >= `delta` start (a binary search: rows are sorted by weight).
  edge_count_t light_end(local_t i, float delta) const;
};

// Collective. The source must have weights.
template <class Column>
WeightedCsr1D<Column> build_weighted_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                            std::int64_t round = exchange::kBuildRound);

// Bytes per rank of kernel 3's rows: while built (every arc, with a side byte each while placed by
// block when the word has no room for the block tags; offsets and kept counts; one round's tuples,
// weights and weighted arcs in buckets, sent and received), and once built (an upper bound: the
// copies of a pair, dropped by then, are counted).
struct WeightedCsrBytes {
  double build = 0, kept = 0;
};
WeightedCsrBytes weighted_csr_1d_bytes(double vertices, double tuples, int ranks, double id_bytes);

}  // namespace g500
