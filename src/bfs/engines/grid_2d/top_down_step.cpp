// The top-down step of the 2D engines (paper 004, Algorithm II): expand the frontier within the
// processor column, then fold each frontier row's entries to their owners within the processor row.
#include <omp.h>

#include <algorithm>

#include "bfs/engines/grid_2d/grid_2d.hpp"
#include "core/timer.hpp"
#include "exchange/rounds.hpp"

namespace g500 {

template <class Column, class Position>
void Grid2D<Column, Position>::claim(local_t sorted, vertex_t parent, int thread) {
  if (one_thread_) {  // plain stores: a locked one stalls on each (random) cache miss
    if (visited_.test(sorted)) return;
    visited_.set(sorted);
  } else if (!visited_.set_atomic(sorted)) {
    return;
  }
  Claims& mine = claimed_[static_cast<std::size_t>(thread)].value;
  mine.list.push_back({static_cast<Column>(sorted), static_cast<Column>(parent)});
  if (mine.list.size() == kClaimsKept) settle(mine, parents_);
}

template <class Column, class Position>
void Grid2D<Column, Position>::settle(Claims& claims, std::span<vertex_t> parents) {
  // A claim's local index is a random read, and its parent and degree two more: the local index is
  // fetched kPrefetchDistance claims ahead, the parent and degree kPrefetchDistance / 2 ahead, once it has arrived.
  constexpr std::size_t kPrefetchDistance = 16;
  const auto fetch_local = [&](local_t sorted) {
    if (!w_to_global_.empty()) __builtin_prefetch(&w_to_global_[own_w_begin_ + sorted]);
    else if (!csr_.sorted_to_local.empty()) __builtin_prefetch(&csr_.sorted_to_local[sorted]);
  };
  const std::vector<Claim>& list = claims.list;
  const std::size_t n = list.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kPrefetchDistance < n) fetch_local(list[i + kPrefetchDistance].sorted);
    if (i + kPrefetchDistance / 2 < n) {
      const local_t soon = local_of(list[i + kPrefetchDistance / 2].sorted);
      __builtin_prefetch(&parents[soon], 1);
      __builtin_prefetch(&csr_.degree[soon]);
    }
    const local_t sorted = list[i].sorted, local = local_of(sorted);
    parents[local] = static_cast<vertex_t>(list[i].parent);
    if (one_thread_) {
      visited_local_.set(local);
      next_.set(local);
      if (direction_optimizing_) next_sorted_.set(sorted);
    } else {
      visited_local_.set_atomic(local);
      next_.set_atomic(local);
      if (direction_optimizing_) next_sorted_.set_atomic(sorted);
    }
    ++claims.counts.discovered;
    claims.counts.discovered_edges += csr_.degree[local];
  }
  claims.list.clear();
}

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::settle_claims(std::span<vertex_t> parents) {
  StepCounts settled;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t t = 0; t < claimed_.size(); ++t) {
    Claims& claims = claimed_[t].value;
    settle(claims, parents);
    settled.add_atomic(claims.counts);
    claims.counts = {};
  }
  return settled;
}

template <class Column, class Position>
void Grid2D<Column, Position>::expand(std::int64_t frontier_vertices) {
  // A sparse frontier stays a list of positions: the fold walks it, and no bitmap of the column
  // range is cleared and swept for a few vertices.
  column_listed_ = sparse(frontier_vertices);
  if (column_listed_)
    column_gather_.gather_positions(next_);
  else
    column_gather_.gather(next_, column_frontier_, false);
  next_.clear();
  next_sorted_.clear();
}

template <class Column, class Position>
template <class Visit>
void Grid2D<Column, Position>::for_frontier_rows(local_t first, local_t last, Visit&& visit) const {
  if (!column_listed_) {
    const std::int64_t first_word = first / kWordBits, last_word = (last + kWordBits - 1) / kWordBits;
    for (std::int64_t w = first_word; w < last_word; ++w) {
      for (word_t bits = column_frontier_[static_cast<std::size_t>(w)]; bits; bits &= bits - 1) {
        const local_t u = w * kWordBits + __builtin_ctzll(bits);
        if (u >= first && u < last) visit(u);
      }
    }
    return;
  }
  // Places [first, last) of the list; each rank's positions count from its slice's first bit.
  const std::span<const std::uint32_t> positions = column_gather_.positions();
  const std::vector<std::int64_t>& starts = column_gather_.position_starts();
  int r = static_cast<int>(std::upper_bound(starts.begin(), starts.end(), first) - starts.begin()) - 1;
  for (local_t k = first; k < last; ++k) {
    while (k >= starts[static_cast<std::size_t>(r) + 1]) ++r;
    visit(column_gather_.first_bit(r) + positions[static_cast<std::size_t>(k)]);
  }
}

template <class Column, class Position>
local_t Grid2D<Column, Position>::frontier_end() const {
  return column_listed_ ? static_cast<local_t>(column_gather_.positions().size()) : csr_.rows();
}

template <class Column, class Position>
std::int64_t Grid2D<Column, Position>::encode_piece(local_t first, local_t last, int slot, StepCounts& counts) {
  const int cols = grid_.grid().cols, me = grid_.col();
  const vertex_t u_base = grid_.col_begin(me);
  // Chunks of the piece's frontier rows, whole words of the bitmap (or as many places of the list).
  constexpr local_t kChunk = 64 * kWordBits;
  const local_t chunk_first = column_listed_ ? first : first / kWordBits * kWordBits;
  const std::int64_t chunks = (last - chunk_first + kChunk - 1) / kChunk;
  fold_out_.clear();
  std::int64_t sent = 0;
#pragma omp parallel reduction(+ : sent)
  {
    const int t = omp_get_thread_num();
    StepCounts mine;
#pragma omp for schedule(dynamic, 1) nowait
    for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
      const local_t from = std::max(first, chunk_first + chunk * kChunk);
      const local_t to = std::min(last, chunk_first + (chunk + 1) * kChunk);
      for_frontier_rows(from, to, [&](local_t u) {
        const std::span<const Position> row = csr_.row(u);
        mine.edges_examined += static_cast<std::int64_t>(row.size());
        int c = 0;  // entries rise, and so do their columns (but for a hybrid row's first)
        for (const Position* it = row.data(); it != row.data() + row.size(); ++it) {
          const vertex_t pos = position_of(*it);
          if (direction_optimizing_ && it == row.data()) {
            c = grid_.col_of_w(pos);
          } else {
            if (direction_optimizing_ && it == row.data() + 1) c = 0;
            while (c + 1 < cols && pos >= grid_.w_begin(c + 1)) ++c;
          }
          const vertex_t index = pos - grid_.w_begin(c);
          if (c == me) {
            claim(index, u_base + u, t);
          } else {
            fold_out_.add(t, c, static_cast<std::uint64_t>(u), static_cast<std::uint64_t>(index));
            ++sent;
          }
        }
      });
    }
    fold_out_.finish(t);
    counts.add_atomic(mine);
  }
  Slot& s = slots_[slot];
  fold_out_.assemble(s.send, s.send_counts, s.send_displs);
  return sent;
}

template <class Column, class Position>
void Grid2D<Column, Position>::decode_received(int slot) {
  const Slot& s = slots_[slot];
  exchange::decode_packets(
      s.recv, s.recv_counts, s.recv_displs, compression_, sizeof(Column),
      [&](int src) { return static_cast<std::uint64_t>(grid_.col_count(src)); },
      static_cast<std::uint64_t>(part_.local_count()), [&](int t, int src, std::uint64_t u, std::uint64_t v) {
        claim(static_cast<local_t>(v), grid_.col_begin(src) + static_cast<vertex_t>(u), t);
      });
}

template <class Column, class Position>
void Grid2D<Column, Position>::plan_pieces(edge_count_t round) {
  // Pieces of the frontier rows of about `round` entries, one exchange each: their ends as rows
  // (a bitmap frontier) or as places in the list.
  const local_t end = frontier_end();
  piece_ends_.clear();
  edge_count_t in_piece = 0;
  local_t place = 0;
  for_frontier_rows(0, end, [&](local_t u) {
    in_piece += csr_.row_length(u);
    ++place;
    if (in_piece >= round) {
      piece_ends_.push_back(column_listed_ ? place : u + 1);
      in_piece = 0;
    }
  });
  if (in_piece > 0) piece_ends_.push_back(end);
}

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::fold(std::span<vertex_t> parents, LevelProfiler& profiler) {
  StepCounts step;
  parents_ = parents;  // for claims settled during the step
  const local_t end = frontier_end();  // of the frontier's rows, or of its list
  plan_pieces(options_.exchange_round > 0 ? options_.exchange_round : exchange::kTopDownRound);
  const std::int64_t pieces = static_cast<std::int64_t>(piece_ends_.size());
  // Exchange, not compute: the row's ranks meet here, so a rank waits in it for the others' expand.
  const Timer agreeing;
  const std::int64_t rounds = row_comm_.allreduce<std::int64_t>(pieces, mpi::Op::max);
  double waiting = agreeing.seconds();
  std::int64_t edges_sent = 0;
  std::int64_t bytes_sent = 0;
  for (std::int64_t k = 0; k <= rounds; ++k) {
    if (k < rounds) {
      // Ranks with fewer pieces take part with nothing to send.
      const local_t first = k >= pieces ? end : k == 0 ? 0 : piece_ends_[k - 1];
      const local_t last = k >= pieces ? end : piece_ends_[k];
      edges_sent += encode_piece(first, last, static_cast<int>(k % 2), step);
      Slot& s = slots_[k % 2];
      bytes_sent += s.send.size() - s.send_counts[grid_.col()];
      const Timer posting;
      s.recv_counts = row_comm_.alltoall_counts(s.send_counts);
      s.recv_displs = mpi::Comm::displacements(s.recv_counts);
      s.recv.resize(static_cast<std::size_t>(s.recv_displs.back() + s.recv_counts.back()));
      row_comm_.ialltoallv_raw<std::uint8_t>(s.send.data(), s.send_counts, s.send_displs, s.recv.data(),
                                             s.recv_counts, s.recv_displs, s.request);
      waiting += posting.seconds();
    }
    if (k > 0) {
      const Timer wait;
      slots_[(k - 1) % 2].request.wait();
      waiting += wait.seconds();
      decode_received(static_cast<int>((k - 1) % 2));
    }
  }
  profiler.add_exchange(waiting);
  const StepCounts settled = settle_claims(parents);
  step.discovered += settled.discovered;
  step.discovered_edges += settled.discovered_edges;
  mpi::traffic().add_logical("fold.edges", edges_sent);
  mpi::traffic().add_logical("fold.bytes", bytes_sent);
  return step;
}

// The step's entry points, for grid_2d.cpp's search; the helpers they call come with them.
#define G500_GRID_2D_TOP_DOWN(Column, Position)                 \
  template void Grid2D<Column, Position>::expand(std::int64_t); \
  template StepCounts Grid2D<Column, Position>::fold(std::span<vertex_t>, LevelProfiler&);
G500_2D_WIDTHS(G500_GRID_2D_TOP_DOWN)
#undef G500_GRID_2D_TOP_DOWN

}  // namespace g500
