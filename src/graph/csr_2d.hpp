#pragma once
// Kernel 1 for 2D engines (paper 004, Fig. 4 and Algorithm III): the adjacency entries (u, v) a
// grid rank stores, u in its processor column's range V_j and v in its processor row's blocks W_i,
// as rows by u. Each entry is v's row-range position: the offset of v's block in W_i plus v's index in that
// block, in degree-sorted order when vertex sorting is on (paper 004 §4.4: the receiver's visited
// bitmap is indexed in that order, so the bits of hubs share cache lines). Rows rise, so a row's
// entries for one receiver come together, in order. Each vertex's degree is the sum of its row
// lengths over the processor column: the same number the 1D engines see.
#include <cstdint>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "graph/row_placement.hpp"
#include "graph/sparse_rows.hpp"
#include "mpi/comm.hpp"
#include "graph/kernel_spec.hpp"
#include "partition/process_grid.hpp"

namespace g500 {

// `placement`, with `automatic` made concrete for a graph of `vertices` and `tuples` on `grid`:
// sparse where a dense table's bytes (16 a row of the column range) exceed the keys' (8 an arc).
// The run and its memory estimate both take it from here.
RowPlacement resolve_row_placement(RowPlacement placement, double vertices, double tuples, GridShape grid);

// Whether sparse rows list their rows with entries (`filled`, with `automatic` made concrete): where
// the list (32 bits a row with entries, Kronecker degrees expected) is smaller than the bits and
// counts (1.5 bits a row of the column range). Never for dense rows. The run and its memory
// estimate both take it from here.
bool lists_filled_rows(FilledRows filled, RowPlacement placement, double vertices, double tuples, GridShape grid);

// Questions a rank asks its processor row at once while entries become sorted positions (kernel 1,
// sparse rows): a bounded round.
constexpr std::int64_t kPositionRound = std::int64_t{1} << 22;

// Column: the width of the block's ids and degrees (the run's --ids); Position: the width of an
// entry, a row-range position, which can be narrower (a row range holds N/R vertices). The pairs
// built (kernel 1 and the 2D engines alike): G500_2D_WIDTHS.
#define G500_2D_WIDTHS(X) X(std::uint32_t, std::uint32_t) X(vertex_t, std::uint32_t) X(vertex_t, vertex_t)
template <class Column, class Position = Column>
struct Csr2D {
  SparseRows<Column> index;          // a row per vertex of V_j; offsets only for rows with entries
  big_vector<Position> columns;      // row-range positions
  big_vector<Column> degree;         // of each vertex of this rank's 1D block, by local index
  // With vertex sorting, this block's vertices by decreasing degree (ties by index): sorted index
  // -> local index, and back. Empty without sorting: the identity.
  big_vector<Column> sorted_to_local, local_to_sorted;
  RowPlacement placement = RowPlacement::dense;  // how kernel 1 placed the rows

  local_t rows() const { return index.rows(); }
  edge_count_t row_length(local_t u) const {
    const auto r = index.range(u);
    return r.last - r.first;
  }
  std::span<const Position> row(local_t u) const {
    const auto r = index.range(u);
    return {columns.data() + r.first, static_cast<std::size_t>(r.last - r.first)};
  }
  edge_count_t local_entries() const { return index.entries(); }
  local_t to_local(local_t sorted) const { return sorted_to_local.empty() ? sorted : sorted_to_local[sorted]; }
  local_t to_sorted(local_t local) const { return local_to_sorted.empty() ? local : local_to_sorted[local]; }
};

// The sparse placement's sort keys: one word where a row and a target fit one (a target travels as
// a global id and is kept as a row-range position), else 12 bytes where they fit 96 bits, else a
// pair. Tests ask for the wider forms, the paths of ids past 64 bits.
enum class SortKeys { narrowest, sent_as_pairs, twelve_bytes, pairs };

// Collective over `comm`; `row_comm` and `col_comm` are this rank's processor row (ranked by
// column) and processor column (ranked by row). The result does not depend on rank or thread
// counts beyond the grid's shape.
template <class Column, class Position = Column>
Csr2D<Column, Position> build_csr_2d(const EdgeSource& source, const Partition2D& grid, const mpi::Comm& comm,
                                     const mpi::Comm& row_comm, const mpi::Comm& col_comm, bool sort_vertices,
                                     std::int64_t round = exchange::kBuildRound,
                                     RowPlacement placement = RowPlacement::automatic,
                                     SortKeys keys = SortKeys::narrowest, FilledRows filled = FilledRows::automatic);

// The expected share of the 2^scale vertices with at least one arc into a 1/split share of the
// vertices, for `tuples` Kronecker tuples: what a 2D rank's column range has of rows with entries
// (split: the grid's rows).
double kronecker_share_with_arcs(int scale, double tuples, double split);

// A rank's rows with entries, for the estimates: at most one a row of its column range and one an
// arc; with Kronecker degrees, the expected count (most arcs belong to few rows) with three
// standard deviations' room.
double filled_rows_bound(const GraphShape& shape, GridShape grid);

// Peak bytes per rank while build_csr_2d runs: the entries (with the room duplicates took), the
// row offsets of a column range (the cursors while rows fill; or, sparse, the sort keys and the
// filled rows' offsets), one round's buffers, the degree and sorting arrays of a block and the
// sorted-index table of a processor row. `id_bytes`: the width of a stored id (Column);
// `position_bytes`: of an entry (Position).
double csr_2d_build_bytes(const GraphShape& shape, GridShape grid, double id_bytes, double position_bytes,
                          RowPlacement placement = RowPlacement::automatic, FilledRows filled = FilledRows::automatic);
// The same, structure by structure (they sum to csr_2d_build_bytes).
std::vector<MemoryPart> csr_2d_build_parts(const GraphShape& shape, GridShape grid, double id_bytes,
                                           double position_bytes, RowPlacement placement = RowPlacement::automatic,
                                           FilledRows filled = FilledRows::automatic);

}  // namespace g500
