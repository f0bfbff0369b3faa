#pragma once
// Memory estimates made before allocating, so a run that cannot fit stops with a clear error
// instead of being killed halfway.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include "bfs/bfs_options.hpp"
#include "harness/run_options.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Peak bytes one rank needs for the benchmark: the harness's own (edge slice, parents, roots,
// validation buffers) plus the BFS engine's, from its registry row, and the SSSP engine's.
std::int64_t estimate_run_bytes(int scale, int edgefactor, int num_ranks, const BfsOptions& bfs,
                                const KernelChoice& kernels = {});
// The same for a graph of `vertices` vertices and `tuples` tuples (a graph file's).
std::int64_t estimate_graph_bytes(double vertices, double tuples, int num_ranks, const BfsOptions& bfs,
                                  const KernelChoice& kernels);
// A rank's bytes in each phase of a run, as the estimate counts them (0 for a kernel not run);
// the peak is the run's estimate. The parts name the largest terms, for `g500 plan`.
struct PhaseBytes {
  double build = 0;  // kernel 1: a round of tuples and the BFS graph as it is built
  double bfs = 0;    // kernel 2: parents, roots, the BFS graph and its batch validator
  double sssp = 0;   // kernel 3: as kernel 2's harness, distances, its graph and batch validator
  double bfs_graph_build = 0, bfs_graph = 0, bfs_validation = 0, sssp_graph = 0, sssp_validation = 0;
  double rank_tables = 0;  // what is held for each rank of the run (buckets, counters), in every phase
  std::string engine;  // the BFS engine counted (--bfs auto resolved for the rank count)
  double peak() const { return std::max({build, bfs, sssp}); }
};
// `threads`: OpenMP threads a rank (0: this process's).
PhaseBytes estimate_phases(double vertices, double tuples, int num_ranks, const BfsOptions& bfs,
                           const KernelChoice& kernels, int threads = 0);
// --bfs auto (bfs.auto_candidates): the engine its rule picks for the rank count (choose_engine)
// when the run fits with a validation batch of one (fits(bytes a rank)), else the first other
// candidate whose run does, else the rule's pick (which the memory check then refuses). Any other
// --bfs: that engine.
std::string fitting_engine(double vertices, double tuples, int num_ranks, const BfsOptions& bfs,
                           const KernelChoice& kernels, int threads, const std::function<bool(double)>& fits);
// Peak bytes one rank needs to generate and write its slice.
std::int64_t estimate_generate_bytes(int scale, int edgefactor, int num_ranks, bool with_weights);

// Collective: throws UserError on every rank when the ranks need more than a node, a memory cgroup
// or a process limit leaves them (mpi/node_memory.hpp).
void check_memory(const mpi::Comm& comm, std::int64_t bytes_per_rank, const std::string& what);
// Collective. The searches to validate per pass over the tuples: kernels.validation_batch,
// or fewer when that many would not fit the nodes' memory; 1 when the run does not fit even with
// one (check_memory then refuses it by its smallest need); unchanged when nothing is validated.
int fitting_validation_batch(const mpi::Comm& comm, double vertices, double tuples, const BfsOptions& bfs,
                             const KernelChoice& kernels, bool validating);

}  // namespace g500
