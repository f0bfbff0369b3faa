#pragma once
// Kernel 1 for 1D engines: the CSR rows of this rank's vertex block, built from the edge source of
// all ranks. Each tuple (u, v) with u != v becomes u->v and v->u; rows are sorted and duplicates
// and self-loops are dropped (they never change a BFS tree).
//
// Columns are global vertex ids of type Column: 32-bit when N <= 2^32 (half the memory and memory
// traffic of the largest array), 64-bit above; engines choose once, at run time.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/arc_sketch.hpp"
#include "graph/edge_source.hpp"
#include "graph/row_codes.hpp"
#include "graph/row_builder.hpp"
#include "graph/window_order.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

template <class Column>
struct Csr1D {
  Partition1D part;
  big_vector<edge_count_t> offsets;  // local_count + 1 entries
  big_vector<Column> columns;        // global ids of neighbours (capacity may exceed offsets.back())

  edge_count_t degree(local_t i) const { return offsets[i + 1] - offsets[i]; }
  const Column* begin(local_t i) const { return columns.data() + offsets[i]; }
  const Column* end(local_t i) const { return columns.data() + offsets[i + 1]; }
  edge_count_t local_entries() const { return offsets.back(); }
};

// This rank's rows as a compressed store would code them (graph/row_codes.hpp).
template <class Column>
RowCodeSize row_codes_of(const Csr1D<Column>& csr) {
  return measure_row_codes(csr.offsets, csr.columns.data(), csr.part.local_count(), csr.part.begin());
}

// How each row's neighbours are ordered.
enum class RowOrder {
  by_id,
  // Highest arc count first (the degree with duplicate tuples counted; ties by id). A bottom-up
  // step stops at the first neighbour in the frontier, and the frontier fills with high-degree
  // vertices first, so this cuts the entries it examines. The counts are asked of their owners.
  by_neighbour_degree,
};

// Collective. Two passes over the source (one with a usable `sketch`, whose counts it uses in place
// of the first pass and then releases), in rounds of at most `round` tuples per rank: the first
// counts each row's arcs at its owner, the second sends the arcs and writes each straight into its
// row, so the largest thing held besides the rows themselves is one round's buffers. Then one sort
// per row puts it in `order` and drops duplicates. The result does not depend on rank or thread
// counts.
//
// With `renumber` (rows by neighbour degree only), the block is also put in degree order within
// windows (graph/window_order.hpp), the order is written there, and rows and entries use the new
// numbering.
//
// Rows by neighbour degree read each neighbour's record (its code, and its move when renumbered)
// from a table of every vertex's, gathered on every rank, or by entry, asked of its owner
// (`keys`; automatic: neighbour_keys_by_entry). The rows come out the same.
enum class NeighbourKeys { automatic, table, by_entry };
template <class Column>
Csr1D<Column> build_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                           RowOrder order = RowOrder::by_id, std::int64_t round = exchange::kBuildRound,
                           WindowOrder* renumber = nullptr, ArcSketch* sketch = nullptr,
                           NeighbourKeys keys = NeighbourKeys::automatic);

// The first pass's counts of a 1D build over `part` from a usable sketch of the same source (every
// block of 2^tag_bits rows, tag_bits >= 6, is whole words); the sketch is released once read.
rows::BlockCounts block_counts_from(ArcSketch& sketch, const Partition1D& part);

// Whether rows by neighbour degree take each entry's neighbour record from its owner (kept by
// entry) rather than a table of every vertex's: where a rank's entries (`arcs`, duplicates
// included) are fewer than the vertices.
inline bool neighbour_keys_by_entry(double vertices, double arcs) { return arcs < vertices; }
// Questions a rank asks at once while its entries' records are asked of their owners.
inline constexpr std::int64_t kNeighbourKeyRound = std::int64_t{1} << 20;
// Bytes a rank holds for the records while its rows are sorted by neighbour degree (`record`: 1
// byte, 3 renumbered): every vertex's and its block's, or by entry a byte an entry, its block's,
// and a round of questions with what OwnerQuery keeps for them.
inline double neighbour_key_bytes(double vertices, double tuples, int ranks, double record, double id_bytes) {
  const double n_local = vertices / ranks + 64, arcs = 2 * tuples / ranks;
  if (!neighbour_keys_by_entry(vertices, arcs)) return record * (vertices + n_local);
  return arcs + record * n_local +
         (4 + 8 + 2 * id_bytes + 3 * record) * std::min(arcs, static_cast<double>(kNeighbourKeyRound));
}

// Peak bytes per rank while build_csr_1d runs, for the engines' memory estimates: the rows (with
// the room duplicates took), offsets (the cursors while rows fill) and degrees, and one round's
// buffers (its tuples; its arcs in buckets, sent, received and placed). `id_bytes`: the width of a stored column.
inline double csr_1d_build_bytes(double vertices, double tuples, int ranks, double id_bytes) {
  const double n_local = vertices / ranks + 64, m_local = tuples / ranks + 1;
  const double round = m_local < exchange::kBuildRound ? m_local : static_cast<double>(exchange::kBuildRound);
  return id_bytes * 2 * m_local + 2 * 8 * n_local + 16 * round + 4 * 2 * 2 * id_bytes * round;
}

// What renumbering adds to the build: the two local maps, and per thread a window's entries (taken
// as four times the average window's: hubs crowd some) and offsets. (The moves that travel with
// the neighbours' codes are neighbour_key_bytes's.)
inline double window_order_build_bytes(double vertices, double tuples, int ranks, double id_bytes, int threads) {
  const double n_local = vertices / ranks + 64, m_local = tuples / ranks + 1;
  const double window = static_cast<double>(WindowOrder::kWindow);
  const double entries = std::min(2 * m_local, 4 * 2 * m_local * window / n_local);
  return 2 * 2 * n_local + threads * (id_bytes * entries + 8 * (window + 1));
}

}  // namespace g500
