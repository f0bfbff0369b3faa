#pragma once
// 2D partitioning (paper 004, Fig. 4): P = R x C ranks in a grid, rank = col * R + row, so the R
// ranks of a processor column are consecutive and their 1D blocks form one contiguous range of
// vertices, the column's range V_j. Rank (i, j) stores the adjacency entries (u, v) with u in V_j
// and v in W_i, the union of the blocks of processor row i: a level's frontier is gathered within
// a processor column (expand), and edges go to their targets' owners within a processor row (fold).
// Vertex blocks stay those of the common 1D partition, so parents need no moving.
#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

struct GridShape {
  int rows = 1;
  int cols = 1;
};

// The most row-range positions a processor row of `grid` can hold over an N-vertex 1D partition: C
// of its largest blocks (blocks are whole words and differ by at most one).
inline std::int64_t widest_row_range(std::int64_t vertices, GridShape grid) {
  const std::int64_t words = (vertices + 63) / 64, ranks = static_cast<std::int64_t>(grid.rows) * grid.cols;
  return std::min(vertices, grid.cols * ((words + ranks - 1) / ranks) * 64);
}

// The most square grid of `ranks`: R the largest divisor not above sqrt(P), so R <= C (a prime
// count gives 1 x P).
inline GridShape default_grid(int ranks) {
  int rows = 1;
  for (int r = 1; static_cast<long long>(r) * r <= ranks; ++r)
    if (ranks % r == 0) rows = r;
  return {rows, ranks / rows};
}

// "auto" or "RxC" with R * C = ranks; anything else is a UserError that says why (naming `flag`).
inline GridShape parse_grid(const std::string& text, int ranks, const std::string& flag = "--grid") {
  if (text == "auto") return default_grid(ranks);
  const std::size_t x = text.find('x');
  auto number = [&](const std::string& part) {
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) {
      throw UserError(flag + " must be RxC (for example 2x3) or auto, got '" + text + "'");
    }
    return std::stoi(part);
  };
  if (x == std::string::npos) number("");
  const GridShape g{number(text.substr(0, x)), number(text.substr(x + 1))};
  if (g.rows < 1 || g.cols < 1 || static_cast<long long>(g.rows) * g.cols != ranks) {
    throw UserError(flag + " " + text + " needs " + std::to_string(static_cast<long long>(g.rows) * g.cols) +
                    " ranks, but the run has " + std::to_string(ranks));
  }
  return g;
}

// Who holds what on a grid, over the common 1D partition.
class Partition2D {
 public:
  Partition2D(const Partition1D& part, GridShape grid)
      : part_(part),
        grid_(grid),
        row_(part.rank() % grid.rows),
        col_(part.rank() / grid.rows),
        w_begin_(grid.cols + 1, 0),
        block_begin_(grid.cols) {
    vertex_t smallest = part.num_vertices();
    for (int c = 0; c < grid.cols; ++c) {
      w_begin_[c + 1] = w_begin_[c] + part.count_of(block_in_row(c));
      block_begin_[c] = part.begin_of(block_in_row(c));
      smallest = std::min(smallest, part.count_of(block_in_row(c)));
    }
    // Cells of 2^shift positions, no larger than the smallest block, so that a cell's first
    // position's column is the column of any position in it, or the one before (empty blocks
    // aside); at most a few cells a column.
    while ((vertex_t{2} << w_shift_) <= smallest) ++w_shift_;
    while ((w_count() >> w_shift_) > 4 * static_cast<vertex_t>(grid.cols) + 64) ++w_shift_;
    w_cell_col_.resize(static_cast<std::size_t>(w_count() >> w_shift_) + 1);
    int c = 0;
    for (std::size_t cell = 0; cell < w_cell_col_.size(); ++cell) {
      while (c + 1 < grid.cols && w_begin_[c + 1] <= static_cast<vertex_t>(cell) << w_shift_) ++c;
      w_cell_col_[cell] = c;
    }
  }

  const Partition1D& part() const { return part_; }
  GridShape grid() const { return grid_; }
  int row() const { return row_; }  // i: this rank's processor row, and its rank in the column communicator
  int col() const { return col_; }  // j: this rank's processor column, and its rank in the row communicator
  static int rank_of(GridShape g, int row, int col) { return col * g.rows + row; }

  // V_j: the vertices of processor column c, whose frontier the column gathers.
  vertex_t col_begin(int c) const { return part_.begin_of(c * grid_.rows); }
  vertex_t col_end(int c) const { return part_.begin_of((c + 1) * grid_.rows); }
  vertex_t col_count(int c) const { return col_end(c) - col_begin(c); }
  int col_of(vertex_t v) const { return part_.owner(v) / grid_.rows; }

  // W_i (paper 004): the blocks of this processor row, one per column c, laid end to end. A
  // vertex's "row-range position" is its place in W_i: its block's offset plus its index there.
  int block_in_row(int c) const { return c * grid_.rows + row_; }
  vertex_t w_begin(int c) const { return w_begin_[c]; }
  vertex_t w_count() const { return w_begin_[grid_.cols]; }
  int row_of(vertex_t v) const { return part_.owner(v) % grid_.rows; }
  // The row-range position of v, a vertex of this processor row's blocks, before any sorting: its
  // block's offset in W_i plus its index in the block.
  vertex_t position_of(vertex_t v) const {
    const int owner = part_.owner(v);
    return w_begin_[owner / grid_.rows] + (v - part_.begin_of(owner));
  }
  // The column (the rank in the row communicator) holding row-range position w.
  // Hot in a bottom-up step's finds: a table of cells, then a step at most (past empty blocks, more).
  // A loop may copy the view, so that its tables stay in registers.
  struct ColumnOfPosition {
    const int* cell_col;
    int shift;
    const vertex_t* w_begin;
    int operator()(vertex_t w) const {
      int c = cell_col[static_cast<std::size_t>(w >> shift)];
      while (w_begin[c + 1] <= w) ++c;
      return c;
    }
  };
  ColumnOfPosition column_of_position() const { return {w_cell_col_.data(), w_shift_, w_begin_.data()}; }
  int col_of_w(vertex_t w) const { return column_of_position()(w); }
  const vertex_t* row_block_begins() const { return block_begin_.data(); }
  // The first vertex of the block of processor row i (this rank's) in column c.
  vertex_t row_block_begin(int c) const { return block_begin_[c]; }

  // The rank that stores the entry (u, v): u's processor column, v's processor row.
  int storing_rank(vertex_t u, vertex_t v) const { return rank_of(grid_, row_of(v), col_of(u)); }

 private:
  const Partition1D& part_;
  GridShape grid_;
  int row_, col_;
  std::vector<vertex_t> w_begin_;
  std::vector<vertex_t> block_begin_;  // this processor row's blocks' first vertices, by column
  int w_shift_ = 0;                    // col_of_w's cells: 2^w_shift_ positions each
  std::vector<int> w_cell_col_;        // the column of each cell's first position
};

// The blocks of this rank's processor row by row-range position, as a partition for OwnerQuery
// (exchange/owner_query.hpp): rank c of the row holds column c's block, and a position's place in
// its block is the block's index (the sorted one, with vertex sorting).
struct RowRangeBlocks {
  const Partition2D& grid;
  int owner(vertex_t w) const { return grid.col_of_w(w); }
  bool owns(vertex_t w) const { return grid.col_of_w(w) == grid.col(); }
  local_t to_local(vertex_t w) const { return w - grid.w_begin(grid.col_of_w(w)); }
};

}  // namespace g500
