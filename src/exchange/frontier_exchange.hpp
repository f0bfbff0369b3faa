#pragma once
// The bottom-up frontier exchange of a 1D partition: each rank writes its slice of the next
// frontier (its block's whole words), then a collective exchange() makes every rank's slice
// readable as one bitmap of all N vertices, with its summary. Two ways to get there:
//   - FrontierGather (here): one allgatherv of the slices into a bitmap every rank keeps;
//   - NodeSharedFrontier (exchange/node_shared_frontier.hpp): one bitmap per node in shared
//     memory, only the node's slices cross between nodes (paper 000 §III).
#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "mpi/comm.hpp"
#include "mpi/node_topology.hpp"
#include "mpi/traffic.hpp"
#include "partition/partition_1d.hpp"

namespace g500::exchange {

// The frontier as of the last exchange. Test the summary first: it stays in cache.
struct FrontierView {
  BitsView frontier;
  SummaryView summary;
  bool contains(vertex_t v) const { return summary.may_contain(v) && frontier.test(v); }
};

class FrontierExchange {
 public:
  virtual ~FrontierExchange() = default;
  // Where this rank writes its slice of the next frontier. The same words until exchange(); the
  // caller writes every word (or clears them first).
  virtual std::span<word_t> next_slice() = 0;
  // Collective: the slices written since the last exchange become the frontier.
  virtual void exchange() = 0;
  virtual FrontierView view() const = 0;
};

// Logical counts for the summary granularity sweep: summary bits built and how many were set.
inline void count_summary(const word_t* summary, std::int64_t first, std::int64_t last, int granularity,
                          std::int64_t frontier_bits) {
  std::int64_t set = 0;
  for (std::int64_t w = first; w < last; ++w) set += __builtin_popcountll(summary[w]);
  const std::int64_t groups = (frontier_bits + granularity - 1) / granularity;
  const std::int64_t bits = std::max<std::int64_t>(0, std::min(last * kWordBits, groups) - first * kWordBits);
  mpi::traffic().add_logical("bottom_up.summary_bits", bits);
  mpi::traffic().add_logical("bottom_up.summary_bits_set", set);
}

// The flat exchange: every rank keeps all N bits.
class FrontierGather final : public FrontierExchange {
 public:
  FrontierGather(const mpi::Comm& comm, const Partition1D& part, int summary_granularity)
      : comm_(comm), part_(part), next_(part.local_count()), all_(part.num_vertices()),
        summary_(part.num_vertices(), summary_granularity), word_counts_(part.word_counts()),
        word_displs_(part.word_displs()) {}

  std::span<word_t> next_slice() override { return {next_.data(), static_cast<std::size_t>(next_.num_words())}; }
  void exchange() override {
    comm_.allgatherv<word_t>({next_.data(), static_cast<std::size_t>(next_.num_words())}, all_.data(), word_counts_,
                             word_displs_);
    summary_.rebuild(all_);
    count_summary(summary_.data(), 0, summary_.num_words(), summary_.granularity(), part_.num_vertices());
  }
  FrontierView view() const override { return {BitsView(all_.data()), summary_.view()}; }

 private:
  const mpi::Comm& comm_;
  const Partition1D& part_;
  Bitmap next_, all_;
  SummaryBitmap summary_;
  mpi::Counts word_counts_, word_displs_;
};

// How the frontier crosses ranks (hybrid-1d's node options).
struct FrontierSharing {
  const mpi::NodeTopology* nodes = nullptr;  // null: the flat gather
  bool parallel_allgather = false;           // every rank of a node joins the inter-node allgather
};

// Collective: the exchange `sharing` asks for. Throws UserError when the nodes do not allow it.
std::unique_ptr<FrontierExchange> make_frontier_exchange(const mpi::Comm& comm, const Partition1D& part,
                                                         int summary_granularity, const FrontierSharing& sharing);

}  // namespace g500::exchange
