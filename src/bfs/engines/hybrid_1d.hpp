#pragma once
// Direction-optimizing BFS on a 1D partition (`--bfs hybrid-1d`): Beamer, Asanovic and Patterson,
// "Direction-Optimizing Breadth-First Search", SC 2012, distributed as in the NUMA-cluster hybrid
// BFS [000] and Lin et al., "Scalable Graph Traversal on Sunway TaihuLight with Ten Million Cores",
// IPDPS 2017 [002] (references: docs/papers.md). Top-down steps send (vertex, parent) pairs to the
// owners with one alltoallv; bottom-up steps gather the frontier as a bitmap and let every unvisited
// local vertex look for a parent in it, through a summary bitmap. Options: groups "direction",
// "bottom-up", "ids" and "node" (node-shared frontiers, relay batching, hub replication).
#include <memory>
#include <optional>
#include <vector>

#include "bfs/direction_policy.hpp"
#include "bfs/engine.hpp"
#include "bfs/engine_spec.hpp"
#include "bfs/level_profiler.hpp"
#include "core/bitmap.hpp"
#include "core/padded.hpp"
#include "exchange/frontier_exchange.hpp"
#include "exchange/owner_buckets.hpp"
#include "exchange/relay_grid.hpp"
#include "exchange/replicated_hubs.hpp"
#include "exchange/rounds.hpp"
#include "graph/csr_1d.hpp"
#include "graph/window_order.hpp"
#include "mpi/node_topology.hpp"

namespace g500 {

// Its registry row (bfs/registry.cpp).
EngineSpec hybrid_1d_engine();

// Column: the stored width of vertex ids (std::uint32_t when N <= 2^32, else vertex_t), which is
// also the width of the (vertex, parent) offers top-down steps send.
template <class Column>
class Hybrid1D : public BfsEngine {
 public:
  explicit Hybrid1D(const EngineContext& context);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) override;
  std::optional<RowCodeSize> row_codes() const override { return row_codes_of(csr_); }

 private:
  // A parent offer sent to the owner of `vertex` in top-down steps.
  struct ParentOffer {
    Column vertex;
    Column parent;
  };

  StepCounts top_down_step(std::span<vertex_t> parents);
  // The top-down step's phases: the frontier cut into pieces of about `round` edges (piece_ends_);
  // a piece's edges offered to their owners (this rank's own claimed on the spot; returns the
  // edges to hubs, kept local); the offers that arrived claimed.
  void plan_pieces(edge_count_t round);
  std::int64_t offer_piece(std::int64_t first, std::int64_t last, std::span<vertex_t> parents, StepCounts& total);
  void claim_arrived(std::span<vertex_t> parents, StepCounts& total);
  // A claim writes a parent and reads a degree, both at random: fetched this many claims ahead.
  static constexpr std::int64_t kClaimPrefetchDistance = 16;
  void prefetch_claim(local_t v, std::span<vertex_t> parents) const;
  StepCounts bottom_up_step(std::span<vertex_t> parents);
  // The step itself (the shared scan, bfs/bottom_up_scan.hpp), compiled apart with and without
  // the degree order and the summary check, so that the hot loop tests neither.
  template <bool Ordered, bool Summary>
  StepCounts bottom_up_pass(std::span<vertex_t> parents);
  // What one thread reached in a top-down step. With the degree order the parents wait here too:
  // a parent's place is a lookup, cheaper in one prefetched pass after the step than on the spot.
  // Both as Column: the top-down step that reaches most of the graph keeps one entry per vertex.
  struct Reached {
    std::vector<Column> vertices;
    std::vector<Column> parents;
  };
  // Marks local vertex v as reached from `parent` (an original id) if nobody got there first
  // (thread-safe).
  void claim(local_t v, vertex_t parent, std::span<vertex_t> parents, StepCounts& counts, Reached& next);
  void write_waiting_parents(std::span<vertex_t> parents);
  void queue_to_bitmap();
  // Parents are written in the caller's numbering: local vertex v's place, and a parent's id. Both
  // lookups stay in cache: v's place is in its own window, and most parents are the hubs that
  // head their windows.
  local_t original_place(local_t v) const { return ordered_ ? order_.old_of(v) : v; }
  vertex_t original_id(vertex_t u) const { return ordered_ ? u + to_old_all_[u] : u; }
  void bitmap_to_queue();

  BfsOptions options_;
  const mpi::Comm& comm_;
  Partition1D part_;
  ArcSketch* arc_sketch_;  // until build() returns
  Csr1D<Column> csr_;
  edge_count_t global_entries_ = 0;

  big_vector<Column> first_neighbour_;  // each row's first (highest-degree) neighbour, for bottom-up
  // With --degree-order: the block's new numbering (the engine works in it throughout, except for
  // the parents it writes) and every vertex's way back, by global id in new numbering.
  bool ordered_ = false;  // the same on every rank (a rank may hold no vertex, and so no order)
  WindowOrder order_;
  big_vector<std::int16_t> to_old_all_;
  big_vector<Column> first_parent_;  // first_neighbour_ in original ids
  Bitmap isolated_;       // local block: degree 0
  Bitmap visited_;        // local block
  std::vector<Column> queue_;  // the frontier as local indices (top-down steps)
  std::vector<std::int64_t> piece_ends_;  // where each top-down exchange round's piece of queue_ ends
  std::vector<edge_count_t> piece_edges_;  // edges before each vertex of the current piece (and after the last)
  std::vector<Padded<Reached>> thread_next_;
  std::optional<mpi::NodeTopology> nodes_;           // with --node-shared
  std::unique_ptr<exchange::FrontierExchange> gather_;  // its next slice: this block's frontier as bits
  exchange::OwnerBuckets<ParentOffer> buckets_;
  std::vector<ParentOffer> arrived_;
  std::optional<exchange::RelayGrid> relay_;  // with --relay NxM
  exchange::ReplicatedHubs hubs_;  // with --hubs K
  bool hubs_stale_ = true;         // a step visited hubs without telling the other ranks
  double exchange_seconds_ = 0;  // this level's time in collective exchanges
};

}  // namespace g500
