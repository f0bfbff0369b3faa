#pragma once
// What an engine tells the registry about itself: its --bfs name, one line of help, how to make it,
// how much memory it needs, the MPI thread level and the option groups it reads. Each engine
// defines its spec in its own files (NAME_engine()); src/bfs/registry.cpp lists them, a row each.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/option_groups.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// The size of the problem a memory estimate is for.
struct GraphShape {
  double vertices = 0;  // N
  double tuples = 0;    // M, input tuples in the whole list
  int ranks = 1;
};

struct EngineSpec {
  std::string name;  // the --bfs value
  std::string help;  // one line for --help
  std::unique_ptr<BfsEngine> (*make)(const EngineContext&);
  // Peak bytes per rank of the engine's own graph, search state and kernel-1 buffers.
  std::int64_t (*memory_bytes)(const GraphShape&, const BfsOptions&);
  mpi::ThreadLevel thread_level;  // what MPI must be initialised with
  std::vector<const OptionGroup*> option_groups;
  // Builds 1D rows (graph/csr_1d.hpp), so the vertex count may count their arcs for it
  // (EngineContext::arc_sketch).
  bool reads_arc_sketch = false;
};

}  // namespace g500
