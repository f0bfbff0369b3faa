// The bottom-up step of hybrid-2d (Beamer, Buluc, Asanovic and Yelick, IPDPSW 2013): the row's
// frontier gathered, then R sub-steps in which each rank of the column searches one block of the
// column range and passes its bitmap of vertices with a parent on to the next rank, then the
// changed words back to each block's owner; or, in a search's tail, every block at once and their
// finds ORed into the owners.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <iterator>
#include <stdexcept>

#include "bfs/bottom_up_scan.hpp"
#include "bfs/engines/grid_2d/block_scan.hpp"
#include "bfs/engines/grid_2d/grid_2d.hpp"
#include "core/packed_ints.hpp"
#include "core/timer.hpp"

namespace g500 {
namespace {

// Words of a sub-step's bitmap a thread takes at a time: whole words of the summary of changed
// words, so that no two threads write one.
constexpr std::int64_t kScanChunk = 256;
static_assert(kScanChunk % kWordBits == 0);

// Words of the summary of `words` words: a bit a word.
std::size_t summary_words(std::size_t words) {
  return static_cast<std::size_t>(words_for(static_cast<std::int64_t>(words)));
}

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

}  // namespace

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::bottom_up(std::int64_t frontier_vertices, bool few_to_find,
                                               std::span<vertex_t> parents, LevelProfiler& profiler) {
  const GridShape g = grid_.grid();
  Timer exchanging;
  // The frontier of this block by sorted index, gathered over the row: the row's blocks by
  // row-range position.
  row_gather_.gather(next_sorted_, row_frontier_, sparse(frontier_vertices));
  next_.clear();
  next_sorted_.clear();
  // With more than two rows, finds for other blocks wait for the search's end, unless a rank of the
  // column could pass its budget: then the column sends them first.
  const double sub_step_bound = g.rows > 2 ? found_bytes_a_sub_step_bound() : 0;
  double exchange_seconds = exchanging.seconds();
  const bool at_once =
      few_to_find && g.rows > 2 && !frontiers_shared_ && (g.rows - 1) * sub_step_bound <= found_budget();
  StepCounts step = at_once ? search_at_once(sub_step_bound, parents, exchange_seconds)
                            : search_ring(sub_step_bound, parents, exchange_seconds);
  const StepCounts found = mark_found();
  step.discovered = found.discovered;
  step.discovered_edges = found.discovered_edges;
  profiler.add_exchange(exchange_seconds);
  return step;
}

template <class Column, class Position>
double Grid2D<Column, Position>::found_budget() const {
  return static_cast<double>(options_.exchange_round > 0 ? options_.exchange_round : kFoundBudget);
}

template <class Column, class Position>
void Grid2D<Column, Position>::make_room_for_found(double bound, std::span<vertex_t> parents) {
  if (found_held_bound_ + bound > found_budget()) {
    send_found_parents(parents);
    found_held_bound_ = 0;
  }
  found_held_bound_ += bound;
}

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::search_ring(double sub_step_bound, std::span<vertex_t> parents,
                                                 double& exchange_seconds) {
  const GridShape g = grid_.grid();
  // At sub-step s this rank (row i of its column) searches block (i + s) mod R of the column,
  // whose bitmap of vertices with a parent it got from rank i + 1 of the column, and hands it on to
  // rank i - 1. Sub-step 0 searches this rank's own block, whose bitmap is visited_local_ itself.
  // With the bitmap travels a word-level summary: the words the column's other ranks changed, so
  // that the message back to the owner carries those words only (few, once most of the graph is
  // reached).
  pass_.changed.assign(summary_words(static_cast<std::size_t>(visited_local_.num_words())), 0);
  StepCounts step;
  for (int s = 0; s < g.rows; ++s) {
    const int k = (grid_.row() + s) % g.rows;
    if (s == 0) {
      step.add_work(search_block(k, true, visited_local_.data(), visited_local_.num_words(), parents));
    } else {
      step.add_work(search_block(k, false, pass_.done.data(), static_cast<std::int64_t>(pass_.done.size()), parents));
    }
    if (g.rows > 1) {
      const Timer passing;
      pass_block(s, k);
      // The next sub-step searches another rank's block: room for what it may find.
      if (g.rows > 2 && s + 1 < g.rows) make_room_for_found(sub_step_bound, parents);
      exchange_seconds += passing.seconds();
    }
  }
  if (g.rows > 1) take_found_vertices(parents);
  return step;
}

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::search_at_once(double sub_step_bound, std::span<vertex_t> parents,
                                                    double& exchange_seconds) {
  const GridShape g = grid_.grid();
  Timer exchanging;
  make_room_for_found((g.rows - 1) * sub_step_bound, parents);
  // Every block of the column by local index, end to end: the column range, as the expand has it.
  column_gather_.gather(visited_local_, column_frontier_, false);
  exchange_seconds += exchanging.seconds();
  // Block k of the column is the gather's slice k: its words and where they start.
  const mpi::Counts& words = column_gather_.word_counts();
  const mpi::Counts& at = column_gather_.word_displs();
  StepCounts step;
  for (int k = 0; k < g.rows; ++k) {
    if (k == grid_.row()) {
      step.add_work(search_block(k, true, visited_local_.data(), words[k], parents));
    } else {
      pass_.changed.assign(summary_words(static_cast<std::size_t>(words[k])), 0);  // written, not needed
      step.add_work(search_block(k, false, column_frontier_.data() + at[k], words[k], parents));
    }
  }
  // Each block's bitmap ORed over the column into its owner: the vertices the others found.
  const Timer folding;
  std::vector<word_t>& found = pass_.incoming;
  found.resize(static_cast<std::size_t>(visited_local_.num_words()));
  col_comm_.reduce_scatter<word_t>(column_frontier_, found, words, mpi::Op::bor);
  word_t* const visited_local = visited_local_.data();
  word_t* const next = next_.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t w = 0; w < visited_local_.num_words(); ++w) {
    const word_t newly = found[w] & ~visited_local[w];
    visited_local[w] |= newly;
    next[w] |= newly;
  }
  exchange_seconds += folding.seconds();
  return step;
}

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::search_block(int k, bool own, word_t* done, std::int64_t words,
                                                  std::span<vertex_t> parents) {
  return csr_.index.listed() ? search_block_as<true>(k, own, done, words, parents)
                             : search_block_as<false>(k, own, done, words, parents);
}

template <class Column, class Position>
template <bool Listed>
StepCounts Grid2D<Column, Position>::search_block_as(int k, bool own, word_t* done, std::int64_t words,
                                                     std::span<vertex_t> parents) {
  const GridShape g = grid_.grid();
  const int block = grid_.col() * g.rows + k;
  const local_t count = part_.count_of(block), offset = part_.begin_of(block) - grid_.col_begin(grid_.col());
  // With two rows the finds go back with the bitmap (pass_block); with more, at the search's end.
  const bool found_to_messages = g.rows > 2;
  StepCounts step;
#pragma omp parallel
  {
    FoundList& list = found_[static_cast<std::size_t>(omp_get_thread_num()) * g.rows + k].value;
    BlockScan<Listed> scan(*this, k, own, offset, words, last_word_mask(count), done, next_.data(), pass_.changed,
                           parents, list.pairs);
#pragma omp for schedule(dynamic, 1) nowait
    for (std::int64_t chunk = 0; chunk < (words + kScanChunk - 1) / kScanChunk; ++chunk) {
      bottom_up::scan(scan, chunk * kScanChunk, std::min(words, (chunk + 1) * kScanChunk));
    }
    if (!list.pairs.empty() && found_to_messages) encode_found(list, count);
    step.add_atomic(scan.counts);
  }
  return step;
}

template <class Column, class Position>
void Grid2D<Column, Position>::encode_found(FoundList& list, local_t count) const {
  exchange::FoundParentsEncoder encoder(list.messages, list.pairs.size(), count, parent_bits_);
  for (const FoundPair& f : list.pairs) encoder.add(found_vertex(f), found_parent(f));
  encoder.finish();
  list.pairs.clear();
}

template <class Column, class Position>
void Grid2D<Column, Position>::pass_block(int s, int k) {
  const GridShape g = grid_.grid();
  const int i = grid_.row(), previous = (i + g.rows - 1) % g.rows;
  const bool last = s + 1 == g.rows;
  // With two rows the finder of sub-step 1 is a block's only finder but its owner: the parents go
  // back with the changed words, and the message's length depends on them.
  const bool parents_with_bitmap = g.rows == 2;
  std::vector<word_t>& message = pass_.message;
  if (last) {
    message_to_owner(k);
  } else {
    const word_t* const done = s == 0 ? visited_local_.data() : pass_.done.data();
    const std::size_t words = s == 0 ? static_cast<std::size_t>(visited_local_.num_words()) : pass_.done.size();
    message.assign(done, done + words);
    message.insert(message.end(), pass_.changed.begin(), pass_.changed.end());
  }
  // What comes from the next rank of the column: the bitmap of the block searched next and its
  // summary, or after the last sub-step the owner's message, as long at most (with two rows, and
  // the parents of every vertex of the block).
  const int next_block = grid_.col() * g.rows + (k + 1) % g.rows;
  const std::size_t next_words = part_.first_word(next_block + 1) - part_.first_word(next_block);
  std::size_t most = next_words + summary_words(next_words);
  if (last && parents_with_bitmap)
    most += packed_words(static_cast<std::size_t>(part_.count_of(next_block)), parent_bits_);
  std::vector<word_t>& receive = pass_.receive;
  if (receive.size() < most) receive.resize(most);  // only grows: nothing to clear each sub-step
  const std::size_t got = col_comm_.sendrecv(std::span<const word_t>(message), previous,
                                             std::span<word_t>(receive.data(), most), (i + 1) % g.rows);
  if (last) {
    pass_.incoming.assign(receive.begin(), receive.begin() + static_cast<std::ptrdiff_t>(got));
  } else {
    pass_.done.assign(receive.begin(), receive.begin() + static_cast<std::ptrdiff_t>(next_words));
    pass_.changed.assign(receive.begin() + static_cast<std::ptrdiff_t>(next_words),
                         receive.begin() + static_cast<std::ptrdiff_t>(got));
  }
}

template <class Column, class Position>
void Grid2D<Column, Position>::message_to_owner(int k) {
  const GridShape g = grid_.grid();
  const std::vector<word_t>& changed = pass_.changed;
  const word_t* const done = pass_.done.data();  // the last sub-step's block
  std::vector<word_t>& message = pass_.message;
  std::size_t changed_words = 0;
  for (const word_t c : changed) changed_words += __builtin_popcountll(c);
  message.resize(changed.size() + changed_words);
  std::copy(changed.begin(), changed.end(), message.begin());
  word_t* to = message.data() + changed.size();
  for (std::size_t c = 0; c < changed.size(); ++c) {
    for (word_t bits = changed[c]; bits; bits &= bits - 1) *to++ = done[c * kWordBits + __builtin_ctzll(bits)];
  }
  if (g.rows != 2) return;
  // The parents, in vertex order (the words say which vertices), as ids of parent_bits_ bits.
  std::vector<FoundPair>& pairs = pass_.pairs;
  pairs.clear();
  const std::size_t threads = found_.size() / g.rows;
  for (std::size_t t = 0; t < threads; ++t) {
    std::vector<FoundPair>& mine = found_[t * g.rows + k].value.pairs;
    pairs.insert(pairs.end(), mine.begin(), mine.end());
    mine.clear();
  }
  if (threads > 1) {  // each thread's run rises; together they do not
    std::sort(pairs.begin(), pairs.end(),
              [](const FoundPair& a, const FoundPair& b) { return found_vertex(a) < found_vertex(b); });
  }
  pack_values(message, pairs.size(), parent_bits_, [&](std::size_t j) { return static_cast<word_t>(found_parent(pairs[j])); });
}

template <class Column, class Position>
void Grid2D<Column, Position>::take_found_vertices(std::span<vertex_t> parents) {
  const bool with_parents = grid_.grid().rows == 2;
  const std::size_t summary = summary_words(static_cast<std::size_t>(visited_local_.num_words()));
  const std::vector<word_t>& incoming = pass_.incoming;
  const word_t* const changed_words = incoming.data() + summary;
  word_t* const visited_local = visited_local_.data();
  word_t* const next = next_.data();
  // Where each summary word's changed words start, and its new vertices' parents.
  std::vector<std::int64_t>& at = pass_.at;
  std::vector<std::int64_t>& found_at = pass_.found_at;
  at.assign(summary + 1, 0);
  found_at.assign(summary + 1, 0);
  for (std::size_t c = 0; c < summary; ++c) {
    at[c + 1] = at[c] + __builtin_popcountll(incoming[c]);
    std::int64_t newly = 0;
    if (with_parents) {
      std::int64_t j = at[c];
      for (word_t ws = incoming[c]; ws; ws &= ws - 1)
        newly += __builtin_popcountll(changed_words[j++] & ~visited_local[c * kWordBits + __builtin_ctzll(ws)]);
    }
    found_at[c + 1] = found_at[c] + newly;
  }
  const word_t* const found_parents = changed_words + at[summary];
  if (with_parents && incoming.size() != summary + static_cast<std::size_t>(at[summary]) +
                                            packed_words(static_cast<std::size_t>(found_at[summary]), parent_bits_)) {
    throw std::logic_error("hybrid-2d: the bitmap sent back and its parents disagree");
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < static_cast<std::int64_t>(summary); ++c) {
    std::int64_t j = at[c];
    std::size_t p = static_cast<std::size_t>(found_at[c]);
    for (word_t ws = incoming[c]; ws; ws &= ws - 1) {
      const std::int64_t w = c * kWordBits + __builtin_ctzll(ws);
      const word_t newly = changed_words[j++] & ~visited_local[w];
      visited_local[w] |= newly;
      next[w] |= newly;
      if (!with_parents) continue;
      for (word_t bits = newly; bits; bits &= bits - 1) {
        parents[w * kWordBits + __builtin_ctzll(bits)] = static_cast<vertex_t>(packed_entry(found_parents, p++, parent_bits_));
      }
    }
  }
}

template <class Column, class Position>
StepCounts Grid2D<Column, Position>::mark_found() {
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

template <class Column, class Position>
double Grid2D<Column, Position>::found_bytes_a_sub_step_bound() const {
  // A sub-step finds each vertex of the block it searches once at most, so at most the block's
  // unvisited vertices with edges: the column's largest count bounds every rank's. Each thread's finds make
  // one message (exchange/found_parents_codec.hpp): a header word and a padded last word, and per
  // vertex its Rice-coded gap (at most k + 1 bits plus its share of the unary parts, which sum to
  // under three bits a vertex for the encoder's k) and its parent.
  std::int64_t most[2] = {unvisited_local_, static_cast<std::int64_t>(omp_get_max_threads())};
  col_comm_.allreduce_inplace<std::int64_t>(most, mpi::Op::max);
  const int gap_bits = std::bit_width(static_cast<std::uint64_t>(2 * part_.count_of(0) + 2)) + 4;
  return static_cast<double>(most[1]) * 2 * sizeof(word_t) +
         static_cast<double>(most[0]) * (gap_bits + parent_bits_) / 8.0;
}

template <class Column, class Position>
void Grid2D<Column, Position>::send_found_parents(std::span<vertex_t> parents) {
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
    x.send_counts[k] = static_cast<std::int64_t>(x.send.size() - before);
  }
  x.recv_counts = col_comm_.alltoallv_into<std::uint8_t>(x.send, x.send_counts, x.recv);
  // Each vertex came once (with the block's bitmap), and its bits are set already: only its parent.
  std::size_t at = 0;
  for (int k = 0; k < g.rows; ++k) {
    const std::span<const std::uint8_t> messages(x.recv.data() + at, static_cast<std::size_t>(x.recv_counts[k]));
    at += messages.size();
    exchange::decode_found_parents_runs(messages, part_.local_count(), parent_bits_, [&](std::int64_t v, word_t parent) {
      parents[static_cast<local_t>(v)] = static_cast<vertex_t>(parent);
    });
  }
}

// The step's entry points, for grid_2d.cpp's search; the helpers they call come with them.
#define G500_GRID_2D_BOTTOM_UP(Column, Position)                                                                    \
  template StepCounts Grid2D<Column, Position>::bottom_up(std::int64_t, bool, std::span<vertex_t>, LevelProfiler&); \
  template void Grid2D<Column, Position>::send_found_parents(std::span<vertex_t>);
G500_2D_WIDTHS(G500_GRID_2D_BOTTOM_UP)
#undef G500_GRID_2D_BOTTOM_UP

}  // namespace g500
