#pragma once
// What a run produced, and its two renderings: the spec's statistics block (stdout) and the JSON
// file with everything.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bfs/level_profile.hpp"
#include "graph/row_codes.hpp"
#include "harness/energy_loop.hpp"
#include "harness/run_options.hpp"
#include "harness/traffic_summary.hpp"
#include "sssp/delta_stepping.hpp"
#include "core/types.hpp"

namespace g500 {

struct RootRecord {
  vertex_t root = 0;        // internal id
  vertex_t shown_root = 0;  // as the graph names it (a graph file's own id)
  double seconds = 0;
  std::int64_t nedge = 0;
  double teps = 0;
  double validate_seconds = 0;
  std::string result;  // "valid", "not validated", or the failed rule
  SearchProfile levels;   // BFS: one record per level
  RankTotals rank_totals;  // BFS: compute and work over the ranks
  SsspProfile buckets;    // SSSP: one record per bucket
};

struct RunRecord {
  RunOptions options;
  int num_mpi_processes = 1;
  int threads_per_process = 1;
  vertex_t vertices = 0;         // N, as kernel 1 found it
  std::int64_t edge_tuples = 0;  // M
  double generation_seconds = 0;
  double construction_seconds = 0;       // kernel 1: every graph the kernels search
  double sssp_construction_seconds = 0;  // ... of which the weighted graph, when built after kernel 2
  std::vector<RootRecord> roots;       // kernel 2 (BFS), when it ran
  std::vector<RootRecord> sssp_roots;  // kernel 3 (SSSP), when it ran
  EnergyRecord bfs_energy, sssp_energy;  // --energy-loop
  bool validated = true;  // false when --skip-validation
  std::string edge_source;  // where the tuples came from
  std::string layout;       // the engine's own layout when not the 1D blocks (a 2D grid's shape)
  TrafficSummary traffic;
  std::int64_t memory_estimate_per_rank = 0;  // what the memory check assumed
  std::vector<std::int64_t> peak_memory;      // each rank's resident high-water mark at the end
  std::vector<std::int64_t> peak_memory_after_construction;  // ... and as kernel 1 ended
  // ... and as the first validation began (after the warm-up search): the graph and a search,
  // without the validation batch's tables, which shrink to fit the memory
  std::vector<std::int64_t> peak_memory_before_validation;
  std::optional<RowCodeSize> row_codes;  // with --measure-row-codes: over all ranks
};

void print_statistics(std::ostream& out, const RunRecord& run);
// --energy-loop's lines for one kernel (nothing when it did not run), and its JSON (null then).
void print_energy(std::ostream& out, const std::string& prefix, const EnergyRecord& energy,
                  const std::vector<RootRecord>& roots);
nlohmann::json energy_json(const EnergyRecord& energy, const std::vector<RootRecord>& roots);
nlohmann::json to_json(const RunRecord& run, const std::string& command_line);

}  // namespace g500
