#include "bfs/engines/hybrid_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <utility>
#include <atomic>

#include "bfs/bottom_up_scan.hpp"
#include "bfs/id_width.hpp"
#include "core/timer.hpp"
#include "graph/degree_code.hpp"
#include "core/id_index.hpp"
#include "core/memory.hpp"

namespace g500 {
namespace {

// Whether a graph of `vertices` and `tuples` on `ranks` is renumbered (BottomUpOptions::degree_order).
bool renumbered(const BfsOptions& options, double vertices, double tuples, int ranks) {
  if (options.bottom_up.degree_order != DegreeOrder::automatic) return options.bottom_up.degree_order == DegreeOrder::on;
  return !neighbour_keys_by_entry(vertices, 2 * tuples / ranks);
}

EngineMemory hybrid_1d_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  // A relay arrangement that does not fit the rank count is refused here, before any work.
  if (!options.node.relay.empty()) parse_grid(options.node.relay, shape.ranks, "--relay");
  const double id = id_bytes(options);
  const double n_local = shape.vertices / shape.ranks + 64, m_local = shape.tuples / shape.ranks + 1;
  const bool ordered = renumbered(options, shape.vertices, shape.tuples, shape.ranks);
  // Kernel 1: the rows with the room duplicates took, their cursors and one round's buffers; then
  // the window order's maps, and the row sort's records of the neighbours (a table of every
  // vertex's code and move, or a byte an entry asked in rounds) and a long row's keys.
  EngineMemory need;
  need.build = csr_1d_build_bytes(shape.vertices, shape.tuples, shape.ranks, id);
  if (ordered) need.build += window_order_build_bytes(shape.vertices, shape.tuples, shape.ranks, id, omp_get_max_threads());
  need.build += neighbour_key_bytes(shape.vertices, shape.tuples, shape.ranks, ordered ? 3 : 1, id) +
                2 * 8 * std::min(2 * m_local, static_cast<double>(exchange::kBuildRound));
  // Searching: the rows (duplicates dropped: counted as if none were), offsets, first neighbours
  // (and in original ids, with every vertex's move back, when ordered), bitmaps, and the top-down
  // queue and its finds: a vertex joins at most one top-down step, and those run while the
  // frontier's edges are under the unexplored ones over alpha.
  need.hold("rows: neighbour ids", id * 2 * m_local);
  need.hold("rows: offsets", 8 * n_local);
  need.hold("first neighbours", id * n_local);
  if (ordered) need.hold("degree order: first parents, every vertex's move back", id * n_local + 2 * shape.vertices);
  need.hold("visited, next, isolated: block bitmaps", 3 * n_local / 8);
  need.hold("frontier of every vertex: bitmap and summary", shape.vertices / 8 + shape.vertices / 512);
  need.hold("top-down queue and finds",
            3 * id * std::min(n_local, 2 * 2 * m_local / std::max(1.0, options.direction.alpha)));
  // top-down offers (buckets, sent, received): one round, plus room for a hub's row that ends it
  need.hold("top-down offers: buckets, sent, received",
            3 * 2 * id * std::min(2 * m_local, 2.0 * exchange::kTopDownRound));
  if (options.node.hubs > 0)
    need.hold("hubs: index, ids, state", IdIndex::bytes(options.node.hubs) + 17.0 * options.node.hubs);
  return need;
}

}  // namespace

EngineSpec hybrid_1d_engine() {
  return {.name = "hybrid-1d",
          .help = "direction-optimizing BFS on a 1D partition (Beamer; papers 000, 002)",
          .make = [](const EngineContext& c) { return make_for_id_width<Hybrid1D>(c); },
          .memory_bytes = &hybrid_1d_memory_bytes,
          .thread_level = mpi::ThreadLevel::funneled,
          .option_groups = {&kDirectionGroup, &kBottomUpGroup, &kIdsGroup, &kNodeGroup},
          .reads_arc_sketch = true};
}

template <class Column>
Hybrid1D<Column>::Hybrid1D(const EngineContext& context)
    : options_(context.options), comm_(context.comm), part_(context.part), arc_sketch_(context.arc_sketch),
      csr_{part_, {}, {}},
      buckets_(comm_.size(), omp_get_max_threads(), "top_down.parent_offers") {
  const NodeOptions& node = options_.node;
  if (node.node_shared) nodes_.emplace(comm_, node.ranks_per_node);
  if (!node.relay.empty()) relay_.emplace(comm_, parse_grid(node.relay, comm_.size(), "--relay"));
  gather_ = exchange::make_frontier_exchange(comm_, part_, options_.bottom_up.summary_granularity,
                                             {nodes_ ? &*nodes_ : nullptr, node.parallel_allgather});
}

template <class Column>
void Hybrid1D<Column>::build(const EdgeSource& source) {
  ordered_ = renumbered(options_, static_cast<double>(part_.num_vertices()),
                        static_cast<double>(source.global_tuples()), comm_.size());
  csr_ = build_csr_1d<Column>(source, part_, comm_, RowOrder::by_neighbour_degree, exchange::kBuildRound,
                              ordered_ ? &order_ : nullptr, std::exchange(arc_sketch_, nullptr));
  if (ordered_) {
    to_old_all_.resize(part_.num_vertices());
    comm_.allgatherv<std::int16_t>(std::span<const std::int16_t>(order_.to_old.data(), order_.to_old.size()),
                                   to_old_all_.data(), part_.vertex_counts(), part_.vertex_displs());
  }
  global_entries_ = comm_.allreduce<edge_count_t>(csr_.local_entries(), mpi::Op::sum);
  visited_ = Bitmap(part_.local_count());
  // Vertices without neighbours can never join a tree: starting each search with them marked as
  // visited keeps bottom-up steps from walking over them level after level.
  isolated_ = Bitmap(part_.local_count());
  for (local_t i = 0; i < part_.local_count(); ++i)
    if (csr_.degree(i) == 0) isolated_.set(i);
  first_neighbour_.resize(part_.local_count());
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part_.local_count(); ++i) first_neighbour_[i] = csr_.degree(i) ? *csr_.begin(i) : Column{};
  if (ordered_) {
    // The same neighbours in original ids, for the parents bottom-up steps write (a lookup of the
    // way back for each would read at random).
    first_parent_.resize(part_.local_count());
#pragma omp parallel for schedule(static)
    for (local_t i = 0; i < part_.local_count(); ++i)
      first_parent_[i] = static_cast<Column>(original_id(static_cast<vertex_t>(first_neighbour_[i])));
  }
  thread_next_.assign(omp_get_max_threads(), {});
  if (options_.node.hubs > 0) {
    hubs_.select(comm_, part_, options_.node.hubs, [&](local_t i) { return degree_code(csr_.degree(i)); });
  }
}

template <class Column>
void Hybrid1D<Column>::claim(local_t v, vertex_t parent, std::span<vertex_t> parents, StepCounts& counts,
                             Reached& next) {
  if (!visited_.set_atomic(v)) return;
  if (!ordered_) parents[v] = parent;
  else next.parents.push_back(static_cast<Column>(parent));
  next.vertices.push_back(static_cast<Column>(v));
  ++counts.discovered;
  counts.discovered_edges += csr_.degree(v);
}

template <class Column>
StepCounts Hybrid1D<Column>::top_down_step(std::span<vertex_t> parents) {
  StepCounts total;
  for (auto& next : thread_next_) {  // here, not per thread: a smaller team leaves some unused
    next.value.vertices.clear();
    next.value.parents.clear();
  }
  plan_pieces(options_.exchange_round > 0 ? options_.exchange_round : exchange::kTopDownRound);
  const bool with_hubs = hubs_.count() > 0;
  // Collectives are exchange time, not compute: a rank waits in them for slower ranks.
  const Timer agreeing;
  if (with_hubs && hubs_stale_) {
    hubs_.refresh(comm_, part_, [&](vertex_t h) { return visited_.test(part_.to_local(h)); });
    hubs_stale_ = false;
  }
  std::int64_t hub_edges = 0;
  const std::int64_t rounds = comm_.allreduce<std::int64_t>(piece_ends_.size(), mpi::Op::max);
  exchange_seconds_ += agreeing.seconds();
  for (std::int64_t r = 0; r < rounds; ++r) {
    // Ranks with fewer pieces take part in the remaining exchanges with nothing to send.
    const std::int64_t n_pieces = static_cast<std::int64_t>(piece_ends_.size()), done = queue_.size();
    const std::int64_t first = r == 0 ? 0 : r <= n_pieces ? piece_ends_[r - 1] : done;
    const std::int64_t last = r < n_pieces ? piece_ends_[r] : done;
    hub_edges += offer_piece(first, last, parents, total);
    const Timer exchanging;
    if (relay_) {
      buckets_.exchange_relayed(comm_, *relay_, arrived_,
                                [&](const ParentOffer& o) { return part_.owner(static_cast<vertex_t>(o.vertex)); });
    } else {
      buckets_.exchange(comm_, arrived_);
    }
    exchange_seconds_ += exchanging.seconds();
    claim_arrived(parents, total);
  }
  if (with_hubs) {
    mpi::traffic().add_logical("top_down.hub_edges_kept_local", hub_edges);
    const Timer settling;
    hubs_.settle(comm_, [&](vertex_t hub, vertex_t parent) {
      if (part_.owns(hub)) claim(part_.to_local(hub), parent, parents, total, thread_next_.front().value);
    });
    exchange_seconds_ += settling.seconds();
  }
  if (ordered_) write_waiting_parents(parents);
  queue_.clear();
  for (auto& next : thread_next_) queue_.insert(queue_.end(), next.value.vertices.begin(), next.value.vertices.end());
  return total;
}

template <class Column>
void Hybrid1D<Column>::plan_pieces(edge_count_t round) {
  // The frontier is cut into pieces of about `round` edges, one exchange each, so the offer
  // buffers stay a few MB even when a hub's level offers hundreds of millions of edges.
  piece_ends_.clear();
  edge_count_t in_piece = 0;
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    in_piece += csr_.degree(queue_[i]);
    if (in_piece >= round) {
      piece_ends_.push_back(static_cast<std::int64_t>(i) + 1);
      in_piece = 0;
    }
  }
  if (in_piece > 0) piece_ends_.push_back(static_cast<std::int64_t>(queue_.size()));
}

template <class Column>
void Hybrid1D<Column>::prefetch_claim(local_t v, std::span<vertex_t> parents) const {
  // (With the degree order parents are written after the step.)
  if (!ordered_) __builtin_prefetch(&parents[v], 1);
  __builtin_prefetch(&csr_.offsets[v]);
}

// Kept whole: one parallel region over the piece's edges, whose inner loop (prefetch, hub test,
// claim or offer) is the top-down step's hot path.
template <class Column>
std::int64_t Hybrid1D<Column>::offer_piece(std::int64_t first, std::int64_t last, std::span<vertex_t> parents,
                                           StepCounts& total) {
  // Threads share the piece by edges, not by vertices: a level whose frontier is a few hubs is
  // a few long rows.
  piece_edges_.resize(last - first + 1);
  piece_edges_[0] = 0;
  for (std::int64_t i = first; i < last; ++i) piece_edges_[i - first + 1] = piece_edges_[i - first] + csr_.degree(queue_[i]);
  const edge_count_t piece_total = piece_edges_.back();
  constexpr edge_count_t kBlock = 2048;
  const std::int64_t blocks = (piece_total + kBlock - 1) / kBlock;
  const bool with_hubs = hubs_.count() > 0;
  const int me = comm_.rank();
  std::int64_t hub_edges = 0;
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
    Reached& next = thread_next_[t].value;
    StepCounts mine;
    std::int64_t my_hub_edges = 0;
#pragma omp for schedule(dynamic, 1) nowait
    for (std::int64_t block = 0; block < blocks; ++block) {
      const edge_count_t from = block * kBlock, to = std::min(piece_total, from + kBlock);
      // The frontier vertex whose edges hold `from`, then edge by edge to `to`.
      std::int64_t i = std::upper_bound(piece_edges_.begin(), piece_edges_.end(), from) - piece_edges_.begin() - 1;
      for (edge_count_t at = from; at < to; ++i) {
        const local_t u = queue_[first + i];
        const vertex_t u_global = part_.to_global(original_place(u));  // parents travel in original ids
        const Column* row = csr_.begin(u);
        const Column* row_from = row + (at - piece_edges_[i]);
        const Column* row_to = row + std::min(piece_edges_[i + 1], to) - piece_edges_[i];
        mine.edges_examined += row_to - row_from;
        at += row_to - row_from;
        for (const Column* it = row_from; it != row_to; ++it) {
          if (it + kClaimPrefetchDistance < row_to) {
            const vertex_t soon = static_cast<vertex_t>(it[kClaimPrefetchDistance]);
            if (part_.owns(soon)) prefetch_claim(part_.to_local(soon), parents);
          }
          const vertex_t v = static_cast<vertex_t>(*it);
          if (with_hubs) {
            // An edge to a hub never travels: dropped if the hub is visited, else a candidate.
            const std::int64_t h = hubs_.index(v);
            if (h >= 0) {
              ++my_hub_edges;
              if (!hubs_.visited(h)) hubs_.offer(h, u_global);
              continue;
            }
          }
          const int owner = part_.owner(v);
          if (owner == me) {
            claim(part_.to_local(v), u_global, parents, mine, next);
          } else {
            buckets_.push(t, owner, ParentOffer{static_cast<Column>(v), static_cast<Column>(u_global)});
          }
        }
      }
    }
    total.add_atomic(mine);
#pragma omp atomic
    hub_edges += my_hub_edges;
  }
  return hub_edges;
}

template <class Column>
void Hybrid1D<Column>::claim_arrived(std::span<vertex_t> parents, StepCounts& total) {
  const std::vector<ParentOffer>& arrived = arrived_;
  const std::int64_t n_arrived = static_cast<std::int64_t>(arrived.size());
#pragma omp parallel
  {
    Reached& next = thread_next_[omp_get_thread_num()].value;
    StepCounts mine;
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < n_arrived; ++i) {
      if (i + kClaimPrefetchDistance < n_arrived) {
        prefetch_claim(part_.to_local(static_cast<vertex_t>(arrived[i + kClaimPrefetchDistance].vertex)), parents);
      }
      claim(part_.to_local(static_cast<vertex_t>(arrived[i].vertex)), static_cast<vertex_t>(arrived[i].parent),
            parents, mine, next);
    }
    total.add_atomic(mine);
  }
}

template <class Column>
void Hybrid1D<Column>::write_waiting_parents(std::span<vertex_t> parents) {
  constexpr std::size_t kPrefetchDistance = 16;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t t = 0; t < thread_next_.size(); ++t) {
    const Reached& found = thread_next_[t].value;
    for (std::size_t i = 0; i < found.vertices.size(); ++i) {
      if (i + kPrefetchDistance < found.vertices.size()) __builtin_prefetch(&order_.to_old[found.vertices[i + kPrefetchDistance]]);
      parents[original_place(found.vertices[i])] = static_cast<vertex_t>(found.parents[i]);
    }
  }
}

template <class Column>
StepCounts Hybrid1D<Column>::bottom_up_step(std::span<vertex_t> parents) {
  const bool summary = options_.bottom_up.summary_check;
  if (ordered_) return summary ? bottom_up_pass<true, true>(parents) : bottom_up_pass<true, false>(parents);
  return summary ? bottom_up_pass<false, true>(parents) : bottom_up_pass<false, false>(parents);
}

// One thread's share of a bottom-up step, as the shared scan's block (bfs/bottom_up_scan.hpp): this
// rank's unvisited vertices, each looking for a parent in the gathered frontier. Compiled apart with
// and without the degree order (Ordered: where a parent goes and the id it is written as are
// lookups, graph/window_order.hpp) and the summary check (Summary: a row entry is tested against
// the summary bitmap first), so that the hot loop tests neither. The tables are copied in as
// pointers, which the compiler can keep in registers.
namespace {

template <class Column, bool Ordered, bool Summary>
struct OwnBlockScan {
  using Entry = Column;
  const Csr1D<Column>& csr;
  const Column* first_neighbour;  // each row's first entry, in the engine's numbering
  const Column* first_parent;     // the same in original ids (Ordered)
  const std::int16_t* to_old;     // Ordered: local vertex v's place is v + to_old[v]
  const std::int16_t* to_old_all;  // Ordered: global vertex u's original id is u + to_old_all[u]
  exchange::FrontierView frontier;
  word_t* visited;
  word_t* next;  // this rank's slice of the next frontier
  vertex_t* parents;
  std::int64_t words;
  word_t last_mask;
  StepCounts counts;

  local_t place(local_t v) const {
    if constexpr (Ordered) return v + to_old[v];
    else return v;
  }
  vertex_t original(vertex_t u) const {
    if constexpr (Ordered) return u + to_old_all[u];
    else return u;
  }
  // (Unvisited vertices have a first neighbour: the isolated start out visited.)
  word_t unvisited(std::int64_t w) const { return ~visited[w] & (w == words - 1 ? last_mask : ~word_t{0}); }
  std::span<const Column> row(local_t v) const { return {csr.begin(v), static_cast<std::size_t>(csr.degree(v))}; }
  bool in_frontier(Column u) const {
    if constexpr (Summary) return frontier.contains(static_cast<vertex_t>(u));
    else return frontier.frontier.test(static_cast<vertex_t>(u));
  }

  // Without branches: whether a first neighbour is in the frontier is a coin toss in the busiest
  // levels. An unvisited vertex's parent is kNoParent already, so it is written either way. Word w
  // of the next frontier is written here whole, and only added to later.
  word_t try_first_entries(std::int64_t w, word_t todo) {
    word_t found = 0;
    for (; todo; todo &= todo - 1) {
      const int b = __builtin_ctzll(todo);
      const local_t v = w * kWordBits + b;
      const vertex_t parent = static_cast<vertex_t>(first_neighbour[v]);
      const word_t hit = frontier.frontier.test(parent);
      vertex_t written = parent;
      if constexpr (Ordered) written = static_cast<vertex_t>(first_parent[v]);
      parents[place(v)] = hit ? written : kNoParent;
      found |= hit << b;
      counts.discovered_edges += static_cast<std::int64_t>(hit) * csr.degree(v);
    }
    counts.discovered += __builtin_popcountll(found);
    next[w] = found;
    return found;
  }

  void found_in_row(local_t v, const Column* u) {
    parents[place(v)] = original(static_cast<vertex_t>(*u));
    ++counts.discovered;
    counts.discovered_edges += csr.degree(v);
  }
  void mark(std::int64_t w, word_t newly) {
    visited[w] |= newly;
    next[w] |= newly;
  }
  void word_done() {}
};

}  // namespace

template <class Column>
template <bool Ordered, bool Summary>
StepCounts Hybrid1D<Column>::bottom_up_pass(std::span<vertex_t> parents) {
  // Threads take chunks of words, in turn, as rows vary in length.
  constexpr std::int64_t kChunkWords = 256;
  const std::int64_t words = visited_.num_words();
  const std::int64_t chunks = (words + kChunkWords - 1) / kChunkWords;
  StepCounts total;
#pragma omp parallel
  {
    OwnBlockScan<Column, Ordered, Summary> block{.csr = csr_,
                                                 .first_neighbour = first_neighbour_.data(),
                                                 .first_parent = first_parent_.data(),
                                                 .to_old = order_.to_old.data(),
                                                 .to_old_all = to_old_all_.data(),
                                                 .frontier = gather_->view(),
                                                 .visited = visited_.data(),
                                                 .next = gather_->next_slice().data(),
                                                 .parents = parents.data(),
                                                 .words = words,
                                                 .last_mask = last_word_mask(part_.local_count()),
                                                 .counts = {}};
#pragma omp for schedule(dynamic, 1) nowait
    for (std::int64_t c = 0; c < chunks; ++c) {
      bottom_up::scan(block, c * kChunkWords, std::min(words, (c + 1) * kChunkWords));
    }
    total.add_atomic(block.counts);
  }
  return total;
}

template <class Column>
void Hybrid1D<Column>::queue_to_bitmap() {
  const std::span<word_t> bits = gather_->next_slice();
  std::fill(bits.begin(), bits.end(), word_t{0});
  const std::int64_t n = static_cast<std::int64_t>(queue_.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    std::atomic_ref<word_t>(bits[queue_[i] >> 6]).fetch_or(word_t{1} << (queue_[i] & 63), std::memory_order_relaxed);
  }
}

template <class Column>
void Hybrid1D<Column>::bitmap_to_queue() {
  queue_.clear();
  const std::span<const word_t> slice = gather_->next_slice();
  for (std::size_t w = 0; w < slice.size(); ++w) {
    for (word_t bits = slice[w]; bits; bits &= bits - 1) {
      queue_.push_back(static_cast<Column>(w * kWordBits + __builtin_ctzll(bits)));
    }
  }
}

template <class Column>
void Hybrid1D<Column>::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  start_parents(parents, part_, "hybrid-1d");
  std::copy(isolated_.data(), isolated_.data() + isolated_.num_words(), visited_.data());
  hubs_.reset();
  hubs_stale_ = true;  // the root may be a hub
  queue_.clear();
  edge_count_t root_degree = 0;
  if (part_.owns(root)) {
    const local_t r = ordered_ ? order_.new_of(part_.to_local(root)) : part_.to_local(root);
    parents[original_place(r)] = root;
    visited_.set(r);  // (an isolated root is already marked: it simply has no tree to grow)
    queue_.push_back(static_cast<Column>(r));
    root_degree = csr_.degree(r);
  }
  DirectionPolicy policy(options_.direction, part_.num_vertices(), global_entries_);
  policy.start(comm_.allreduce<edge_count_t>(root_degree, mpi::Op::sum));
  LevelProfiler profiler(comm_, profile);
  bool frontier_is_bitmap = false;

  for (int level = 0; !policy.done(); ++level) {
    profiler.begin_level();
    exchange_seconds_ = 0;
    const Direction direction = policy.choose();
    StepCounts step;
    if (direction == Direction::top_down) {
      if (frontier_is_bitmap) bitmap_to_queue();
      step = top_down_step(parents);
      frontier_is_bitmap = false;
    } else {
      if (!frontier_is_bitmap) queue_to_bitmap();
      const Timer gathering;
      gather_->exchange();
      exchange_seconds_ += gathering.seconds();
      step = bottom_up_step(parents);
      frontier_is_bitmap = true;
      hubs_stale_ = true;
    }
    profiler.add_exchange(exchange_seconds_);
    policy.end_level(profiler, level, direction, step);
  }
}

template class Hybrid1D<std::uint32_t>;
template class Hybrid1D<vertex_t>;

}  // namespace g500
