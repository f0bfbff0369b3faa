#pragma once
// The Green Graph500 energy loop (`--energy-loop SECONDS`, after reference 3.0.1's ENERGYLOOP_BFS
// and ENERGYLOOP_SSSP): after a kernel's validated run, its searches are repeated over the same
// roots, untimed for TEPS, for at least that long, so that a power meter can integrate over a
// steady load. Where the nodes expose energy counters (core/energy_counters.hpp), one rank of each
// node reads its node's, and the joules are summed over the nodes.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "harness/progress.hpp"
#include "mpi/comm.hpp"

namespace g500 {

struct EnergyRecord {
  bool ran = false;
  double seconds = 0;          // the loop's wall time
  std::int64_t searches = 0;   // searches run in it
  bool counted = false;        // every node had counters
  double joules = 0;           // summed over the nodes, when counted
  std::string counters;        // where they were looked for
  double watts() const { return seconds > 0 ? joules / seconds : 0; }
};

// Collective: repeats search(root) over `roots` until `seconds` have passed on any rank (a whole
// number of searches, at least one).
EnergyRecord run_energy_loop(const mpi::Comm& comm, double seconds, const std::vector<vertex_t>& roots,
                             const std::function<void(vertex_t)>& search, const Progress& progress,
                             const char* kernel);

}  // namespace g500
