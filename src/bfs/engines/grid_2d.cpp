#include "bfs/engines/grid_2d.hpp"

#include <omp.h>

#include <algorithm>
#include <iterator>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "bfs/direction_policy.hpp"
#include "bfs/engine_factories.hpp"
#include "bfs/id_width.hpp"
#include "core/packed_ints.hpp"
#include "core/timer.hpp"
#include "exchange/rounds.hpp"
#include "graph/degree_code.hpp"
#include "graph/row_builder.hpp"

namespace g500 {
namespace {

// Words of a bottom-up sub-step's bitmap a thread takes at a time: whole words of the summary of
// changed words, so that no two threads write one.
constexpr std::int64_t kScanChunk = 256;
static_assert(kScanChunk % kWordBits == 0);

// Words of n values of `bits` bits laid end to end, with one word more, so that each value reads
// as one unaligned 8-byte load (packed_entry, core/packed_ints.hpp).
std::size_t packed_words(std::size_t n, int bits) {
  return (n * static_cast<std::size_t>(bits) + kWordBits - 1) / kWordBits + 1;
}
// Values below 2^bits (bits <= 57), end to end from bit 0, appended to `out` (packed_words of them).
template <class Value>
void pack_values(std::vector<word_t>& out, std::size_t n, int bits, Value&& value) {
  const std::size_t first = out.size();
  out.resize(first + packed_words(n, bits), 0);
  word_t* const words = out.data() + first;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t bit = j * static_cast<std::size_t>(bits);
    const word_t v = value(j);
    words[bit / kWordBits] |= v << (bit % kWordBits);
    if (bit % kWordBits + static_cast<std::size_t>(bits) > kWordBits) words[bit / kWordBits + 1] |= v >> (kWordBits - bit % kWordBits);
  }
}

// Bytes of one fold packet: small enough that a round splits into many, for the receiving threads.
constexpr std::size_t kPacketBytes = std::size_t{1} << 14;

// The blocks of this rank's processor column, laid end to end: its range V_j.
exchange::SliceLayout column_layout(const Partition2D& grid) {
  const Partition1D& part = grid.part();
  const int first_block = grid.col() * grid.grid().rows;
  exchange::SliceLayout layout;
  for (int i = 0; i < grid.grid().rows; ++i) {
    const int b = first_block + i;
    layout.word_counts.push_back(static_cast<int>(part.first_word(b + 1) - part.first_word(b)));
    layout.word_displs.push_back(static_cast<int>(part.first_word(b) - part.first_word(first_block)));
  }
  return layout;
}

// The blocks of this rank's processor row, by W position (whole words: only the graph's last block
// may end inside a word, and it is last in its row).
exchange::SliceLayout row_layout(const Partition2D& grid) {
  const Partition1D& part = grid.part();
  exchange::SliceLayout layout;
  for (int c = 0; c < grid.grid().cols; ++c) {
    const int b = grid.block_in_row(c);
    layout.word_counts.push_back(static_cast<int>(part.first_word(b + 1) - part.first_word(b)));
    layout.word_displs.push_back(static_cast<int>(grid.w_begin(c) / kWordBits));
  }
  return layout;
}

}  // namespace

std::unique_ptr<BfsEngine> make_top_down_2d(const EngineContext& context) {
  return make_for_id_width<Grid2D>(context, false);
}
std::unique_ptr<BfsEngine> make_hybrid_2d(const EngineContext& context) {
  return make_for_id_width<Grid2D>(context, true);
}

std::int64_t grid_2d_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  const double id = id_bytes(options, shape.vertices);
  // The harness estimates before it generates anything, so a grid that does not fit the rank
  // count is refused here, at once.
  const GridShape grid = parse_grid(options.grid.grid, shape.ranks);
  const double n_local = shape.vertices / shape.ranks + 64, n_row = shape.vertices / grid.rows + 64 * grid.cols;
  const double n_col = shape.vertices / grid.cols + 64 * grid.rows;
  double bytes = csr_2d_build_bytes(shape.vertices, shape.tuples, grid, id);
  bytes += 3 * n_local / 8 + n_col / 8 + n_row / 8;  // visited (two orders), next; column and row frontiers
  bytes += id * n_row + n_row;                      // hybrid: the vertex and degree code of each W position
  // hybrid: empty rows, each row's first entry and its vertex (for rows with entries: at most all)
  bytes += n_col / 8 + 2 * id * n_col + id * n_col / 64;
  bytes += 2 * id * n_local * (grid.rows - 1);  // hybrid: parents found for the column's other blocks
  // hybrid: those sent, and this block's received, at the end of a search (at most an id and a
  // byte of gap a vertex), through the fold's slot
  if (grid.rows > 1) bytes += (id + 1) * n_local * grid.rows;
  bytes += 2 * 2 * 20.0 * static_cast<double>(exchange::kTopDownRound);  // fold: two slots, sent and received
  bytes += 2 * id * static_cast<double>(omp_get_max_threads()) * 4096;  // top-down claims kept, each thread
  return static_cast<std::int64_t>(std::min(bytes, 9.0e18));
}

template <class Column>
Grid2D<Column>::Grid2D(const EngineContext& context, bool direction_optimizing)
    : options_(context.options), comm_(context.comm), part_(context.part),
      grid_(context.part, parse_grid(context.options.grid.grid, context.comm.size())),
      row_comm_(context.comm.split(grid_.row(), grid_.col())),
      col_comm_(context.comm.split(grid_.col(), grid_.row())),
      direction_optimizing_(direction_optimizing),
      compression_(options_.grid.compress == FoldFormat::vlq ? exchange::FoldCompression::vlq
                                                              : exchange::FoldCompression::none),
      sparse_allowed_(exchange::SliceGather::positions_fit(part_.count_of(0) + kWordBits)),
      column_gather_(col_comm_, column_layout(grid_)), row_gather_(row_comm_, row_layout(grid_)),
      fold_out_(grid_.grid().cols, omp_get_max_threads(), compression_, sizeof(Column), kPacketBytes),
      found_(static_cast<std::size_t>(omp_get_max_threads()) * grid_.grid().rows),
      claimed_(static_cast<std::size_t>(omp_get_max_threads())) {}

template <class Column>
std::string Grid2D<Column>::layout() const {
  char text[64];
  std::snprintf(text, sizeof text, "%dx%d process grid", grid_.grid().rows, grid_.grid().cols);
  return text;
}

template <class Column>
void Grid2D<Column>::build(const EdgeSource& source) {
  csr_ = build_csr_2d<Column>(source, grid_, comm_, row_comm_, col_comm_, options_.grid.sort_vertices);
  global_entries_ = comm_.allreduce<edge_count_t>(csr_.local_entries(), mpi::Op::sum);
  const local_t n_local = part_.local_count();
  visited_ = Bitmap(n_local);
  visited_local_ = Bitmap(n_local);
  next_ = Bitmap(n_local);
  if (direction_optimizing_) next_sorted_ = Bitmap(n_local);
  column_frontier_ = Bitmap(grid_.col_count(grid_.col()));
  if (direction_optimizing_) build_bottom_up_tables();
  parent_bits_ = rows::id_bits(part_.num_vertices());
}

template <class Column>
void Grid2D<Column>::build_bottom_up_tables() {
  const local_t n_local = part_.local_count();
  row_frontier_ = Bitmap(grid_.w_count());
  std::vector<int> counts, displs;
  for (int c = 0; c < grid_.grid().cols; ++c) {
    counts.push_back(static_cast<int>(part_.count_of(grid_.block_in_row(c))));
    displs.push_back(static_cast<int>(grid_.w_begin(c)));
  }
  // The vertex behind each W position, for the parents a bottom-up step finds: the row gathers each
  // block's local index by sorted number, in place, then adds the block's first id.
  w_to_global_.resize(grid_.w_count());
  {
    std::vector<Column> locals(n_local);
    for (local_t s = 0; s < n_local; ++s) locals[s] = static_cast<Column>(csr_.to_local(s));
    row_comm_.allgatherv<Column>(locals, w_to_global_.data(), counts, displs);
  }
  for (int c = 0; c < grid_.grid().cols; ++c) {
    const vertex_t base = part_.begin_of(grid_.block_in_row(c));
    for (vertex_t w = grid_.w_begin(c); w < grid_.w_begin(c) + counts[c]; ++w) {
      w_to_global_[w] = static_cast<Column>(base + w_to_global_[w]);
    }
  }
  // Each row's entry of highest degree to its front, from the degree code of every W position's
  // vertex; the rotation keeps the others in order.
  std::vector<std::uint8_t> code(grid_.w_count());
  {
    std::vector<std::uint8_t> mine(n_local);
    for (local_t s = 0; s < n_local; ++s) mine[s] = degree_code(csr_.degree[csr_.to_local(s)]);
    row_comm_.allgatherv<std::uint8_t>(mine, code.data(), counts, displs);
  }
  // This block's part of the table holds its sorted -> local map too: the CSR's copy goes.
  own_w_begin_ = grid_.w_begin(grid_.col());
  own_begin_ = part_.begin_of(grid_.block_in_row(grid_.col()));
  big_vector<Column>().swap(csr_.sorted_to_local);
  empty_rows_ = Bitmap(csr_.rows());
  for (local_t u = 0; u < csr_.rows(); ++u)
    if (csr_.row_length(u) == 0) empty_rows_.set(u);
#pragma omp parallel for schedule(dynamic, 1024)
  for (local_t u = 0; u < csr_.rows(); ++u) {
    Column* row = csr_.columns.data() + csr_.offsets[u];
    Column* best = row;
    for (Column* it = row; it != row + csr_.row_length(u); ++it)
      if (code[*it] > code[*best]) best = it;
    if (best != row + csr_.row_length(u)) std::rotate(row, best, best + 1);
  }
  const std::int64_t words = empty_rows_.num_words();
  first_before_.resize(static_cast<std::size_t>(words));
  std::int64_t filled = 0;
  for (std::int64_t w = 0; w < words; ++w) {
    first_before_[w] = static_cast<Column>(filled);
    filled += kWordBits - __builtin_popcountll(empty_rows_.word(w));
  }
  filled -= words * kWordBits - csr_.rows();  // the last word's bits past the rows count as filled
  first_.resize(static_cast<std::size_t>(filled));
#pragma omp parallel for schedule(static)
  for (std::int64_t w = 0; w < words; ++w) {
    std::int64_t at = first_before_[w];
    for (local_t u = w * kWordBits; u < std::min<local_t>(csr_.rows(), (w + 1) * kWordBits); ++u) {
      if (csr_.row_length(u) == 0) continue;
      first_[at++] = {*csr_.begin(u), w_to_global_[*csr_.begin(u)]};
    }
  }
}

template <class Column>
void Grid2D<Column>::claim(local_t sorted, vertex_t parent, int thread) {
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

template <class Column>
void Grid2D<Column>::settle(Claims& claims, std::span<vertex_t> parents) {
  // A claim's local index is a random read, and its parent and degree two more: the local index is
  // fetched kAhead claims ahead, the parent and degree kAhead / 2 ahead, once it has arrived.
  constexpr std::size_t kAhead = 16;
  const auto fetch_local = [&](local_t sorted) {
    if (direction_optimizing_) __builtin_prefetch(&w_to_global_[own_w_begin_ + sorted]);
    else if (!csr_.sorted_to_local.empty()) __builtin_prefetch(&csr_.sorted_to_local[sorted]);
  };
  const std::vector<Claim>& list = claims.list;
  const std::size_t n = list.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) fetch_local(list[i + kAhead].sorted);
    if (i + kAhead / 2 < n) {
      const local_t soon = local_of(list[i + kAhead / 2].sorted);
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

template <class Column>
StepCounts Grid2D<Column>::settle_claims(std::span<vertex_t> parents) {
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

template <class Column>
void Grid2D<Column>::expand(std::int64_t frontier_vertices) {
  column_gather_.gather(next_, column_frontier_, sparse(frontier_vertices));
  next_.clear();
  next_sorted_.clear();
}

template <class Column>
std::int64_t Grid2D<Column>::encode_piece(local_t first, local_t last, int slot, StepCounts& counts) {
  const int cols = grid_.grid().cols, me = grid_.col();
  const vertex_t u_base = grid_.col_begin(me);
  const std::int64_t first_word = first / kWordBits, last_word = (last + kWordBits - 1) / kWordBits;
  fold_out_.clear();
  std::int64_t sent = 0;
#pragma omp parallel reduction(+ : sent)
  {
    const int t = omp_get_thread_num();
    StepCounts mine;
#pragma omp for schedule(dynamic, 64) nowait
    for (std::int64_t w = first_word; w < last_word; ++w) {
      for (word_t bits = column_frontier_.word(w); bits; bits &= bits - 1) {
        const local_t u = w * kWordBits + __builtin_ctzll(bits);
        if (u < first || u >= last) continue;
        mine.edges_examined += csr_.row_length(u);
        int c = 0;  // entries rise, and so do their columns (but for a hybrid row's first)
        for (const Column* it = csr_.begin(u); it != csr_.end(u); ++it) {
          const vertex_t pos = static_cast<vertex_t>(*it);
          if (direction_optimizing_ && it == csr_.begin(u)) {
            c = grid_.col_of_w(pos);
          } else {
            if (direction_optimizing_ && it == csr_.begin(u) + 1) c = 0;
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
      }
    }
    fold_out_.finish(t);
    counts.add_atomic(mine);
  }
  Slot& s = slots_[slot];
  fold_out_.assemble(s.send, s.send_counts, s.send_displs);
  return sent;
}

template <class Column>
void Grid2D<Column>::decode_received(int slot) {
  const Slot& s = slots_[slot];
  exchange::decode_packets(
      s.recv, s.recv_counts, s.recv_displs, compression_, sizeof(Column),
      [&](int src) { return static_cast<std::uint64_t>(grid_.col_count(src)); },
      static_cast<std::uint64_t>(part_.local_count()), [&](int t, int src, std::uint64_t u, std::uint64_t v) {
        claim(static_cast<local_t>(v), grid_.col_begin(src) + static_cast<vertex_t>(u), t);
      });
}

template <class Column>
StepCounts Grid2D<Column>::fold(std::span<vertex_t> parents, LevelProfiler& profiler) {
  StepCounts step;
  parents_ = parents;  // for claims settled during the step
  const edge_count_t round = options_.exchange_round > 0 ? options_.exchange_round : exchange::kTopDownRound;
  const local_t rows = csr_.rows();
  // Pieces of the frontier rows of about `round` entries, one exchange each.
  piece_ends_.clear();
  edge_count_t in_piece = 0;
  for (std::int64_t w = 0; w < column_frontier_.num_words(); ++w) {
    for (word_t bits = column_frontier_.word(w); bits; bits &= bits - 1) {
      const local_t u = w * kWordBits + __builtin_ctzll(bits);
      in_piece += csr_.row_length(u);
      if (in_piece >= round) {
        piece_ends_.push_back(u + 1);
        in_piece = 0;
      }
    }
  }
  if (in_piece > 0) piece_ends_.push_back(rows);
  const std::int64_t pieces = static_cast<std::int64_t>(piece_ends_.size());
  const std::int64_t rounds = row_comm_.allreduce<std::int64_t>(pieces, mpi::Op::max);
  std::int64_t edges_sent = 0;
  std::int64_t bytes_sent = 0;
  double waiting = 0;
  for (std::int64_t k = 0; k <= rounds; ++k) {
    if (k < rounds) {
      // Ranks with fewer pieces take part with nothing to send.
      const local_t first = k >= pieces ? rows : k == 0 ? 0 : piece_ends_[k - 1];
      const local_t last = k >= pieces ? rows : piece_ends_[k];
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

template <class Column>
StepCounts Grid2D<Column>::bottom_up(std::int64_t frontier_vertices, std::span<vertex_t> parents,
                                     LevelProfiler& profiler) {
  StepCounts step;
  const GridShape g = grid_.grid();
  Timer exchanging;
  // The frontier of this block by sorted index, gathered over the row: the row's blocks by W position.
  row_gather_.gather(next_sorted_, row_frontier_, sparse(frontier_vertices));
  next_.clear();
  next_sorted_.clear();
  double exchange_seconds = exchanging.seconds();

  // The ring: at sub-step s this rank searches block (i + s) mod R of its column, whose bitmap of
  // vertices with a parent it got from rank i + 1 of the column, and hands it on to rank i - 1.
  // Sub-step 0 searches this rank's own block, whose bitmap is visited_local_ itself.
  const int i = grid_.row(), first_block = grid_.col() * g.rows;
  const vertex_t col_begin = grid_.col_begin(grid_.col());
  // With the bitmap travels a word-level one: the words the column's other ranks changed, so that
  // going home it carries those words only (few, once most of the graph is reached).
  const auto summary_words = [](std::size_t words) {  // a bit a word
    return static_cast<std::size_t>(words_for(static_cast<std::int64_t>(words)));
  };
  const std::size_t own_words = static_cast<std::size_t>(visited_local_.num_words());
  std::vector<word_t>& changed = ring_.changed;
  changed.assign(summary_words(own_words), 0);
  const word_t* const frontier = row_frontier_.data();
  // With two rows, the finder of sub-step 1 is a block's only finder but its owner: its parents go
  // home with the bitmap's changed words, in vertex order, as ids of parent_bits_ bits (the words
  // say which vertices), and the search needs no exchange of parents at its end.
  const bool parents_home = g.rows == 2;
  const auto in_frontier = [frontier](Column w) { return (frontier[w >> 6] >> (w & 63)) & 1; };
  for (int s = 0; s < g.rows; ++s) {
    const int k = (i + s) % g.rows, block = first_block + k;
    const local_t count = part_.count_of(block), offset = part_.begin_of(block) - col_begin;
    const std::int64_t words = s == 0 ? static_cast<std::int64_t>(own_words)
                                      : static_cast<std::int64_t>(ring_.done.size());
    word_t* const done = s == 0 ? visited_local_.data() : ring_.done.data();
    word_t* const next = next_.data();
#pragma omp parallel
    {
      StepCounts mine;
      FoundList& list = found_[static_cast<std::size_t>(omp_get_thread_num()) * g.rows + k].value;
      std::vector<FoundPair>& out = list.pairs;
      // Another block's finds, a word at a time, so the list rises: word w's first-entry finds wait
      // (`before`) until word w's row finds (`row_finds`), searched an iteration later, are merged in.
      FoundPair before[kWordBits], ahead[kWordBits], row_finds[kWordBits];
      int n_before = 0, n_ahead = 0, n_row_finds = 0;
      const auto merge_word = [&] {
        std::merge(before, before + n_before, row_finds, row_finds + n_row_finds, std::back_inserter(out),
                   [](const FoundPair& a, const FoundPair& b) { return found_vertex(a) < found_vertex(b); });
        n_row_finds = 0;
      };
      // Vertex v of the block reached from the vertex `parent_id` (a global id), in a row search.
      const auto found = [&](local_t v, Column parent_id) {
        if (s == 0) parents[v] = static_cast<vertex_t>(parent_id);  // this rank's own block: straight in
        else row_finds[n_row_finds++] = found_pair(v, parent_id);
      };
      // The rows past their first entry of word w's vertices in `due`, each up to its first entry
      // in the frontier; returns the vertices found.
      const auto search_rows = [&](std::int64_t w, word_t due) {
        word_t hits = 0;
        for (; due; due &= due - 1) {
          const int b = __builtin_ctzll(due);
          const local_t v = w * kWordBits + b;
          for (const Column* it = csr_.begin(offset + v) + 1; it != csr_.end(offset + v); ++it) {
            ++mine.edges_examined;
            if (in_frontier(*it)) {
              found(v, w_to_global_[*it]);
              hits |= word_t{1} << b;
              break;
            }
          }
        }
        return hits;
      };
      // Word w's vertices found: into the block's bitmap, and this block's next frontier or the
      // summary of changed words (one thread owns each word of it: chunks are whole words of it).
      const auto newly_found = [&](std::int64_t w, word_t newly) {
        done[w] |= newly;
        if (s == 0) next[w] |= newly;
        else if (newly) changed[w / kWordBits] |= word_t{1} << (w % kWordBits);
      };
      const word_t* const empty_rows = empty_rows_.data() + offset / kWordBits;  // blocks are whole words
      const Column* const first_before = first_before_.data() + offset / kWordBits;
      const word_t last_mask = last_word_mask(count);
#pragma omp for schedule(dynamic, 1) nowait
      for (std::int64_t chunk = 0; chunk < (words + kScanChunk - 1) / kScanChunk; ++chunk) {
        const std::int64_t first = chunk * kScanChunk, last = std::min(words, first + kScanChunk);
        // As hybrid-1d: each unvisited vertex first tries its first entry (the highest-degree one),
        // read in order from the compact arrays, without branches (a hit is a coin toss in the
        // busiest levels); that finds most parents without touching a row. The rows of the rest
        // are prefetched and searched a word later, once they have arrived.
        word_t rows_due = 0;
        for (std::int64_t w = first; w <= last; ++w) {
          word_t need_rows = 0, newly = 0;
          if (w < last) {
            const word_t todo = ~done[w] & ~empty_rows[w] & (w == words - 1 ? last_mask : ~word_t{0});
            mine.edges_examined += __builtin_popcountll(todo);
            // Row b's first entry: after those of the word's rows below b that have entries.
            const word_t filled = ~empty_rows[w];
            const FirstEntry* const firsts = first_.data() + first_before[w];
            const auto first_of = [&](int b) { return firsts[__builtin_popcountll(filled & ((word_t{1} << b) - 1))]; };
            if (s == 0) {
              // Own block: an unvisited vertex's parent is kNoParent, so it is written either way.
              for (word_t bits = todo; bits; bits &= bits - 1) {
                const int b = __builtin_ctzll(bits);
                const local_t v = w * kWordBits + b;
                const FirstEntry first = first_of(b);
                const word_t hit = in_frontier(first.position);
                // the parent if hit, else kNoParent (-1), in arithmetic: a branch would mispredict
                const vertex_t mask = -static_cast<vertex_t>(hit);
                parents[v] = (static_cast<vertex_t>(first.vertex) & mask) | ~mask;
                newly |= hit << b;
              }
            } else {
              for (word_t bits = todo; bits; bits &= bits - 1) {
                const int b = __builtin_ctzll(bits);
                const local_t v = w * kWordBits + b;
                const FirstEntry first = first_of(b);
                const word_t hit = in_frontier(first.position);
                ahead[n_ahead] = found_pair(v, first.vertex);
                n_ahead += static_cast<int>(hit);
                newly |= hit << b;
              }
            }
            for (word_t rows = todo & ~newly; rows; rows &= rows - 1) {
              const int b = __builtin_ctzll(rows);
              const local_t v = w * kWordBits + b;
              if (csr_.row_length(offset + v) < 2) continue;
              need_rows |= word_t{1} << b;
              __builtin_prefetch(csr_.begin(offset + v) + 1);
            }
          }
          if (rows_due) newly_found(w - 1, search_rows(w - 1, rows_due));
          if (s > 0) {
            merge_word();  // word w - 1's
            std::copy(ahead, ahead + n_ahead, before);
            n_before = n_ahead;
            n_ahead = 0;
          }
          if (w < last) newly_found(w, newly);
          rows_due = need_rows;
        }
      }
      if (!out.empty() && !parents_home) {
        exchange::FoundParentsEncoder encoder(list.messages, out.size(), count, parent_bits_);
        for (const FoundPair& f : out) encoder.add(found_vertex(f), found_parent(f));
        encoder.finish();
        out.clear();
      }
      step.add_atomic(mine);
    }
    if (g.rows > 1) {
      // To rank i - 1: the bitmap and the changed words' summary, or, after the last sub-step, home
      // to the block's owner, the summary and the changed words.
      const Timer passing;
      const bool home = s + 1 == g.rows;
      std::vector<word_t>& message = ring_.message;
      message.clear();
      if (home) {
        std::size_t words_home = 0;
        for (const word_t c : changed) words_home += __builtin_popcountll(c);
        message.resize(changed.size() + words_home);
        std::copy(changed.begin(), changed.end(), message.begin());
        word_t* to = message.data() + changed.size();
        for (std::size_t c = 0; c < changed.size(); ++c) {
          for (word_t bits = changed[c]; bits; bits &= bits - 1) *to++ = done[c * kWordBits + __builtin_ctzll(bits)];
        }
        if (parents_home) {
          std::vector<FoundPair>& pairs = ring_.pairs;  // the threads' runs, in vertex order
          pairs.clear();
          for (std::size_t t = 0; t < found_.size() / g.rows; ++t) {
            std::vector<FoundPair>& mine = found_[t * g.rows + k].value.pairs;
            pairs.insert(pairs.end(), mine.begin(), mine.end());
            mine.clear();
          }
          if (found_.size() / g.rows > 1) {
            std::sort(pairs.begin(), pairs.end(),
                      [](const FoundPair& a, const FoundPair& b) { return found_vertex(a) < found_vertex(b); });
          }
          pack_values(message, pairs.size(), parent_bits_, [&](std::size_t j) { return static_cast<word_t>(found_parent(pairs[j])); });
        }
      } else {
        message.assign(done, done + words);
        message.insert(message.end(), changed.begin(), changed.end());
      }
      const int next_block = first_block + (k + 1) % g.rows;
      const std::size_t next_words = part_.first_word(next_block + 1) - part_.first_word(next_block);
      std::vector<word_t>& incoming = ring_.incoming;
      mpi::Request receive, send;
      if (home && parents_home) {  // its length is the partner's finds'
        col_comm_.isend(std::span<const word_t>(message), (i + g.rows - 1) % g.rows, 0, send);
        incoming.assign(col_comm_.probe_count<word_t>((i + 1) % g.rows), 0);
        col_comm_.irecv_any(std::span<word_t>(incoming), receive);
      } else {
        incoming.assign(next_words + summary_words(next_words), 0);
        col_comm_.irecv_any(std::span<word_t>(incoming), receive);  // home: as much at most
        col_comm_.isend(std::span<const word_t>(message), (i + g.rows - 1) % g.rows, 0, send);
      }
      receive.wait();
      send.wait();
      if (!home) {
        ring_.done.assign(incoming.begin(), incoming.begin() + static_cast<std::ptrdiff_t>(next_words));
        changed.assign(incoming.begin() + static_cast<std::ptrdiff_t>(next_words), incoming.end());
      }
      exchange_seconds += passing.seconds();
    }
  }
  // This block's vertices that the column's other ranks found, from the changed words come home;
  // their parents with them (two rows), or at the end of the search (send_found_parents).
  if (g.rows > 1) {
    const std::size_t summary = summary_words(visited_local_.num_words());
    const std::vector<word_t>& incoming = ring_.incoming;
    const word_t* const words_home = incoming.data() + summary;
    word_t* const visited_local = visited_local_.data();
    word_t* const next = next_.data();
    // Where each summary word's changed words start, and its vertices' parents.
    std::vector<std::int64_t>& at = ring_.at;
    std::vector<std::int64_t>& found_at = ring_.found_at;
    at.assign(summary + 1, 0);
    found_at.assign(summary + 1, 0);
    for (std::size_t c = 0; c < summary; ++c) {
      at[c + 1] = at[c] + __builtin_popcountll(incoming[c]);
      std::int64_t newly = 0;
      if (parents_home) {
        std::int64_t j = at[c];
        for (word_t ws = incoming[c]; ws; ws &= ws - 1)
          newly += __builtin_popcountll(words_home[j++] & ~visited_local[c * kWordBits + __builtin_ctzll(ws)]);
      }
      found_at[c + 1] = found_at[c] + newly;
    }
    const word_t* const home_parents = words_home + at[summary];
    if (parents_home &&
        incoming.size() != summary + static_cast<std::size_t>(at[summary]) +
                               packed_words(static_cast<std::size_t>(found_at[summary]), parent_bits_)) {
      throw std::logic_error("hybrid-2d: the bitmap home and its parents disagree");
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < static_cast<std::int64_t>(summary); ++c) {
      std::int64_t j = at[c];
      std::size_t p = static_cast<std::size_t>(found_at[c]);
      for (word_t ws = incoming[c]; ws; ws &= ws - 1) {
        const std::int64_t w = c * kWordBits + __builtin_ctzll(ws);
        const word_t newly = words_home[j++] & ~visited_local[w];
        visited_local[w] |= newly;
        next[w] |= newly;
        if (parents_home) {
          for (word_t bits = newly; bits; bits &= bits - 1) {
            parents[w * kWordBits + __builtin_ctzll(bits)] = static_cast<vertex_t>(packed_entry(home_parents, p++, parent_bits_));
          }
        }
      }
    }
  }
  const StepCounts found = mark_found();
  step.discovered = found.discovered;
  step.discovered_edges = found.discovered_edges;
  profiler.add_exchange(exchange_seconds);
  return step;
}

template <class Column>
StepCounts Grid2D<Column>::mark_found() {
  StepCounts found;
  const std::int64_t words = next_.num_words();
#pragma omp parallel
  {
    StepCounts mine;
#pragma omp for schedule(static)
    for (std::int64_t w = 0; w < words; ++w) {
      for (word_t bits = next_.word(w); bits; bits &= bits - 1) {
        const local_t v = w * kWordBits + __builtin_ctzll(bits);
        const local_t sorted = csr_.to_sorted(v);
        if (one_thread_) {
          visited_.set(sorted);
          next_sorted_.set(sorted);
        } else {
          visited_.set_atomic(sorted);
          next_sorted_.set_atomic(sorted);
        }
        ++mine.discovered;
        mine.discovered_edges += csr_.degree[v];
      }
    }
    found.add_atomic(mine);
  }
  return found;
}

template <class Column>
void Grid2D<Column>::send_found_parents(std::span<vertex_t> parents) {
  // To the owners, within the column: to each, the messages of the vertices of its block this
  // rank's threads found, and their parents, end to end, through the fold's first slot, idle by now
  // (no buffers of their own at the search's peak).
  const GridShape g = grid_.grid();
  Slot& x = slots_[0];
  x.send.clear();
  x.send_counts.assign(g.rows, 0);
  const std::size_t threads = found_.size() / g.rows;
  for (int k = 0; k < g.rows; ++k) {
    const std::size_t before = x.send.size();
    for (std::size_t t = 0; t < threads; ++t) {
      FoundList& list = found_[t * g.rows + k].value;
      x.send.insert(x.send.end(), list.messages.begin(), list.messages.end());
      list.clear();
    }
    x.send_counts[k] = static_cast<int>(x.send.size() - before);
  }
  x.recv_counts = col_comm_.alltoallv_into<std::uint8_t>(x.send, x.send_counts, x.recv);
  // Each vertex came once (the ring's bitmap), and its bits are set already: only its parent.
  std::size_t at = 0;
  for (int k = 0; k < g.rows; ++k) {
    const std::span<const std::uint8_t> messages(x.recv.data() + at, static_cast<std::size_t>(x.recv_counts[k]));
    at += messages.size();
    exchange::decode_found_parents_runs(messages, part_.local_count(), parent_bits_, [&](std::int64_t v, word_t parent) {
      parents[static_cast<local_t>(v)] = static_cast<vertex_t>(parent);
    });
  }
}

template <class Column>
void Grid2D<Column>::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  start_parents(parents, part_, "2D engine");
  one_thread_ = omp_get_max_threads() == 1;
  visited_.clear();
  visited_local_.clear();
  next_.clear();
  next_sorted_.clear();
  edge_count_t root_degree = 0;
  if (part_.owns(root)) {
    const local_t r = part_.to_local(root);
    parents[r] = root;
    visited_.set(csr_.to_sorted(r));
    visited_local_.set(r);
    next_.set(r);
    if (direction_optimizing_) next_sorted_.set(csr_.to_sorted(r));
    root_degree = csr_.degree[r];
  }
  DirectionPolicy policy(options_.direction, part_.num_vertices(), global_entries_);
  policy.start(comm_.allreduce<edge_count_t>(root_degree, mpi::Op::sum));
  LevelProfiler profiler(comm_, profile);
  for (auto& list : found_) list.value.clear();
  bool bottom_up_ran = false;
  for (int level = 0; !policy.done(); ++level) {
    profiler.begin_level();
    Direction direction = policy.choose();
    if (!direction_optimizing_) direction = Direction::top_down;
    StepCounts step;
    if (direction == Direction::top_down) {
      const Timer expanding;
      expand(policy.frontier_vertices());
      profiler.add_exchange(expanding.seconds());
      step = fold(parents, profiler);
    } else {
      step = bottom_up(policy.frontier_vertices(), parents, profiler);
    }
    policy.end_level(profiler, level, direction, step);
    bottom_up_ran |= direction == Direction::bottom_up;
  }
  // Every rank of the column agrees (the direction is chosen from global counts).
  if (bottom_up_ran && grid_.grid().rows > 2) profiler.after_last_level([&] { send_found_parents(parents); });
}

template class Grid2D<std::uint32_t>;
template class Grid2D<vertex_t>;

}  // namespace g500
