#include "graph/csr_2d.hpp"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "graph/row_builder.hpp"
#include "graph/row_sort.hpp"

namespace g500 {
namespace {

// Each vertex's degree, summed over the processor column: every rank of the column holds the row
// lengths of all of V_j (its own entries), and rank i of the column gets the sums for its block.
template <class Column>
big_vector<Column> block_degrees(const big_vector<edge_count_t>& offsets, const Partition2D& grid,
                                 const mpi::Comm& col_comm) {
  const Partition1D& part = grid.part();
  const local_t rows = static_cast<local_t>(offsets.size()) - 1;
  std::vector<Column> lengths(rows);  // a degree is below N, so it fits a stored id
#pragma omp parallel for schedule(static)
  for (local_t u = 0; u < rows; ++u) lengths[u] = static_cast<Column>(offsets[u + 1] - offsets[u]);
  mpi::Counts counts(grid.grid().rows);
  for (int i = 0; i < grid.grid().rows; ++i) counts[i] = part.count_of(grid.col() * grid.grid().rows + i);
  big_vector<Column> degree(part.local_count());
  col_comm.reduce_scatter<Column>(lengths, degree, counts, mpi::Op::sum);
  return degree;
}

// The block's vertices by decreasing degree, ties by index.
template <class Column>
void sort_block(Csr2D<Column>& csr) {
  const local_t n = static_cast<local_t>(csr.degree.size());
  csr.sorted_to_local.resize(n);
  std::iota(csr.sorted_to_local.begin(), csr.sorted_to_local.end(), Column{0});
  std::stable_sort(csr.sorted_to_local.begin(), csr.sorted_to_local.end(),
                   [&](Column a, Column b) { return csr.degree[a] > csr.degree[b]; });
  csr.local_to_sorted.resize(n);
  for (local_t s = 0; s < n; ++s) csr.local_to_sorted[csr.sorted_to_local[s]] = static_cast<Column>(s);
}

}  // namespace

template <class Column>
Csr2D<Column> build_csr_2d(const EdgeSource& source, const Partition2D& grid, const mpi::Comm& comm,
                           const mpi::Comm& row_comm, const mpi::Comm& col_comm, bool sort_vertices,
                           std::int64_t round) {
  const Partition1D& part = grid.part();
  rows::Rows<Column> placed = rows::place_arcs<Column>(
      source, comm, round, grid.col_count(grid.col()), part.num_vertices(), [&](vertex_t u, vertex_t v) { return grid.storing_rank(u, v); },
      [&](int rank) { return grid.col_begin(rank / grid.grid().rows); });
  big_vector<edge_count_t>& offsets = placed.offsets;  // wide while kernel 1 moves rows
  Csr2D<Column> csr{{}, std::move(placed.columns), {}, {}, {}};
  rows::sort_rows_by_id(offsets, csr.columns);
  csr.degree = block_degrees<Column>(offsets, grid, col_comm);

  // Entries become row-range positions. Global ids rise with the column, and so with the row-range position,
  // block by block, so rows stay in order unless the blocks are sorted.
  std::vector<Column> w_sorted;  // sorted index of every row-range position's vertex
  if (sort_vertices) {
    sort_block(csr);
    mpi::Counts counts(grid.grid().cols), displs(grid.grid().cols);
    for (int c = 0; c < grid.grid().cols; ++c) {
      counts[c] = part.count_of(grid.block_in_row(c));
      displs[c] = grid.w_begin(c);
    }
    w_sorted.resize(grid.w_count());
    row_comm.allgatherv<Column>({csr.local_to_sorted.data(), csr.local_to_sorted.size()}, w_sorted.data(), counts,
                                displs);
  }
  const std::int64_t entries = static_cast<std::int64_t>(offsets.back());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < entries; ++k) {
    const vertex_t v = static_cast<vertex_t>(csr.columns[k]);
    const int owner = part.owner(v);
    const vertex_t w = grid.w_begin(owner / grid.grid().rows) + (v - part.begin_of(owner));
    csr.columns[k] = static_cast<Column>(sort_vertices ? grid.w_begin(owner / grid.grid().rows) + w_sorted[w] : w);
  }
  if (sort_vertices) {
    std::vector<Column>().swap(w_sorted);
    rows::sort_rows_by_id(offsets, csr.columns);
  }
  csr.offsets = RowOffsets(std::move(offsets));
  return csr;
}

double csr_2d_build_bytes(double vertices, double tuples, GridShape grid, double id_bytes) {
  const double ranks = static_cast<double>(grid.rows) * grid.cols;
  const double n_local = vertices / ranks + 64, n_col = vertices / grid.cols + 64 * grid.rows;
  const double n_row = vertices / grid.rows + 64 * grid.cols, m_local = tuples / ranks + 1;
  const double round = m_local < exchange::kBuildRound ? m_local : static_cast<double>(exchange::kBuildRound);
  return id_bytes * 2 * m_local + 2 * 8 * n_col + 16 * round + 4 * 2 * 2 * id_bytes * round +
         (8 + 2 * id_bytes) * n_local + id_bytes * n_row;
}

template Csr2D<std::uint32_t> build_csr_2d(const EdgeSource&, const Partition2D&, const mpi::Comm&, const mpi::Comm&,
                                           const mpi::Comm&, bool, std::int64_t);
template Csr2D<vertex_t> build_csr_2d(const EdgeSource&, const Partition2D&, const mpi::Comm&, const mpi::Comm&,
                                      const mpi::Comm&, bool, std::int64_t);

}  // namespace g500
