#include "mpi/node_topology.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"

namespace g500::mpi {
namespace {

Comm node_of(const Comm& world, int ranks_per_node) {
  if (ranks_per_node < 0) throw UserError("--ranks-per-node must be positive");
  if (ranks_per_node == 0) return world.split_shared();
  if (world.size() % ranks_per_node != 0) {
    throw UserError("--ranks-per-node " + std::to_string(ranks_per_node) + " does not divide the " +
                    std::to_string(world.size()) + " ranks");
  }
  return world.split(world.rank() / ranks_per_node, world.rank());
}

}  // namespace

NodeTopology::NodeTopology(const Comm& world, int ranks_per_node)
    : world_(world), node_(node_of(world, ranks_per_node)) {
  if (ranks_per_node > 0) {
    // A pretend node must share memory: all its ranks on one real node (the same first real rank).
    const Comm real = world.split_shared();
    const int real_first = real.world_rank(0);
    const int lowest = node_.allreduce(real_first, Op::min), highest = node_.allreduce(real_first, Op::max);
    const int spans = world.allreduce(static_cast<int>(lowest != highest), Op::max);
    if (spans) {
      throw UserError("--ranks-per-node " + std::to_string(ranks_per_node) +
                      " puts ranks of different machines in one node (a real node has " + std::to_string(real.size()) +
                      " ranks here)");
    }
  }
  const int first = node_.world_rank(0);
  const std::vector<int> firsts = world.allgather(first);
  std::vector<int> leaders = firsts;
  std::sort(leaders.begin(), leaders.end());
  leaders.erase(std::unique(leaders.begin(), leaders.end()), leaders.end());
  num_nodes_ = static_cast<int>(leaders.size());
  node_of_rank_.resize(firsts.size());
  std::vector<int> sizes(num_nodes_, 0);
  for (std::size_t r = 0; r < firsts.size(); ++r) {
    node_of_rank_[r] = static_cast<int>(std::lower_bound(leaders.begin(), leaders.end(), firsts[r]) - leaders.begin());
    ++sizes[node_of_rank_[r]];
  }
  node_index_ = node_of_rank_[world.rank()];
  for (std::size_t r = 1; r < node_of_rank_.size(); ++r)
    if (node_of_rank_[r] < node_of_rank_[r - 1] || node_of_rank_[r] > node_of_rank_[r - 1] + 1) consecutive_ = false;
  uniform_ = std::all_of(sizes.begin(), sizes.end(), [&](int s) { return s == sizes[0]; });
}

}  // namespace g500::mpi
