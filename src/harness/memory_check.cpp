#include "harness/memory_check.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "bfs/id_width.hpp"
#include "exchange/bucket_layout.hpp"
#include "exchange/rounds.hpp"
#include "mpi/node_memory.hpp"
#include "sssp/sssp_spec.hpp"
#include "validate/sssp_validator.hpp"
#include "validate/bfs_validator.hpp"

namespace g500 {
namespace {

// GiB to one decimal, or MiB below 1 GiB, where one decimal of GiB would hide the difference.
std::string gib(double bytes) {
  char buf[32];
  if (bytes < 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / (1024.0 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

// What a rank holds for each rank of the run, O(P) (exchange/owner_buckets.hpp): per-rank buckets
// while there are few, and counts; queued items' sorted copy past that.
double rank_indexed_bytes(int num_ranks, int threads) {
  return num_ranks * exchange::bytes_for_each_rank(num_ranks, threads) +
         exchange::queued_round_bytes(num_ranks, threads);
}

}  // namespace

PhaseBytes estimate_phases(double n, double m, int num_ranks, const BfsOptions& bfs, const KernelChoice& kernels,
                           int threads, bool kronecker) {
  PhaseBytes phases;
  phases.rank_tables = rank_indexed_bytes(num_ranks, threads > 0 ? threads : omp_get_max_threads());
  const double n_local = n / num_ranks + 64, m_local = m / num_ranks + 1;
  const double build_round = static_cast<double>(exchange::kBuildRound);
  const double root_scan_round = static_cast<double>(exchange::kRootScanRound);
  // Phases, each with what the harness holds beside the engines; the run's peak is the largest.
  // No edge list is kept: each stage reads rounds of tuples again (one round buffer at a time).
  // Kernel 1: a round of tuples.
  const double build = 16 * std::min(m_local, build_round);
  // Searching: parents, roots (their scan, when the marks were unusable).
  const double search = 8 * n_local + n_local / 8 + 3 * 8 * std::min(2 * m_local, root_scan_round);
  // Kernel 3 runs after kernel 2, in the memory the BFS graph held (its graph is built then, when
  // both run): its own phase, the largest of its graph's build (beside what the harness holds at
  // either of kernel 2's), its searches (the harness's search state, the distances, the graph and
  // the engine's state, and what the batch validator holds meanwhile) and a batch's check, which
  // runs once the searches' buffers are released (the graph and the whole validator).
  if (kernels.sssp) {
    const EngineMemory engine =
        sssp_engine().memory_bytes(GraphShape{n, m, num_ranks, kronecker}, kernels.sssp_options);
    phases.sssp_graph = std::max(engine.build, engine.search);
    phases.sssp_validation = SsspBatchValidator::bytes(n, n_local, m_local, num_ranks, kernels.validation_batch);
    const double held = SsspBatchValidator::held_bytes(n, n_local, kernels.validation_batch);
    phases.sssp = std::max(std::max(build, search) + engine.build,
                           search + 4 * n_local + std::max(engine.search + held, engine.kept + phases.sssp_validation)) +
                  phases.rank_tables;
  }
  if (!kernels.bfs) return phases;
  // BFS validation: what its batch validator holds.
  phases.bfs_validation = BfsBatchValidator::bytes(n, n_local, m_local, num_ranks, kernels.validation_batch);
  const GraphShape shape{n, m, num_ranks, kronecker};
  phases.engine = bfs.engine;
  const EngineMemory need = find_engine(phases.engine).memory_bytes(shape, bfs);
  phases.bfs_graph_build = need.build;
  phases.bfs_graph = need.search;
  phases.build = build + need.build + phases.rank_tables;
  phases.bfs = search + phases.bfs_validation + need.search + phases.rank_tables;
  phases.build_parts = {{"a round of generated tuples", build}};
  if (need.build_parts.empty())
    phases.build_parts.push_back({"the " + phases.engine + " graph as it is built", need.build});
  phases.build_parts.insert(phases.build_parts.end(), need.build_parts.begin(), need.build_parts.end());
  phases.build_parts.push_back({"buckets and counters for each rank", phases.rank_tables});
  phases.bfs_parts = {{"parents, roots", search}};
  if (need.search_parts.empty())
    phases.bfs_parts.push_back({"the " + phases.engine + " graph and search state", need.search});
  phases.bfs_parts.insert(phases.bfs_parts.end(), need.search_parts.begin(), need.search_parts.end());
  for (MemoryPart& part : BfsBatchValidator::parts(n, n_local, m_local, num_ranks, kernels.validation_batch))
    phases.bfs_parts.push_back(std::move(part));
  phases.bfs_parts.push_back({"buckets and counters for each rank", phases.rank_tables});
  return phases;
}

std::int64_t estimate_graph_bytes(double n, double m, int num_ranks, const BfsOptions& bfs, const KernelChoice& kernels,
                                  bool kronecker) {
  return estimate_to_bytes(estimate_phases(n, m, num_ranks, bfs, kernels, 0, kronecker).peak());
}

std::int64_t estimate_generate_bytes(int scale, int edgefactor, int num_ranks, bool with_weights) {
  const double m_local = std::ldexp(1.0, scale) * edgefactor / num_ranks + 1;
  return static_cast<std::int64_t>(std::min(m_local * (with_weights ? 20 : 16), 9.0e18));
}

void check_memory(const mpi::Comm& comm, std::int64_t bytes_per_rank, const std::string& what) {
  const mpi::NodeShortfall worst = mpi::worst_node_shortfall(comm, bytes_per_rank);
  if (worst.need > 0) {
    throw UserError("not enough memory for " + what + ": " + worst.where + " needs about " + gib(worst.need) +
                    " but has " + gib(worst.has) + " available (use a smaller --scale or more nodes)");
  }
}

}  // namespace g500
