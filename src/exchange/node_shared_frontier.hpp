#pragma once
// The frontier kept once per node (paper 000 §III.A): the bitmap of all N vertices, the one being
// filled for the next level and the summary live in an MPI-3 window shared by the node's ranks.
// Each rank writes its slice of the next frontier straight into the shared bitmap, so nothing is
// gathered or broadcast inside a node; between nodes only the node's slices travel:
//   - by the node leaders, one allgatherv of whole node ranges, or
//   - with parallel_allgather (§III.B), by every rank of the node at once: rank l of each node
//     gathers the l-th part of every node's range over its own sub-communicator.
// Results land in place in the shared bitmap. Synchronisation: see docs/node_aware.md.
#include <vector>

#include "exchange/frontier_exchange.hpp"
#include "mpi/shared_window.hpp"

namespace g500::exchange {

class NodeSharedFrontier final : public FrontierExchange {
 public:
  // Collective. Needs each node's ranks to be consecutive (and, for the parallel allgather, every
  // node to have as many ranks): UserError otherwise.
  NodeSharedFrontier(const mpi::Comm& comm, const Partition1D& part, int summary_granularity,
                     const mpi::NodeTopology& nodes, bool parallel_allgather);

  std::span<word_t> next_slice() override;
  void exchange() override;
  FrontierView view() const override;

 private:
  word_t* bitmap(int which) const { return static_cast<word_t*>(window_.base()) + which * total_words_; }
  word_t* summary() const { return bitmap(2); }

  const Partition1D& part_;
  const mpi::NodeTopology& nodes_;
  int granularity_;
  std::int64_t total_words_;
  std::int64_t summary_words_;
  mpi::SharedWindow window_;
  mpi::Comm cross_;      // this rank's sub-group across nodes (the leaders' group for local rank 0)
  bool gathers_;         // whether this rank takes part in the inter-node allgather
  mpi::Counts counts_, displs_;  // words of each node's part in that allgather
  int current_ = 0;      // which bitmap is the frontier; the other is being filled
};

}  // namespace g500::exchange
