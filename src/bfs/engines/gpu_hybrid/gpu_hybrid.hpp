#pragma once
// The GPU direction-optimizing BFS (`--bfs gpu-hybrid`): Beamer's BFS with both directions on the
// device, on a 1D partition, one rank a GPU. Top-down steps expand the frontier queue one work
// item an edge (a binary search on the degree prefix sum finds its vertex), claim the rank's own
// neighbours with an atomic compare-and-swap and send the rest, sorted and unique, to their owners
// (one alltoallv a round); bottom-up steps let each unreached vertex scan its row against the
// whole frontier as a bitmap (one allgather a level) and stop at the first parent. The direction
// is DirectionPolicy's, as the CPU engines take it. This host half holds MPI and the policy; the
// device half (device.hpp) holds the graph and the steps, built for CUDA or, from the same
// source, for the CPU. Options: groups "direction", "device", "ids".
#include <memory>
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/engine_spec.hpp"
#include "bfs/engines/gpu_hybrid/device.hpp"
#include "bfs/level_profiler.hpp"

namespace g500 {

// Its registry row (bfs/registry.cpp); built when Thrust was found, with the device half linked
// in separately, for the CPU (g500) or CUDA (g500-cuda).
EngineSpec gpu_hybrid_engine();

template <class Column>
class GpuHybrid : public BfsEngine {
 public:
  explicit GpuHybrid(const EngineContext& context);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) override;

 private:
  using Candidate = gpu_hybrid::Candidate<Column>;
  StepCounts top_down_step(LevelProfiler& profiler);
  StepCounts bottom_up_step(LevelProfiler& profiler);
  // A top-down round's candidates to their owners, who claim them.
  void exchange_candidates(std::int64_t candidates, mpi::Counts& send_counts);
  // The ranks' mean arcs, which size a top-down round.
  double mean_arcs() const { return static_cast<double>(global_entries_) / comm_.size(); }

  BfsOptions options_;
  const mpi::Comm& comm_;
  Partition1D part_;
  bool staged_ = true;  // exchanges copied through host memory
  edge_count_t global_entries_ = 0;
  std::unique_ptr<gpu_hybrid::Device<Column>> device_;
  std::vector<Candidate> host_send_, host_received_;  // staging buffers
  std::vector<std::uint64_t> host_frontier_;          // staging: the whole frontier bitmap
};

}  // namespace g500
