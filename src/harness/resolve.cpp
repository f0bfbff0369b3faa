#include "harness/resolve.hpp"

#include <algorithm>

#include "bfs/engine_choice.hpp"
#include "harness/memory_check.hpp"
#include "partition/process_grid.hpp"

namespace g500 {
namespace {

// --bfs auto's order of trial: its rule's pick first, then the other candidates as listed.
std::vector<std::string> engines_to_try(const BfsOptions& bfs, int ranks) {
  const std::vector<std::string>& candidates = bfs.auto_candidates.empty() ? auto_engines() : bfs.auto_candidates;
  std::vector<std::string> order{choose_engine(candidates, ranks, bfs.grid.grid)};
  for (const std::string& c : candidates)
    if (c != order.front()) order.push_back(c);
  return order;
}

double peak_bytes(const RunOptions& o, const ProblemSize& size) {
  return estimate_phases(size.vertices, size.tuples, size.ranks, o.bfs, o.kernels, size.threads, o.input_path.empty())
      .peak();
}

// The engine: the named one, or auto's first that fits with a batch of one (the rule's, where none does).
std::string settle_engine(const RunOptions& o, const ProblemSize& size, const std::function<bool(double)>& fits,
                          std::string& rule_engine) {
  if (o.bfs.engine != kAutoEngine) return rule_engine = o.bfs.engine;
  const std::vector<std::string> order = engines_to_try(o.bfs, size.ranks);
  rule_engine = order.front();
  if (!o.kernels.bfs) return rule_engine;
  RunOptions trial = o;
  trial.kernels.validation_batch = 1;
  for (const std::string& engine : order) {
    trial.bfs.engine = engine;
    if (fits(peak_bytes(trial, size))) return engine;
  }
  return rule_engine;
}

// The batch: one per tree written (--output), no more than the searches drawn, and no more than fits.
int settle_batch(const RunOptions& o, const ProblemSize& size, const std::function<bool(double)>& fits, int& asked) {
  asked = o.output_path.empty() ? o.kernels.validation_batch : 1;
  if (o.root_ids.empty() && o.roots_file.empty()) asked = std::min(asked, std::max(1, o.roots));
  if (o.skip_validation || asked <= 1) return asked;
  RunOptions trial = o;
  for (trial.kernels.validation_batch = asked; trial.kernels.validation_batch > 1; --trial.kernels.validation_batch)
    if (fits(peak_bytes(trial, size))) break;
  return trial.kernels.validation_batch;
}

// The 2D engines' stored positions, for the grid they would take. A --grid that does not fit the
// rank count is refused where a 2D engine is estimated or made; here it counts as one row.
IdWidth settle_grid_positions(const BfsOptions& bfs, const ProblemSize& size) {
  GridShape grid{1, size.ranks};
  try {
    grid = parse_grid(bfs.grid.grid, size.ranks);
  } catch (const UserError&) {
  }
  return settle_positions(bfs.grid.positions, bfs.ids,
                          widest_row_range(static_cast<std::int64_t>(size.vertices), grid));
}

}  // namespace

ResolvedRun resolve(const RunOptions& asked, const ProblemSize& size, const std::function<bool(double)>& fits) {
  ResolvedRun r;
  r.options = asked;
  RunOptions& o = r.options;
  o.bfs.ids = settle_ids(asked.bfs.ids, static_cast<std::int64_t>(size.vertices));
  o.kernels.sssp_options.ids = o.bfs.ids;  // one --ids for both kernels' graphs
  o.bfs.grid.positions = settle_grid_positions(o.bfs, size);
  o.kernels.sssp_options.replicas = settle_replicas(asked.kernels.sssp_options.replicas, size.vertices, size.ranks);
  o.kernels.sssp_options.exchange = settle_sssp_exchange(asked.kernels.sssp_options.exchange, size.ranks);
  o.bfs.engine = settle_engine(o, size, fits, r.rule_engine);
  o.kernels.validation_batch = settle_batch(o, size, fits, r.batch_asked);
  return r;
}

RunOptions resolved_options(const RunOptions& asked, const ProblemSize& size) {
  return resolve(asked, size, [](double) { return true; }).options;
}

}  // namespace g500
