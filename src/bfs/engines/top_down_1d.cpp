#include "bfs/engines/top_down_1d.hpp"

#include <algorithm>
#include <utility>

#include "bfs/id_width.hpp"
#include "core/memory.hpp"

namespace g500 {
namespace {

// Counted as if the build's buffers and the search's state were held together.
EngineMemory top_down_1d_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  const double id = id_bytes(options);
  const double n_local = shape.vertices / shape.ranks + 64;
  double bytes = csr_1d_build_bytes(shape.vertices, shape.tuples, shape.ranks, id);
  bytes += n_local / 8 + 2 * 8 * n_local;                  // visited, frontier queues
  // Coalescing buffers: two per destination (filling, in flight) and the posted receives.
  bytes += (2.0 * shape.ranks + 4) * static_cast<double>(options.coalescing.coalescing_size) * 2 * id;
  return EngineMemory::of(bytes, bytes);
}

}  // namespace

EngineSpec top_down_1d_engine() {
  return {.name = "top-down-1d",
          .help = "level-synchronous top-down BFS with asynchronous, coalesced point-to-point queries, one thread "
                  "per rank (the reference code's; paper 001)",
          .make = [](const EngineContext& c) { return make_for_id_width<TopDown1D>(c); },
          .memory_bytes = &top_down_1d_memory_bytes,
          .thread_level = mpi::ThreadLevel::funneled,
          .option_groups = {&kCoalescingGroup, &kIdsGroup},
          .reads_arc_sketch = true};
}

template <class Column>
TopDown1D<Column>::TopDown1D(const EngineContext& context)
    : options_(context.options), comm_(context.comm), queries_comm_(context.comm.split(0, context.comm.rank())),
      part_(context.part), arc_sketch_(context.arc_sketch), csr_{part_, {}, {}}, messenger_(queries_comm_, options_.coalescing.coalescing_size) {}

template <class Column>
void TopDown1D<Column>::build(const EdgeSource& source) {
  csr_ = build_csr_1d<Column>(source, part_, comm_, RowOrder::by_id, exchange::kBuildRound, nullptr,
                              std::exchange(arc_sketch_, nullptr));
  visited_ = Bitmap(part_.local_count());
}

template <class Column>
void TopDown1D<Column>::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  start_parents(parents, part_, "top-down-1d");
  visited_.clear();
  queue_.clear();
  edge_count_t frontier_edges = 0;
  if (part_.owns(root)) {
    const local_t r = part_.to_local(root);
    parents[r] = root;
    visited_.set(r);
    queue_.push_back(r);
    frontier_edges = csr_.degree(r);
  }
  frontier_edges = comm_.allreduce<edge_count_t>(frontier_edges, mpi::Op::sum);
  std::int64_t frontier_vertices = 1;
  LevelProfiler profiler(comm_, profile);
  const int me = part_.rank();

  StepCounts step;
  const auto visit = [&](local_t v, vertex_t parent) {
    if (visited_.test(v)) return;
    visited_.set(v);
    parents[v] = parent;
    next_.push_back(v);
    ++step.discovered;
    step.discovered_edges += csr_.degree(v);
  };
  const auto on_arrival = [&](std::span<const Query> queries) {
    for (const Query& q : queries) visit(part_.to_local(static_cast<vertex_t>(q.vertex)), static_cast<vertex_t>(q.parent));
  };

  for (int level = 0; frontier_vertices > 0; ++level) {
    profiler.begin_level();
    step = {};
    next_.clear();
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const local_t u = queue_[i];
      const vertex_t u_global = part_.to_global(u);
      step.edges_examined += csr_.degree(u);
      for (const Column* it = csr_.begin(u); it != csr_.end(u); ++it) {
        const vertex_t v = static_cast<vertex_t>(*it);
        const int owner = part_.owner(v);
        if (owner == me) visit(part_.to_local(v), u_global);
        else messenger_.send(owner, Query{static_cast<Column>(v), static_cast<Column>(u_global)}, on_arrival);
      }
      // Handle arrivals now and then even when nothing is sent (a rank of local-only edges).
      if ((i & 63) == 63) messenger_.poll(on_arrival);
    }
    const exchange::MessengerLevel sent = messenger_.end_level(on_arrival);
    profiler.add_send_wait(sent.send_wait_seconds);
    profiler.add_poll(sent.poll_seconds);
    const StepCounts found = profiler.end_level(level, Direction::top_down, frontier_vertices, frontier_edges, step);
    frontier_vertices = found.discovered;
    frontier_edges = found.discovered_edges;
    queue_.swap(next_);
  }
}

template class TopDown1D<std::uint32_t>;
template class TopDown1D<vertex_t>;

}  // namespace g500
