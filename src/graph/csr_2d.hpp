#pragma once
// Kernel 1 for 2D engines (paper 004, Fig. 4 and Algorithm III): the adjacency entries (u, v) a
// grid rank stores, u in its processor column's range V_j and v in its processor row's blocks W_i,
// as rows by u. Each entry is v's row-range position: the offset of v's block in W_i plus v's index in that
// block, in degree-sorted order when vertex sorting is on (paper 004 §4.4: the receiver's visited
// bitmap is indexed in that order, so the bits of hubs share cache lines). Rows rise, so a row's
// entries for one receiver come together, in order. Each vertex's degree is the sum of its row
// lengths over the processor column: the same number the 1D engines see.
#include <cstdint>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "graph/row_offsets.hpp"
#include "mpi/comm.hpp"
#include "partition/process_grid.hpp"

namespace g500 {

template <class Column>
struct Csr2D {
  RowOffsets offsets;                // one row per vertex of V_j, + 1
  big_vector<Column> columns;        // row-range positions
  big_vector<Column> degree;         // of each vertex of this rank's 1D block, by local index
  // With vertex sorting, this block's vertices by decreasing degree (ties by index): sorted index
  // -> local index, and back. Empty without sorting: the identity.
  big_vector<Column> sorted_to_local, local_to_sorted;

  local_t rows() const { return static_cast<local_t>(offsets.size()) - 1; }
  edge_count_t row_length(local_t u) const { return offsets[u + 1] - offsets[u]; }
  const Column* begin(local_t u) const { return columns.data() + offsets[u]; }
  const Column* end(local_t u) const { return columns.data() + offsets[u + 1]; }
  edge_count_t local_entries() const { return offsets.back(); }
  local_t to_local(local_t sorted) const { return sorted_to_local.empty() ? sorted : sorted_to_local[sorted]; }
  local_t to_sorted(local_t local) const { return local_to_sorted.empty() ? local : local_to_sorted[local]; }
};

// Collective over `comm`; `row_comm` and `col_comm` are this rank's processor row (ranked by
// column) and processor column (ranked by row). The result does not depend on rank or thread
// counts beyond the grid's shape.
template <class Column>
Csr2D<Column> build_csr_2d(const EdgeSource& source, const Partition2D& grid, const mpi::Comm& comm,
                           const mpi::Comm& row_comm, const mpi::Comm& col_comm, bool sort_vertices,
                           std::int64_t round = exchange::kBuildRound);

// Peak bytes per rank while build_csr_2d runs: the entries (with the room duplicates took), the
// row offsets of a column range (the cursors while rows fill), one round's buffers, the degree
// and sorting arrays of a block and the sorted-index table of a processor row. `id_bytes`: the
// width of a stored entry.
double csr_2d_build_bytes(double vertices, double tuples, GridShape grid, double id_bytes);

}  // namespace g500
