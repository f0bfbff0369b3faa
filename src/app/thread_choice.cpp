#include "app/thread_choice.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/affinity.hpp"

namespace g500 {

void choose_threads(const mpi::Comm& world, bool quiet) {
#ifdef G500_SMPI
  // Simulated ranks run one thread each, one after another in one process (SimGrid's SMPI): the
  // simulated clock measures that thread's work, and it is the thread that calls MPI.
  omp_set_num_threads(1);
  return;
#endif
  const mpi::Comm node = world.split_shared();
  const int node_cpus = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int usable = usable_cpus();  // this rank's binding; 0 when unknown
  const char* env = std::getenv("OMP_NUM_THREADS");
  if (env == nullptr || *env == '\0') {
    int share = std::max(1, node_cpus / node.size());
    if (usable > 0) share = std::min(share, usable);
    omp_set_num_threads(share);
  }
  const int threads = omp_get_max_threads();
  // Worst node: the most threads asked of it against its cores; worst rank: threads beyond binding.
  const std::int64_t asked = node.allreduce(static_cast<std::int64_t>(threads), mpi::Op::sum);
  const int node_over = asked > node_cpus && threads > 1 ? 1 : 0;  // ranks alone: --oversubscribe asked for it
  const int bound_over = usable > 0 && threads > usable ? 1 : 0;
  const int any_node_over = world.allreduce(node_over, mpi::Op::max);
  const int tightest = world.allreduce(bound_over ? usable : 1 << 30, mpi::Op::min);
  if (!quiet && world.is_root()) {
    if (tightest != 1 << 30) {
      std::fprintf(stderr,
                   "g500: warning: %d OpenMP threads per rank but a rank may use only %d CPU(s): threads will share "
                   "cores and run much slower; use mpirun --bind-to none (or a wider binding) or fewer threads\n",
                   threads, tightest);
    } else if (any_node_over) {
      std::fprintf(stderr,
                   "g500: warning: OMP_NUM_THREADS=%d with %d rank(s) on a %d-core node oversubscribes it: threads "
                   "will share cores and run much slower; unset OMP_NUM_THREADS to take each rank's share\n",
                   threads, node.size(), node_cpus);
    }
  }
}

}  // namespace g500
