#pragma once
// What an engine of either searching kernel tells its registry (kernel 2's rows in
// bfs/registry.cpp, kernel 3's in sssp/sssp_spec.cpp): its name, one line of help, how to make it
// from its context, how much memory it needs, the MPI thread level and the option groups it reads.
// One type for both kernels, over the kernel's engine, context and options.
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mpi/comm.hpp"

namespace CLI {
class App;
}

namespace g500 {

// The size of the problem a memory estimate is for.
struct GraphShape {
  double vertices = 0;  // N
  double tuples = 0;    // M, input tuples in the whole list
  int ranks = 1;
  // Degrees as the Kronecker generator makes them (the estimate may count on their skew); false
  // for a graph read from a file, whose degrees are unknown.
  bool kronecker = true;
};

// An engine's peak bytes per rank: while kernel 1 builds its graph (the build's buffers beside the
// growing graph), what it keeps between searches once their buffers are released (its graph;
// 0 where the engine releases nothing), and while it searches (the graph and the search state).
// The harness adds what it holds in each phase and takes the largest.
struct MemoryPart {
  std::string name;
  double bytes = 0;
};
inline double total_bytes(const std::vector<MemoryPart>& parts) {
  double bytes = 0;
  for (const MemoryPart& part : parts) bytes += part.bytes;
  return bytes;
}
struct EngineMemory {
  // Unnamed bytes, where an engine does not break its search down.
  static EngineMemory of(double build, double search, double kept = 0) {
    EngineMemory need;
    need.build = build;
    need.search = search;
    need.kept = kept;
    return need;
  }
  double build = 0, search = 0, kept = 0;
  // What `search` and `build` hold, named, for `g500 plan` (empty where an engine does not break
  // them down; build's are those of the larger of its moments).
  std::vector<MemoryPart> search_parts, build_parts;
  // Adds a named structure to the search's bytes.
  void hold(std::string name, double bytes) {
    search += bytes;
    search_parts.push_back({std::move(name), bytes});
  }
};

// Options of one kind, registered, checked and written to the JSON in one place. The harness
// registers every group once; an engine's row lists the groups it reads, and only those appear in
// its JSON.
template <class Options>
struct OptionGroupFor {
  const char* name;  // the JSON key and the --help heading
  void (*add)(CLI::App& app, Options& options);
  void (*check)(const Options& options);  // throws UserError with a one-line message
  void (*to_json)(const Options& options, nlohmann::json& out);
};

template <class Engine, class Context, class Options>
struct KernelSpec {
  std::string name;  // the --bfs value, or kernel 3's engine
  std::string help;  // one line for --help
  std::unique_ptr<Engine> (*make)(const Context&);
  EngineMemory (*memory_bytes)(const GraphShape&, const Options&);
  mpi::ThreadLevel thread_level;  // what MPI must be initialised with
  std::vector<const OptionGroupFor<Options>*> option_groups;
  // Builds 1D rows (graph/csr_1d.hpp), so the vertex count may count their arcs for it.
  bool reads_arc_sketch = false;
  // GPU engines: device memory a rank's GPU needs for the graph and a search (null: a host engine).
  double (*device_bytes)(const GraphShape&, const Options&) = nullptr;
};

}  // namespace g500
