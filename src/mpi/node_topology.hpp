#pragma once
// Which ranks share a node. Real nodes are found with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED);
// for tests and benches on one machine, `ranks_per_node` K splits the ranks into pretend nodes of K
// consecutive ranks, which really do share memory as long as each lies inside one real node
// (papers 000 and 002 build their node-aware exchanges on this).
#include <vector>

#include "mpi/comm.hpp"

namespace g500::mpi {

class NodeTopology {
 public:
  // Collective. ranks_per_node 0: the real nodes. Throws UserError, on every rank alike, when K does
  // not divide the rank count or a pretend node would span two real nodes.
  NodeTopology(const Comm& world, int ranks_per_node);

  const Comm& node() const { return node_; }     // the ranks of this rank's node, by world rank
  int node_index() const { return node_index_; }  // nodes numbered by their first world rank
  int num_nodes() const { return num_nodes_; }
  int local_rank() const { return node_.rank(); }
  int local_size() const { return node_.size(); }
  // The node of each world rank.
  const std::vector<int>& node_of_rank() const { return node_of_rank_; }
  // Every node holds consecutive world ranks (block placement), so a node's 1D blocks are adjacent.
  bool consecutive() const { return consecutive_; }
  // Every node holds the same number of ranks.
  bool uniform() const { return uniform_; }

  // Collective. The ranks with this rank's local rank, one per node, ordered by node: the node
  // leaders' communicator for local rank 0, one sub-group of a parallel allgather for each other.
  Comm cross_nodes() const { return world_.split(local_rank(), node_index_); }

 private:
  const Comm& world_;
  Comm node_;
  int node_index_ = 0, num_nodes_ = 1;
  std::vector<int> node_of_rank_;
  bool consecutive_ = true, uniform_ = true;
};

}  // namespace g500::mpi
