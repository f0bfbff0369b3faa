#pragma once
// How many OpenMP threads each rank runs. Left to OpenMP, every rank starts one thread per core of
// the node, so `mpirun -np 2` on a 2-core node runs 4 threads on 2 cores and is several times
// slower with no word. Unless OMP_NUM_THREADS says otherwise, each rank takes its share of the
// node's cores; a choice that oversubscribes the node is warned about.
#include "mpi/comm.hpp"

namespace g500 {

// Collective over `world`. Sets omp_set_num_threads unless OMP_NUM_THREADS is set; on rank 0
// writes a warning when ranks x threads on some node exceed its cores (unless quiet).
void choose_threads(const mpi::Comm& world, bool quiet);

}  // namespace g500
