#include "mpi/node_memory.hpp"

#include "core/memory.hpp"

namespace g500::mpi {

NodeShortfall worst_node_shortfall(const Comm& comm, std::int64_t bytes_per_rank) {
  const Comm node = comm.split_shared();
  // Summed in floating point: per-rank estimates near 2^63 must not wrap around.
  const double node_need = node.allreduce(static_cast<double>(bytes_per_rank), Op::sum);
  const double node_has = static_cast<double>(available_memory_bytes());
  const bool short_here = node_need > node_has;
  const double worst_need = comm.allreduce(short_here ? node_need : 0.0, Op::max);
  if (worst_need == 0) return {};
  return {worst_need, comm.allreduce(short_here ? node_has : 1e300, Op::min)};
}

}  // namespace g500::mpi
