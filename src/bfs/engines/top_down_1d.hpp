#pragma once
// Level-synchronous top-down BFS with asynchronous, coalesced queries (`--bfs top-down-1d`): the
// Graph500 reference code's algorithm as paper 001 describes it (Fig. 1). Each rank expands its
// frontier vertices; a neighbour owned elsewhere becomes a (vertex, parent) query to its owner,
// coalesced per destination into `--coalescing-size` queries per message
// (exchange/coalesced_messenger.hpp); arrivals are handled while sending; a level ends with the
// partial messages, end-of-level signals and an allreduce. One thread per rank, as the reference:
// run it with a rank per core. Options: groups "coalescing" and "ids".
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/engine_spec.hpp"
#include "bfs/level_profiler.hpp"
#include "core/bitmap.hpp"
#include "exchange/coalesced_messenger.hpp"
#include "graph/csr_1d.hpp"

namespace g500 {

// Its registry row (bfs/registry.cpp).
EngineSpec top_down_1d_engine();

// Column: the stored width of vertex ids, also the width of the queries sent.
template <class Column>
class TopDown1D : public BfsEngine {
 public:
  explicit TopDown1D(const EngineContext& context);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) override;
  std::optional<RowCodeSize> row_codes() const override { return row_codes_of(csr_); }

  // A query: `parent` reached `vertex`, which the receiving rank owns.
  struct Query {
    Column vertex;
    Column parent;
  };

 private:
  BfsOptions options_;
  const mpi::Comm& comm_;
  mpi::Comm queries_comm_;  // the messenger's own communicator
  Partition1D part_;
  ArcSketch* arc_sketch_;  // until build() returns
  Csr1D<Column> csr_;
  exchange::CoalescedMessenger<Query> messenger_;
  Bitmap visited_;
  std::vector<local_t> queue_, next_;
};

}  // namespace g500
