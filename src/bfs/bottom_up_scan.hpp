#pragma once
// The bottom-up scan that hybrid-1d and hybrid-2d share: each unvisited vertex of a block looks for
// a parent in the frontier. A word's vertices first try their row's first entry (the highest-degree
// neighbour), read in order from a compact array: that finds most parents without touching a row.
// The rows of the rest are prefetched then and searched one word later, once they have arrived.
//
// The engine supplies the block, which says what its rows, its frontier and its finds are:
//
//   struct Block {
//     using Entry = ...;                        // a row entry's type
//     StepCounts counts;                        // the scan counts its work here
//     word_t unvisited(std::int64_t w);         // vertices of word w still without a parent
//     word_t try_first_entries(std::int64_t w, word_t todo);  // tries each; returns those that hit
//     std::span<const Entry> row(local_t v);   // v's row, its first entry included
//     bool in_frontier(Entry e);
//     void found_in_row(local_t v, const Entry* e);  // v's parent is the row entry at e
//     void mark(std::int64_t w, word_t newly);  // word w's vertices found (its first entries', then its rows')
//     void word_done();                         // the previous word is wholly searched
//   };
// A block may also skip words with nothing to search (most words of a 2D column range's later
// levels), where the word's bookkeeping costs more than a test does, if such a word needs no
// write of its own (mark with no finds changes nothing):
//     static constexpr bool kSkipsEmptyWords = true;
//     bool idle();                              // nothing waits for word_done (no finds held back)
// and may fetch the rows of a word's misses itself (as fetch_rows below), when its tries have
// learnt where those rows are:
//     word_t fetch_rows(std::int64_t w, word_t rest, std::span<const Entry>* rows);
//     std::int64_t next_unvisited(std::int64_t w, std::int64_t last);  // the first word from w on
//                                               // with a vertex to search, or one whose test needs
//                                               // unvisited() (a last, partial word); at most last
#include <cstdint>
#include <span>

#include "bfs/level_profiler.hpp"
#include "core/bitmap.hpp"
#include "core/types.hpp"

namespace g500::bottom_up {

// A row fetched for a later search: a span's view without its zeroing constructor, so that a
// scan's two words of them (rows by bit) cost nothing to declare; only the bits fetched are read.
template <class Entry>
struct RowView {
  RowView() = default;
  RowView(std::span<const Entry> row) : first(row.data()), last(row.data() + row.size()) {}  // implicit: as a span
  RowView(const Entry* begin, const Entry* end) : first(begin), last(end) {}
  const Entry* data() const { return first; }
  std::size_t size() const { return static_cast<std::size_t>(last - first); }
  const Entry* first;
  const Entry* last;
};

// Of word w's vertices in `rest`, those with entries past the first: their rows are fetched now,
// kept in `rows` by bit, and searched in the next iteration. Rows of one entry have nothing more
// to search.
template <class Block, class Row>
[[gnu::always_inline]] inline word_t fetch_rows(const Block& block, std::int64_t w, word_t rest, Row* rows) {
  word_t need_rows = 0;
  for (; rest; rest &= rest - 1) {
    const int b = __builtin_ctzll(rest);
    const Row row = block.row(w * kWordBits + b);
    if (row.size() < 2) continue;
    need_rows |= word_t{1} << b;
    rows[b] = row;
    __builtin_prefetch(row.data() + 1);
  }
  return need_rows;
}

// The rows past their first entry of word w's vertices in `due` (kept by fetch_rows), each up to
// its first entry in the frontier; returns the vertices found. `examined` counts the entries read.
template <class Block, class Row>
word_t search_rows(Block& block, std::int64_t w, word_t due, const Row* rows, std::int64_t& examined) {
  word_t hits = 0;
  for (; due; due &= due - 1) {
    const int b = __builtin_ctzll(due);
    const local_t v = w * kWordBits + b;
    const Row& row = rows[b];
    for (auto it = row.data() + 1, end = row.data() + row.size(); it != end; ++it) {
      ++examined;
      if (block.in_frontier(*it)) {
        block.found_in_row(v, it);
        hits |= word_t{1} << b;
        break;
      }
    }
  }
  return hits;
}

// The block's own fetch_rows where it has one.
template <class Block, class Row>
[[gnu::always_inline]] inline word_t fetch_rows_of(Block& block, std::int64_t w, word_t rest, Row* rows) {
  if constexpr (requires { block.fetch_rows(w, rest, rows); })
    return block.fetch_rows(w, rest, rows);
  else
    return fetch_rows(block, w, rest, rows);
}

template <class Block>
constexpr bool skips_empty_words() {
  if constexpr (requires { Block::kSkipsEmptyWords; }) return Block::kSkipsEmptyWords;
  return false;
}

// Words [first, last) of the block. The row searches of word w - 1 run in the iteration of word w,
// so that their prefetched rows have arrived; a word's first-entry finds are marked after the
// previous word's row finds, so that the block sees its finds in vertex order.
// Kept whole: the word loop is the step's hot path, and its order (a word's rows searched an
// iteration later, finds marked in vertex order) is the point. Its counts stay in locals until
// the end, and a word whose vertices all hit their first entries fetches no rows.
template <class Block>
void scan(Block& block, std::int64_t first, std::int64_t last) {
  using Row = RowView<typename Block::Entry>;
  Row rows[2][kWordBits];  // the rows fetched for word w (rows[w & 1]) and for word w - 1
  word_t rows_due = 0;     // vertices of word w - 1 whose rows are to search
  std::int64_t tries = 0, examined = 0;
  for (std::int64_t w = first; w <= last; ++w) {
    // Words with no vertex to search, after a word with no row to search and no finds held back:
    // nothing to do, passed over in a loop of two loads and a test each.
    if constexpr (skips_empty_words<Block>()) {
      if (!rows_due && block.idle()) w = block.next_unvisited(w, last);
    }
    const word_t todo = w < last ? block.unvisited(w) : 0;
    if constexpr (skips_empty_words<Block>()) {
      if (!todo && !rows_due && block.idle()) continue;
    }
    word_t need_rows = 0, newly = 0;
    if (w < last) {  // a block may write word w whole here, found or not (hybrid-1d's next frontier)
      tries += __builtin_popcountll(todo);
      newly = block.try_first_entries(w, todo);
      if (const word_t rest = todo & ~newly) need_rows = fetch_rows_of(block, w, rest, rows[w & 1]);
    }
    if (rows_due) block.mark(w - 1, search_rows(block, w - 1, rows_due, rows[(w - 1) & 1], examined));
    block.word_done();
    if (w < last) block.mark(w, newly);
    rows_due = need_rows;
  }
  block.counts.words_swept += last - first;
  block.counts.first_entry_tries += tries;
  block.counts.edges_examined += tries + examined;  // a first entry tried is an entry examined
}

}  // namespace g500::bottom_up
