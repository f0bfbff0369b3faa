// The 2D engines on every grid the rank count allows (1 x P, P x 1 and all between), with both
// fold formats, vertex sorting on and off, and exchange rounds small enough that every level takes
// many: each search validates and finds, level by level, the vertices a serial BFS finds.
#include <gtest/gtest.h>

#include <string>

#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "fault_cases.hpp"
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
  EXPECT_THROW(find_engine("top-down-2d").make(EngineContext{world, part, options}), UserError);
}

}  // namespace
}  // namespace g500
