#include "bfs/hybrid_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "core/timer.hpp"

namespace g500 {

Hybrid1D::Hybrid1D(const BfsOptions& options, const mpi::Comm& comm, const Partition1D& part)
    : options_(options), comm_(comm), part_(part), csr_{part, {}, {}},
      buckets_(comm.size(), omp_get_max_threads()) {}

void Hybrid1D::build(const EdgeSlice& slice) {
  csr_ = build_csr_1d(slice, part_, comm_);
  order_rows_by_degree(csr_, comm_);
  global_entries_ = comm_.allreduce<edge_count_t>(csr_.local_entries(), mpi::Op::sum);
  visited_ = Bitmap(part_.local_count());
  // Vertices without neighbours can never join a tree: starting each search with them marked as
  // visited keeps bottom-up steps from walking over them level after level.
  isolated_ = Bitmap(part_.local_count());
  for (local_t i = 0; i < part_.local_count(); ++i)
    if (csr_.degree(i) == 0) isolated_.set(i);
  frontier_local_ = Bitmap(part_.local_count());
  frontier_ = Bitmap(part_.num_vertices());
  summary_ = SummaryBitmap(part_.num_vertices(), options_.summary_granularity);
  thread_next_.assign(omp_get_max_threads(), {});
  word_counts_.assign(comm_.size(), 0);
  for (int r = 0; r < comm_.size(); ++r) {
    word_counts_[r] = static_cast<int>(part_.first_word(r + 1) - part_.first_word(r));
  }
  word_displs_ = mpi::Comm::displacements(word_counts_);
}

void Hybrid1D::claim(local_t v, vertex_t parent, std::span<vertex_t> parents, StepCounts& counts,
                     std::vector<local_t>& next) {
  if (!visited_.set_atomic(v)) return;
  parents[v] = parent;
  next.push_back(v);
  ++counts.discovered;
  counts.discovered_edges += csr_.degree(v);
}

Hybrid1D::StepCounts Hybrid1D::top_down_step(std::span<vertex_t> parents) {
  StepCounts total;
  const int me = comm_.rank();
  const std::int64_t frontier_size = static_cast<std::int64_t>(queue_.size());
  for (auto& next : thread_next_) next.clear();  // here, not per thread: a smaller team leaves some unused
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
    std::vector<local_t>& next = thread_next_[t];
    StepCounts mine;
#pragma omp for schedule(dynamic, 64) nowait
    for (std::int64_t i = 0; i < frontier_size; ++i) {
      const local_t u = queue_[i];
      const vertex_t u_global = part_.to_global(u);
      mine.edges_examined += csr_.degree(u);
      for (const vertex_t* it = csr_.begin(u); it != csr_.end(u); ++it) {
        const vertex_t v = *it;
        const int owner = part_.owner(v);
        if (owner == me) {
          claim(part_.to_local(v), u_global, parents, mine, next);
        } else {
          buckets_.push(t, owner, Pair{v, u_global});
        }
      }
    }
    total.add_atomic(mine);
  }
  buckets_.exchange(comm_, arrived_);
  const std::vector<Pair>& arrived = arrived_;
  const std::int64_t n_arrived = static_cast<std::int64_t>(arrived.size());
#pragma omp parallel
  {
    std::vector<local_t>& next = thread_next_[omp_get_thread_num()];
    StepCounts mine;
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < n_arrived; ++i) {
      claim(part_.to_local(arrived[i].vertex), arrived[i].parent, parents, mine, next);
    }
    total.add_atomic(mine);
  }
  queue_.clear();
  for (auto& next : thread_next_) queue_.insert(queue_.end(), next.begin(), next.end());
  return total;
}

Hybrid1D::StepCounts Hybrid1D::bottom_up_step(std::span<vertex_t> parents) {
  StepCounts total;
  const std::int64_t words = visited_.num_words();
  const local_t n_local = part_.local_count();
  word_t* next_bits = frontier_local_.data();
  word_t* visited_bits = visited_.data();
#pragma omp parallel
  {
    StepCounts mine;
#pragma omp for schedule(dynamic, 256) nowait
    for (std::int64_t w = 0; w < words; ++w) {
      // Rows are visited in order but only their first entries are read: prefetch the next word's.
      if (w + 1 < words) {
        for (word_t next = ~visited_bits[w + 1]; next; next &= next - 1) {
          const local_t v = (w + 1) * kWordBits + __builtin_ctzll(next);
          if (v < n_local) __builtin_prefetch(csr_.begin(v));
        }
      }
      word_t todo = ~visited_bits[w];
      word_t found = 0;
      while (todo) {
        const int b = __builtin_ctzll(todo);
        todo &= todo - 1;
        const local_t v = w * kWordBits + b;
        if (v >= n_local) break;
        for (const vertex_t* it = csr_.begin(v); it != csr_.end(v); ++it) {
          ++mine.edges_examined;
          const vertex_t u = *it;
          if (summary_.may_contain(u) && frontier_.test(u)) {
            parents[v] = u;
            found |= word_t{1} << b;
            ++mine.discovered;
            mine.discovered_edges += csr_.degree(v);
            break;
          }
        }
      }
      next_bits[w] = found;
      visited_bits[w] |= found;
    }
    total.add_atomic(mine);
  }
  return total;
}

void Hybrid1D::queue_to_bitmap() {
  frontier_local_.clear();
  const std::int64_t n = static_cast<std::int64_t>(queue_.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) frontier_local_.set_atomic(queue_[i]);
}

void Hybrid1D::bitmap_to_queue() {
  queue_.clear();
  const std::int64_t words = frontier_local_.num_words();
  for (std::int64_t w = 0; w < words; ++w) {
    for (word_t bits = frontier_local_.word(w); bits; bits &= bits - 1) {
      queue_.push_back(w * kWordBits + __builtin_ctzll(bits));
    }
  }
}

void Hybrid1D::gather_frontier() {
  comm_.allgatherv<word_t>({frontier_local_.data(), static_cast<std::size_t>(frontier_local_.num_words())},
                           frontier_.data(), word_counts_, word_displs_);
  summary_.rebuild(frontier_);
}

void Hybrid1D::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  if (static_cast<local_t>(parents.size()) != part_.local_count()) {
    throw std::invalid_argument("hybrid-1d: the parent array does not match this rank's block");
  }
  std::fill(parents.begin(), parents.end(), kNoParent);
  std::copy(isolated_.data(), isolated_.data() + isolated_.num_words(), visited_.data());
  queue_.clear();
  edge_count_t root_degree = 0;
  if (part_.owns(root)) {
    const local_t r = part_.to_local(root);
    parents[r] = root;
    visited_.set(r);  // (an isolated root is already marked: it simply has no tree to grow)
    queue_.push_back(r);
    root_degree = csr_.degree(r);
  }
  // Global state that drives the direction choice; identical on every rank.
  std::int64_t frontier_vertices = 1;
  std::int64_t frontier_edges = comm_.allreduce<edge_count_t>(root_degree, mpi::Op::sum);
  std::int64_t unexplored_edges = global_entries_;
  const std::int64_t n = part_.num_vertices();
  Direction direction = Direction::top_down;
  bool frontier_is_bitmap = false;
  bool shrinking = false;

  for (int level = 0; frontier_vertices > 0; ++level) {
    Timer timer;
    const std::int64_t previous_vertices = frontier_vertices;
    if (direction == Direction::top_down) {
      if (frontier_edges > unexplored_edges / options_.alpha) direction = Direction::bottom_up;
    } else if (shrinking && frontier_vertices < n / options_.beta) {
      direction = Direction::top_down;
    }
    unexplored_edges -= frontier_edges;
    StepCounts step;
    if (direction == Direction::top_down) {
      if (frontier_is_bitmap) bitmap_to_queue();
      step = top_down_step(parents);
      frontier_is_bitmap = false;
    } else {
      if (!frontier_is_bitmap) queue_to_bitmap();
      gather_frontier();
      step = bottom_up_step(parents);
      frontier_is_bitmap = true;
    }
    std::int64_t sums[3] = {step.discovered, step.discovered_edges, step.edges_examined};
    comm_.allreduce_inplace<std::int64_t>(sums, mpi::Op::sum);
    if (profile) {
      profile->push_back({level, direction, frontier_vertices, frontier_edges, sums[0], sums[2], timer.seconds()});
    }
    frontier_vertices = sums[0];
    frontier_edges = sums[1];
    shrinking = frontier_vertices < previous_vertices;
  }
}

}  // namespace g500
