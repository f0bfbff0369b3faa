#pragma once
// Kernels 2 and 3 over the roots, once kernel 1 has built their graphs (harness/benchmark.cpp):
// each search timed between barriers, its traffic counted, then, outside the timing, validated (or
// with --skip-validation its edges counted) a batch at a time, one pass over the tuples a batch.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "bfs/engine.hpp"
#include "core/timer.hpp"
#include "graph/edge_source.hpp"
#include "harness/energy_loop.hpp"
#include "harness/progress.hpp"
#include "harness/report.hpp"
#include "harness/run_options.hpp"
#include "harness/traffic_summary.hpp"
#include "io/search_output.hpp"
#include "mpi/comm.hpp"
#include "mpi/traffic.hpp"
#include "partition/partition_1d.hpp"
#include "sssp/delta_stepping.hpp"

namespace g500 {

// Seconds of the slowest rank for a collective phase.
template <class Work>
double timed_collective(const mpi::Comm& comm, Work&& work) {
  comm.barrier();
  Timer timer;
  work();
  comm.barrier();
  return comm.allreduce(timer.seconds(), mpi::Op::max);
}

// What the kernels' loops share: the roots, the parents array, the tree output, where the
// validation's traffic is counted.
struct KernelRun {
  const mpi::Comm& comm;
  const RunOptions& options;
  const Progress& progress;
  const std::vector<vertex_t>& roots;
  mpi::TrafficTally& validation_traffic;
  const EdgeSource& source;  // names roots as the graph does
  const Partition1D& part;
  std::span<vertex_t> parents;
  std::optional<SearchOutput>& output;
  int validation_batch;
  std::vector<std::int64_t>& peak_before_validation;  // filled after the first warm-up search
};

// Kernel 2: the warm-up search, then every root's timed, validated search. Searches are validated
// (or counted) a batch at a time, one pass over the tuples for all, unless --output writes each
// tree as its search ends. Collective.
std::vector<RootRecord> run_bfs_kernel(const KernelRun& k, BfsEngine& engine, PhaseTraffic& traffic,
                                       std::vector<std::int64_t>& peer_bytes, EnergyRecord& energy);

// Kernel 3: as kernel 2, the searches validated (or counted) a batch at a time. Collective.
std::vector<RootRecord> run_sssp_kernel(const KernelRun& k, SsspEngine& sssp, PhaseTraffic& traffic,
                                        EnergyRecord& energy);

}  // namespace g500
