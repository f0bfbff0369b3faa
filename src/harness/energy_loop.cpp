#include "harness/energy_loop.hpp"

#include "core/energy_counters.hpp"
#include "core/timer.hpp"

namespace g500 {

EnergyRecord run_energy_loop(const mpi::Comm& comm, double seconds, const std::vector<vertex_t>& roots,
                             const std::function<void(vertex_t)>& search, const Progress& progress,
                             const char* kernel) {
  EnergyRecord record;
  record.ran = true;
  EnergyMeter meter;
  record.counters = meter.root();
  // One reader a node; the loop's joules count only if every node can read its own.
  const mpi::Comm node = comm.split_shared();
  const bool reader = node.rank() == 0;
  const int nodes = comm.allreduce(reader ? 1 : 0, mpi::Op::sum);
  const int counting = comm.allreduce(reader && meter.available() ? 1 : 0, mpi::Op::sum);
  record.counted = counting == nodes;
  progress.say("%s energy loop: at least %g s over %zu roots; energy counters: %s", kernel, seconds, roots.size(),
               record.counted ? "yes" : ("none under " + meter.root()).c_str());
  PhaseProgress phase(progress, std::string(kernel) + " energy loop");
  comm.barrier();
  const Timer timer;
  if (reader) meter.start();
  for (bool done = false; !done;) {
    for (std::size_t k = 0; k < roots.size() && !done; ++k) {
      search(roots[k]);
      ++record.searches;
      if (reader) meter.sample();  // often enough that no counter wraps twice in between
      const double elapsed = timer.seconds();
      phase.advanced(std::min(1.0, elapsed / seconds));
      done = comm.allreduce(elapsed >= seconds ? 1 : 0, mpi::Op::max) != 0;
    }
  }
  comm.barrier();
  record.seconds = comm.allreduce(timer.seconds(), mpi::Op::max);
  if (record.counted) record.joules = comm.allreduce(reader ? meter.joules() : 0.0, mpi::Op::sum);
  return record;
}

}  // namespace g500
