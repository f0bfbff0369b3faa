#pragma once
// Whether the ranks fit in the memory they may take now, for a run's estimate before it starts and
// for a step that takes more memory only when there is room. Three limits bind, each checked
// against the ranks it is shared by: a node's available memory (MemAvailable) against the sum over
// its ranks, a memory cgroup's room (a batch system's job limit) against the sum over the node's
// ranks in it, and a process's own limits (ulimit -v, -d) against its rank's need.
#include <cstdint>
#include <string>

#include "mpi/comm.hpp"

namespace g500::mpi {

// The largest need short of memory (0 when everything fits), what it had, and where that was
// ("a node", "a memory cgroup", "a rank's process limit").
struct NodeShortfall {
  double need = 0, has = 0;
  std::string where;
};

// Collective: the same answer on every rank.
NodeShortfall worst_node_shortfall(const Comm& comm, std::int64_t bytes_per_rank);

// Collective: the same answer on every rank.
inline bool node_memory_fits(const Comm& comm, std::int64_t bytes_per_rank) {
  return worst_node_shortfall(comm, bytes_per_rank).need == 0;
}

}  // namespace g500::mpi
