#pragma once
// The engine table: one row per BFS technique. --help, the unknown-name error, the option checks,
// the memory check, the MPI thread level and the JSON all read it; adding an engine is its own file
// plus one row in registry.cpp.
#include <memory>
#include <string>
#include <vector>

#include "bfs/engine_factories.hpp"
#include "bfs/option_groups.hpp"
#include "mpi/comm.hpp"

namespace g500 {

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

// Every engine, in the order --help lists them.
const std::vector<EngineSpec>& engine_table();
// Throws UserError naming the known engines.
const EngineSpec& find_engine(const std::string& name);
// "a|b|c", for messages.
std::string engine_list();

}  // namespace g500
