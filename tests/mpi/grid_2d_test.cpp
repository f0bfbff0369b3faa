// The 2D engines on every grid the rank count allows (1 x P, P x 1 and all between), with both
// fold formats, vertex sorting on and off, and exchange rounds small enough that every level takes
// many: each search validates and finds, level by level, the vertices a serial BFS finds.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "bfs/engines/grid_2d/grid_2d.hpp"
#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "exchange/rounds.hpp"
#include "fault_cases.hpp"
#include "generator/kronecker_source.hpp"
#include "graph/csr_2d.hpp"
#include "mpi/engine_check.hpp"
#include "partition/process_grid.hpp"
#include "test_graphs.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

std::vector<std::string> grids_of(int ranks) {
  std::vector<std::string> grids = {"auto"};
  for (int r = 1; r <= ranks; ++r)
    if (ranks % r == 0) grids.push_back(std::to_string(r) + "x" + std::to_string(ranks / r));
  return grids;
}

TEST(Grid2D, EveryGridFormatAndSorting) {
  const int ranks = mpi::Comm::world().size();
  const std::vector<Edge> kron = all_edges(KroneckerGenerator(10, 16, 21));
  std::vector<Edge> small = fault_graph_edges();
  small.push_back({kFaultGraphVertices - 1, kFaultGraphVertices - 1});
  for (const char* engine : {"top-down-2d", "hybrid-2d"}) {
    for (const std::string& grid : grids_of(ranks)) {
      for (FoldFormat format : {FoldFormat::vlq, FoldFormat::none}) {
        for (bool sort : {true, false}) {
          BfsOptions options;
          options.engine = engine;
          options.grid.grid = grid;
          options.grid.compress = format;
          options.grid.sort_vertices = sort;
          options.exchange_round = sort ? 0 : 40;
          SCOPED_TRACE(std::string(engine) + " grid " + grid + (format == FoldFormat::vlq ? " vlq" : " none") +
                       (sort ? " sorted" : " unsorted, rounds of 40"));
          check_engine(options, kron, {});
          check_engine(options, small, {0, 3, 5, 6});
        }
      }
    }
  }
}

// Two builds of the same graph hold the same rows, degrees and vertex order.
template <class Column, class Position>
void expect_same_graph(const Csr2D<Column, Position>& a, const Csr2D<Column, Position>& b) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.local_entries(), b.local_entries());
  for (local_t u = 0; u < a.rows(); ++u) {
    const auto x = a.row(u), y = b.row(u);
    ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << "row " << u;
  }
  EXPECT_TRUE(std::equal(a.degree.begin(), a.degree.end(), b.degree.begin(), b.degree.end()));
  EXPECT_TRUE(
      std::equal(a.sorted_to_local.begin(), a.sorted_to_local.end(), b.sorted_to_local.begin(), b.sorted_to_local.end()));
}

// Kernel 1's two placements build the same rows, degrees and vertex order, on every grid.
template <class Column, class Position>
void expect_placements_agree() {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(11, 16, 29);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (const std::string& shape : grids_of(world.size())) {
    if (shape == "auto") continue;
    const Partition2D grid(part, parse_grid(shape, world.size()));
    const mpi::Comm row = world.split(grid.row(), grid.col()), col = world.split(grid.col(), grid.row());
    for (bool sort : {true, false}) {
      SCOPED_TRACE("grid " + shape + (sort ? " sorted" : " unsorted"));
      const Csr2D<Column, Position> dense = build_csr_2d<Column, Position>(source, grid, world, row, col, sort,
                                                                           exchange::kBuildRound, RowPlacement::dense);
      const Csr2D<Column, Position> sparse = build_csr_2d<Column, Position>(
          source, grid, world, row, col, sort, exchange::kBuildRound, RowPlacement::sparse);
      expect_same_graph(dense, sparse);
      EXPECT_LE(sparse.index.filled_rows(), sparse.rows());
      // Keys as pairs in transit, kept in one word, in 12 bytes (64-bit positions) or as pairs (ids
      // past 64 bits of row and target): the same rows.
      for (SortKeys keys : {SortKeys::sent_as_pairs, SortKeys::twelve_bytes, SortKeys::pairs}) {
        expect_same_graph(sparse, build_csr_2d<Column, Position>(source, grid, world, row, col, sort,
                                                                 exchange::kBuildRound, RowPlacement::sparse, keys));
      }
      // Rows with entries listed from kernel 1 on (no bits): the same rows, degrees and order.
      const Csr2D<Column, Position> listed =
          build_csr_2d<Column, Position>(source, grid, world, row, col, sort, exchange::kBuildRound,
                                         RowPlacement::sparse, SortKeys::narrowest, FilledRows::list);
      ASSERT_TRUE(listed.index.listed());
      ASSERT_EQ(listed.index.filled_rows(), sparse.index.filled_rows());
      expect_same_graph(dense, listed);
      // Small rounds: the degrees' lengths travel in many rounds, each rank's owners in its own order.
      const Csr2D<Column, Position> rounds =
          build_csr_2d<Column, Position>(source, grid, world, row, col, sort, 97, RowPlacement::sparse);
      EXPECT_TRUE(std::equal(dense.degree.begin(), dense.degree.end(), rounds.degree.begin(), rounds.degree.end()));
      EXPECT_EQ(sparse.local_entries(), rounds.local_entries());
    }
  }
}

TEST(Grid2D, SparseAndDensePlacementsAgree) {
  expect_placements_agree<std::uint32_t, std::uint32_t>();
  expect_placements_agree<vertex_t, std::uint32_t>();
  expect_placements_agree<vertex_t, vertex_t>();
}

// The estimate's rows with entries (filled_rows_bound): the Kronecker model's count is the built
// graph's within a few percent over the ranks, and bounds every rank's; a file's graph keeps the
// plain bound of one row an arc.
TEST(Grid2D, FilledRowsAsTheKroneckerModelExpects) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(14, 16, 31);
  const KroneckerSource source(gen, world.rank(), world.size());
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (const std::string& shape : grids_of(world.size())) {
    if (shape == "auto") continue;
    SCOPED_TRACE("grid " + shape);
    const GridShape g = parse_grid(shape, world.size());
    const Partition2D grid(part, g);
    const mpi::Comm row = world.split(grid.row(), grid.col()), col = world.split(grid.col(), grid.row());
    const Csr2D<std::uint32_t, std::uint32_t> csr = build_csr_2d<std::uint32_t, std::uint32_t>(
        source, grid, world, row, col, true, exchange::kBuildRound, RowPlacement::sparse);
    const double vertices = static_cast<double>(gen.num_vertices()), tuples = static_cast<double>(gen.num_edges());
    const GraphShape kronecker{vertices, tuples, world.size(), true};
    const double bound = filled_rows_bound(kronecker, g);
    EXPECT_LE(static_cast<double>(csr.index.filled_rows()), bound);
    const double filled = static_cast<double>(world.allreduce<std::int64_t>(csr.index.filled_rows(), mpi::Op::sum));
    const double expected = kronecker_share_with_arcs(14, tuples, g.rows) * vertices * g.rows;
    EXPECT_NEAR(filled, expected, 0.03 * expected) << "measured " << filled << " expected " << expected;
    const GraphShape file{vertices, tuples, world.size(), false};
    const double arcs = 2 * tuples / world.size() + 1, n_col = vertices / g.cols + 64 * g.rows;
    EXPECT_DOUBLE_EQ(filled_rows_bound(file, g), std::min(n_col, arcs));
  }
}

// Kernel 1's sparse rows (offsets of rows with entries only, from sorted keys), found by bits or
// from a list, give the same searches as the dense table, on every grid, with both id widths.
TEST(Grid2D, SparseRowsAsTheDenseTable) {
  const int ranks = mpi::Comm::world().size();
  const std::vector<Edge> kron = all_edges(KroneckerGenerator(10, 16, 23));
  for (const char* engine : {"top-down-2d", "hybrid-2d"}) {
    for (const std::string& grid : grids_of(ranks)) {
      // Ids and positions: both 32-bit, 64-bit ids with 32-bit positions, both 64-bit.
      for (IdWidth positions : {IdWidth::automatic, IdWidth::bits32, IdWidth::bits64}) {
        const IdWidth ids = positions == IdWidth::automatic ? IdWidth::automatic : IdWidth::bits64;
        for (bool sort : {true, false}) {
          for (FilledRows filled : {FilledRows::bitmap, FilledRows::list}) {
            BfsOptions options;
            options.engine = engine;
            options.grid.grid = grid;
            options.grid.rows = RowPlacement::sparse;
            options.grid.filled_rows = filled;
            options.grid.sort_vertices = sort;
            options.ids = ids;
            options.grid.positions = positions;
            SCOPED_TRACE(std::string(engine) + " grid " + grid + (ids == IdWidth::bits64 ? " 64-bit ids" : "") +
                         (positions == IdWidth::bits32 ? ", 32-bit positions" : "") + (sort ? " sorted" : " unsorted") +
                         (filled == FilledRows::list ? ", rows listed" : ""));
            check_engine(options, kron, {});
          }
        }
      }
    }
  }
}

// The column's and the row's frontiers in one storage, which top-down and bottom-up levels take in
// turn (and no at-once search in the tail): the same searches on every grid, both placements.
TEST(Grid2D, SharedFrontierStorage) {
  const std::vector<Edge> kron = all_edges(KroneckerGenerator(11, 16, 37));
  for (const std::string& grid : grids_of(mpi::Comm::world().size())) {
    for (RowPlacement rows : {RowPlacement::dense, RowPlacement::sparse}) {
      BfsOptions options;
      options.engine = "hybrid-2d";
      options.grid.grid = grid;
      options.grid.rows = rows;
      options.grid.frontiers = FrontierStorage::shared;
      SCOPED_TRACE("grid " + grid + (rows == RowPlacement::dense ? " dense" : " sparse"));
      check_engine(options, kron, {});
    }
  }
  // auto shares from 256 grid rows of a square grid at edgefactor 16, and not below
  const double n = std::ldexp(1.0, 40);
  EXPECT_TRUE(shares_frontiers(FrontierStorage::automatic, {256, 256}, n, 16 * n));
  EXPECT_FALSE(shares_frontiers(FrontierStorage::automatic, {128, 128}, n, 16 * n));
  EXPECT_FALSE(shares_frontiers(FrontierStorage::apart, {1024, 1024}, n, 16 * n));
}

// Listed rows are walked in step with the scan, across its chunks and threads (blocks of many
// chunks here, two threads): every search validates and finds each level's vertices.
TEST(Grid2D, ListedRowsAcrossScanChunks) {
  const std::vector<Edge> edges = all_edges(KroneckerGenerator(17, 4, 31));
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  BfsOptions options;
  options.engine = "hybrid-2d";
  options.grid.rows = RowPlacement::sparse;
  options.grid.filled_rows = FilledRows::list;
  check_engine(options, edges, {});
  omp_set_num_threads(threads);
}

// 64-bit stored ids take the same paths, with 32- or 64-bit positions, on either placement.
TEST(Grid2D, SixtyFourBitIds) {
  for (IdWidth positions : {IdWidth::bits32, IdWidth::bits64}) {
    for (RowPlacement rows : {RowPlacement::dense, RowPlacement::sparse}) {
      BfsOptions options;
      options.engine = "hybrid-2d";
      options.ids = IdWidth::bits64;
      options.grid.positions = positions;
      options.grid.rows = rows;
      SCOPED_TRACE(std::string(positions == IdWidth::bits32 ? "32" : "64") + "-bit positions, " +
                   (rows == RowPlacement::dense ? "dense" : "sparse") + " rows");
      check_engine(options, all_edges(KroneckerGenerator(10, 16, 22)), {});
    }
  }
}

// A grid that does not match the rank count is the user's error, on every rank.
TEST(Grid2D, WrongGridIsAUserError) {
  const mpi::Comm world = mpi::Comm::world();
  const Partition1D part(1024, world.size(), world.rank());
  BfsOptions options;
  options.engine = "top-down-2d";
  options.grid.grid = std::to_string(world.size() + 1) + "x1";
  options.ids = IdWidth::bits32;
  EXPECT_THROW(find_engine("top-down-2d").make(EngineContext{world, part, options}), UserError);
}

}  // namespace
}  // namespace g500
