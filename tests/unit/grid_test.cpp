#include <gtest/gtest.h>

#include "core/error.hpp"
#include "partition/process_grid.hpp"

namespace g500 {
namespace {

TEST(ProcessGrid, DefaultIsTheMostSquare) {
  auto is = [](GridShape g, int r, int c) { return g.rows == r && g.cols == c; };
  EXPECT_TRUE(is(default_grid(1), 1, 1));
  EXPECT_TRUE(is(default_grid(2), 1, 2));
  EXPECT_TRUE(is(default_grid(4), 2, 2));
  EXPECT_TRUE(is(default_grid(6), 2, 3));
  EXPECT_TRUE(is(default_grid(7), 1, 7));
  EXPECT_TRUE(is(default_grid(16), 4, 4));
  EXPECT_TRUE(is(default_grid(18), 3, 6));
}

TEST(ProcessGrid, ParseChecksTheRankCount) {
  EXPECT_EQ(parse_grid("3x2", 6).rows, 3);
  EXPECT_EQ(parse_grid("3x2", 6).cols, 2);
  EXPECT_EQ(parse_grid("auto", 6).rows, 2);
  EXPECT_THROW(parse_grid("2x2", 6), UserError);
  EXPECT_THROW(parse_grid("0x6", 6), UserError);
  EXPECT_THROW(parse_grid("6", 6), UserError);
  EXPECT_THROW(parse_grid("2x", 6), UserError);
  EXPECT_THROW(parse_grid("x3", 6), UserError);
  EXPECT_THROW(parse_grid("-2x-3", 6), UserError);
  EXPECT_THROW(parse_grid("99999999x1", 6), UserError);
}

// col_of_w's cells name the block that holds each position, for blocks of uneven sizes and for
// empty ones (fewer words than ranks), and row_block_begin is that block's first vertex.
TEST(ProcessGrid, ColumnOfEveryPositionThroughTheCells) {
  for (const auto& [n, g] : std::vector<std::pair<vertex_t, GridShape>>{
           {1000, {2, 3}}, {200, {3, 4}}, {64 * 7 + 5, {1, 5}}, {100000, {4, 3}}, {1 << 16, {4, 4}}, {130, {1, 1}}}) {
    const int ranks = g.rows * g.cols;
    std::vector<Partition1D> parts;
    for (int r = 0; r < ranks; ++r) parts.emplace_back(n, ranks, r);
    for (int r = 0; r < ranks; ++r) {
      const Partition2D p(parts[r], g);
      for (int c = 0; c < g.cols; ++c) {
        EXPECT_EQ(p.row_block_begin(c), parts[r].begin_of(p.block_in_row(c)));
        const vertex_t end = c + 1 < g.cols ? p.w_begin(c + 1) : p.w_count();
        for (vertex_t w = p.w_begin(c); w < end; ++w)
          ASSERT_EQ(p.col_of_w(w), c) << "n " << n << " rank " << r << " w " << w;
      }
    }
  }
}

// Every vertex has one owner, one column range and one W position per processor row; W positions
// of a row cover its blocks end to end, and the storing rank of (u, v) is in u's column and v's row.
TEST(ProcessGrid, PartitionCoversTheVertices) {
  const vertex_t n = 1000;
  const GridShape g{2, 3};
  std::vector<Partition1D> parts;
  for (int r = 0; r < 6; ++r) parts.emplace_back(n, 6, r);
  for (int r = 0; r < 6; ++r) {
    const Partition2D p(parts[r], g);
    EXPECT_EQ(Partition2D::rank_of(g, p.row(), p.col()), r);
    vertex_t w_total = 0;
    for (int c = 0; c < g.cols; ++c) {
      EXPECT_EQ(p.w_begin(c), w_total);
      w_total += parts[r].count_of(p.block_in_row(c));
      EXPECT_EQ(p.row_of(parts[r].begin_of(p.block_in_row(c))), p.row());
    }
    EXPECT_EQ(p.w_count(), w_total);
    for (vertex_t w = 0; w < p.w_count(); ++w) {
      const int c = p.col_of_w(w);
      ASSERT_TRUE(w >= p.w_begin(c) && w < p.w_begin(c + 1 < g.cols ? c + 1 : 0) + (c + 1 < g.cols ? 0 : p.w_count()));
    }
    vertex_t covered = 0;
    for (int c = 0; c < g.cols; ++c) covered += p.col_count(c);
    EXPECT_EQ(covered, n);
    for (vertex_t u = 0; u < n; u += 37) {
      for (vertex_t v = 0; v < n; v += 41) {
        const int s = p.storing_rank(u, v);
        EXPECT_EQ(s / g.rows, p.col_of(u));
        EXPECT_EQ(s % g.rows, p.row_of(v));
        EXPECT_TRUE(u >= p.col_begin(p.col_of(u)) && u < p.col_end(p.col_of(u)));
      }
    }
  }
}

}  // namespace
}  // namespace g500
