#include "exchange/node_shared_frontier.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace g500::exchange {

std::unique_ptr<FrontierExchange> make_frontier_exchange(const mpi::Comm& comm, const Partition1D& part,
                                                         int summary_granularity, const FrontierSharing& sharing) {
  if (!sharing.nodes) return std::make_unique<FrontierGather>(comm, part, summary_granularity);
  return std::make_unique<NodeSharedFrontier>(comm, part, summary_granularity, *sharing.nodes,
                                              sharing.parallel_allgather);
}

namespace {

// Three bitmaps' worth of words: two frontiers (read one, fill the other) and the summary.
std::size_t window_bytes(const Partition1D& part, int granularity) {
  const std::int64_t words = words_for(part.num_vertices());
  return static_cast<std::size_t>(2 * words + summary_words(part.num_vertices(), granularity)) * sizeof(word_t);
}

const mpi::NodeTopology& checked(const mpi::NodeTopology& nodes, bool parallel) {
  if (!nodes.consecutive()) {
    throw UserError("--node-shared needs each node's ranks to be consecutive (place ranks by node, e.g. --map-by core)");
  }
  if (parallel && !nodes.uniform()) {
    throw UserError("--parallel-allgather needs the same number of ranks on every node");
  }
  return nodes;
}

}  // namespace

NodeSharedFrontier::NodeSharedFrontier(const mpi::Comm& comm, const Partition1D& part, int summary_granularity,
                                       const mpi::NodeTopology& nodes, bool parallel_allgather)
    : part_(part), nodes_(checked(nodes, parallel_allgather)), granularity_(summary_granularity),
      total_words_(words_for(part.num_vertices())),
      summary_words_(g500::summary_words(part.num_vertices(), summary_granularity)),
      window_(nodes.node(), window_bytes(part, summary_granularity)), cross_(nodes.cross_nodes()),
      gathers_(parallel_allgather || nodes.local_rank() == 0) {
  // Node n holds the words of its ranks' blocks, [node_first[n], node_first[n + 1]).
  const std::vector<int>& node_of = nodes.node_of_rank();
  std::vector<std::int64_t> node_first(nodes.num_nodes() + 1, total_words_);
  for (int r = comm.size() - 1; r >= 0; --r) node_first[node_of[r]] = part.first_word(r);
  const int parts = parallel_allgather ? nodes.local_size() : 1, l = parallel_allgather ? nodes.local_rank() : 0;
  counts_.resize(nodes.num_nodes());
  displs_.resize(nodes.num_nodes());
  for (int n = 0; n < nodes.num_nodes(); ++n) {
    const std::int64_t length = node_first[n + 1] - node_first[n];
    const std::int64_t first = node_first[n] + length * l / parts, last = node_first[n] + length * (l + 1) / parts;
    displs_[n] = mpi::detail::checked_count(first);
    counts_[n] = mpi::detail::checked_count(last - first);
  }
  if (nodes.local_rank() == 0) std::fill(bitmap(0), bitmap(0) + 2 * total_words_ + summary_words_, word_t{0});
  window_.fence();
}

std::span<word_t> NodeSharedFrontier::next_slice() {
  return {bitmap(1 - current_) + part_.first_word(part_.rank()), static_cast<std::size_t>(part_.local_words())};
}

void NodeSharedFrontier::exchange() {
  const int next = 1 - current_;
  // 1: every rank of the node has written its slice and is done reading the old frontier and summary.
  window_.fence();
  if (gathers_) cross_.allgatherv_inplace(bitmap(next), counts_, displs_);
  // 2: the whole bitmap has arrived; each rank rebuilds its share of the summary.
  window_.fence();
  const int local = nodes_.local_rank(), ranks = nodes_.local_size();
  const std::int64_t first = summary_words_ * local / ranks, last = summary_words_ * (local + 1) / ranks;
  summarize(bitmap(next), total_words_, granularity_, summary(), first, last);
  count_summary(summary(), first, last, granularity_, part_.num_vertices());
  // 3: the summary is whole before anyone reads it.
  window_.fence();
  current_ = next;
}

FrontierView NodeSharedFrontier::view() const {
  return {BitsView(bitmap(current_)), SummaryView(summary(), granularity_)};
}

}  // namespace g500::exchange
