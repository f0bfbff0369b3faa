// The 2D engines on every grid the rank count allows (1 x P, P x 1 and all between), with both
// fold formats, vertex sorting on and off, and exchange rounds small enough that every level takes
// many: each search validates and finds, level by level, the vertices a serial BFS finds.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

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

// Kernel 1's two placements build the same rows, degrees and vertex order, on every grid.
template <class Column>
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
      const Csr2D<Column> dense =
          build_csr_2d<Column>(source, grid, world, row, col, sort, exchange::kBuildRound, RowPlacement::dense);
      const Csr2D<Column> sparse =
          build_csr_2d<Column>(source, grid, world, row, col, sort, exchange::kBuildRound, RowPlacement::sparse);
      ASSERT_EQ(dense.rows(), sparse.rows());
      ASSERT_EQ(dense.local_entries(), sparse.local_entries());
      for (local_t u = 0; u < dense.rows(); ++u) {
        const auto a = dense.row(u), b = sparse.row(u);
        ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "row " << u;
      }
      EXPECT_TRUE(std::equal(dense.degree.begin(), dense.degree.end(), sparse.degree.begin(), sparse.degree.end()));
      EXPECT_TRUE(std::equal(dense.sorted_to_local.begin(), dense.sorted_to_local.end(), sparse.sorted_to_local.begin(),
                             sparse.sorted_to_local.end()));
      EXPECT_LE(sparse.index.filled_rows(), sparse.rows());
      // Keys as pairs, in transit only and kept too (ids past 64 bits of row and target): the same rows.
      for (SortKeys keys : {SortKeys::sent_as_pairs, SortKeys::pairs}) {
        const Csr2D<Column> paired = build_csr_2d<Column>(source, grid, world, row, col, sort, exchange::kBuildRound,
                                                          RowPlacement::sparse, keys);
        ASSERT_EQ(paired.local_entries(), sparse.local_entries());
        for (local_t u = 0; u < dense.rows(); ++u) {
          const auto a = sparse.row(u), b = paired.row(u);
          ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "row " << u;
        }
        EXPECT_TRUE(std::equal(sparse.degree.begin(), sparse.degree.end(), paired.degree.begin(), paired.degree.end()));
      }
      // Small rounds: the degrees' lengths travel in many rounds, each rank's owners in its own order.
      const Csr2D<Column> rounds = build_csr_2d<Column>(source, grid, world, row, col, sort, 97, RowPlacement::sparse);
      EXPECT_TRUE(std::equal(dense.degree.begin(), dense.degree.end(), rounds.degree.begin(), rounds.degree.end()));
      EXPECT_EQ(sparse.local_entries(), rounds.local_entries());
    }
  }
}

TEST(Grid2D, SparseAndDensePlacementsAgree) {
  expect_placements_agree<std::uint32_t>();
  expect_placements_agree<vertex_t>();
}

// Kernel 1's sparse rows (offsets of rows with entries only, from sorted keys) give the same
// searches as the dense table, on every grid, with both id widths.
TEST(Grid2D, SparseRowsAsTheDenseTable) {
  const int ranks = mpi::Comm::world().size();
  const std::vector<Edge> kron = all_edges(KroneckerGenerator(10, 16, 23));
  for (const char* engine : {"top-down-2d", "hybrid-2d"}) {
    for (const std::string& grid : grids_of(ranks)) {
      for (IdWidth ids : {IdWidth::automatic, IdWidth::bits64}) {
        for (bool sort : {true, false}) {
          BfsOptions options;
          options.engine = engine;
          options.grid.grid = grid;
          options.grid.rows = RowPlacement::sparse;
          options.grid.sort_vertices = sort;
          options.ids = ids;
          SCOPED_TRACE(std::string(engine) + " grid " + grid + (ids == IdWidth::bits64 ? " 64-bit" : "") +
                       (sort ? " sorted" : " unsorted"));
          check_engine(options, kron, {});
        }
      }
    }
  }
}

// 64-bit stored ids take the same paths.
TEST(Grid2D, SixtyFourBitIds) {
  BfsOptions options;
  options.engine = "hybrid-2d";
  options.ids = IdWidth::bits64;
  check_engine(options, all_edges(KroneckerGenerator(10, 16, 22)), {});
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
