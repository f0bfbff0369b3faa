// The conformance test every engine of the registry passes: on several graphs and thread counts
// (and, through ctest, rank counts), every search validates and finds, level by level, exactly the
// vertices a serial BFS finds. A new engine is tested by adding its registry row.
#include <gtest/gtest.h>
#include <omp.h>

#include "bfs/registry.hpp"
#include "fault_cases.hpp"
#include "mpi/engine_check.hpp"
#include "test_graphs.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

struct Conformance {
  std::string engine;
  int threads;
  IdWidth ids;
};

class EngineConformance : public ::testing::TestWithParam<Conformance> {};

BfsOptions options_of(const Conformance& c) {
  BfsOptions options;
  options.engine = c.engine;
  options.ids = c.ids;
  options.grid.positions = c.ids;  // 64: every stored id, 2D positions too
  return options;
}

TEST_P(EngineConformance, KroneckerSearchesMatchSerialBfs) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam().threads);
  check_engine(options_of(GetParam()), all_edges(KroneckerGenerator(11, 16, 13)), {});
  omp_set_num_threads(saved);
}

// Self-loops, a duplicate, a second component, isolated vertices, a root in a two-vertex component.
TEST_P(EngineConformance, SmallGraphWithLoopsDuplicatesAndComponents) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam().threads);
  std::vector<Edge> edges = fault_graph_edges();
  edges.push_back({kFaultGraphVertices - 1, kFaultGraphVertices - 1});  // N = 16 from the edges
  check_engine(options_of(GetParam()), edges, {0, 3, 5, 6});
  omp_set_num_threads(saved);
}

std::vector<Conformance> every_engine() {
  std::vector<Conformance> all;
  for (const EngineSpec& e : engine_table())
    for (int threads : {1, 2})
      for (IdWidth ids : {IdWidth::automatic, IdWidth::bits64}) all.push_back({e.name, threads, ids});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Registry, EngineConformance, ::testing::ValuesIn(every_engine()), [](const auto& info) {
  std::string name = info.param.engine + "_t" + std::to_string(info.param.threads) +
                     (info.param.ids == IdWidth::bits64 ? "_ids64" : "_idsauto");
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

}  // namespace
}  // namespace g500
