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

// An engine's peak bytes per rank in each of its two phases: while kernel 1 builds its graph (the
// build's buffers beside the growing graph) and while it searches (the graph and the search state,
// the build's buffers gone). The harness adds what it holds in each phase and takes the larger.
struct EngineMemory {
  double build = 0, search = 0;
};

struct EngineSpec {
  std::string name;  // the --bfs value
  std::string help;  // one line for --help
  std::unique_ptr<BfsEngine> (*make)(const EngineContext&);
  // The engine's own peaks: its graph, search state and kernel-1 buffers.
  EngineMemory (*memory_bytes)(const GraphShape&, const BfsOptions&);
  mpi::ThreadLevel thread_level;  // what MPI must be initialised with
  std::vector<const OptionGroup*> option_groups;
  // Builds 1D rows (graph/csr_1d.hpp), so the vertex count may count their arcs for it
  // (EngineContext::arc_sketch).
  bool reads_arc_sketch = false;
};

}  // namespace g500
