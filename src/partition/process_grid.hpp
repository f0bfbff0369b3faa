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
      : part_(part), grid_(grid), row_(part.rank() % grid.rows), col_(part.rank() / grid.rows),
        w_begin_(grid.cols + 1, 0) {
    for (int c = 0; c < grid.cols; ++c) w_begin_[c + 1] = w_begin_[c] + part.count_of(block_in_row(c));
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
  // The column (the rank in the row communicator) holding row-range position w.
  int col_of_w(vertex_t w) const {
    // Blocks differ by at most 64 vertices: an estimate, then a step or two.
    int c = static_cast<int>(static_cast<double>(w) / static_cast<double>(w_count()) * grid_.cols);
    c = std::min(std::max(c, 0), grid_.cols - 1);
    while (w_begin_[c] > w) --c;
    while (w_begin_[c + 1] <= w) ++c;
    return c;
  }

  // The rank that stores the entry (u, v): u's processor column, v's processor row.
  int storing_rank(vertex_t u, vertex_t v) const { return rank_of(grid_, row_of(v), col_of(u)); }

 private:
  const Partition1D& part_;
  GridShape grid_;
  int row_, col_;
  std::vector<vertex_t> w_begin_;
};

}  // namespace g500
