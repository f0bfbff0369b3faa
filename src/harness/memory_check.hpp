#pragma once
// Memory estimates made before allocating, so a run that cannot fit stops with a clear error
// instead of being killed halfway.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bfs/bfs_options.hpp"
#include "graph/kernel_spec.hpp"
#include "harness/run_options.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Peak bytes one rank needs for the benchmark on a graph of `vertices` vertices and `tuples` tuples:
// the harness's own (parents, roots, validation buffers) plus the BFS engine's, from its registry
// row, and the SSSP engine's. `bfs` and `kernels` as settled (harness/resolve.hpp). `kronecker`:
// the generator's graph (false for a file's: its degrees are unknown).
std::int64_t estimate_graph_bytes(double vertices, double tuples, int num_ranks, const BfsOptions& bfs,
                                  const KernelChoice& kernels, bool kronecker = true);
// A rank's bytes in each phase of a run, as the estimate counts them (0 for a kernel not run);
// the peak is the run's estimate. The parts name the largest terms, for `g500 plan`.
struct PhaseBytes {
  double build = 0;  // kernel 1: a round of tuples and the BFS graph as it is built
  double bfs = 0;    // kernel 2: parents, roots, the BFS graph and its batch validator
  double sssp = 0;   // kernel 3: as kernel 2's harness, distances, its graph and batch validator
  double bfs_graph_build = 0, bfs_graph = 0, bfs_validation = 0, sssp_graph = 0, sssp_validation = 0;
  double rank_tables = 0;  // what is held for each rank of the run (buckets, counters), in every phase
  std::string engine;      // the BFS engine counted
  std::vector<MemoryPart> build_parts;  // what kernel 1's phase holds, named; they sum to `build`
  std::vector<MemoryPart> bfs_parts;    // what kernel 2's phase holds, named; they sum to `bfs`
  double peak() const { return std::max({build, bfs, sssp}); }
};
// `bfs` and `kernels` as settled (harness/resolve.hpp): a named engine, ids and replicas concrete.
// `threads`: OpenMP threads a rank (0: this process's).
PhaseBytes estimate_phases(double vertices, double tuples, int num_ranks, const BfsOptions& bfs,
                           const KernelChoice& kernels, int threads = 0, bool kronecker = true);
// Peak bytes one rank needs to generate and write its slice.
std::int64_t estimate_generate_bytes(int scale, int edgefactor, int num_ranks, bool with_weights);

// Collective: throws UserError on every rank when the ranks need more than a node, a memory cgroup
// or a process limit leaves them (mpi/node_memory.hpp).
void check_memory(const mpi::Comm& comm, std::int64_t bytes_per_rank, const std::string& what);
}  // namespace g500
