#pragma once
// Whether the ranks sharing each node fit in what that node has available now (MemAvailable), for
// a run's estimate before it starts and for a step that takes more memory only when there is room.
#include <cstdint>

#include "mpi/comm.hpp"

namespace g500::mpi {

// The largest need of a node short of memory (0 when every node has enough) and what it has.
struct NodeShortfall {
  double need = 0, has = 0;
};

// Collective: the ranks' bytes_per_rank summed over each node, against the node's available memory.
NodeShortfall worst_node_shortfall(const Comm& comm, std::int64_t bytes_per_rank);

// Collective: the same answer on every rank.
inline bool node_memory_fits(const Comm& comm, std::int64_t bytes_per_rank) {
  return worst_node_shortfall(comm, bytes_per_rank).need == 0;
}

}  // namespace g500::mpi
