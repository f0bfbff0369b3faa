#pragma once
// hybrid-2d's block for the shared bottom-up scan (bfs/bottom_up_scan.hpp): Grid2D's BlockScan,
// included by bottom_up_step.cpp alone, where the engine's step instantiates it.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "bfs/engines/grid_2d/grid_2d.hpp"
#include "core/packed_ints.hpp"

namespace g500 {

// One thread's share of the search of block k of the column, as the shared bottom-up scan's block
// (bfs/bottom_up_scan.hpp): for each unvisited vertex of the block, a parent in the row's frontier.
//
// In this rank's own block a parent is written straight in. Another block's finds are
// kept, in vertex order, for its owner: word w's parents wait in `parent_of` by bit until its rows,
// searched an iteration later, have added theirs, and then go out together in bit order.
//
// The block's rows with entries come from the CSR's bits and counts, word by word, or (Listed) from
// its sorted list, walked in step with the scan: a word's bits and first place are gathered from
// the list when the scan reaches it, and words without rows with entries are jumped over.
template <class Column, class Position>
template <bool Listed>
struct Grid2D<Column, Position>::BlockScan {
  using Entry = Position;
  BlockScan(const Grid2D& engine, int block_k, bool own_block, local_t offset, std::int64_t words, word_t last_mask,
            word_t* done, word_t* next, std::vector<word_t>& changed, std::span<vertex_t> parents,
            std::vector<FoundPair>& out)
      : engine(engine),
        block_k(block_k),
        own_block(own_block),
        offset(offset),
        words(words),
        last_mask(last_mask),
        done(done),
        next(next),
        changed(changed),
        parents(parents),
        out(out) {}

  const Grid2D& engine;
  const int block_k;             // the block's place in the column range
  const bool own_block;          // sub-step 0: this rank's block
  const local_t offset;          // the block's first row in the column range
  const std::int64_t words;      // of the block's bitmap
  const word_t last_mask;        // the block's vertices in its last word
  word_t* const done;            // the block's bitmap of vertices with a parent
  word_t* const next;            // own block: the next frontier
  std::vector<word_t>& changed;  // another block: the summary of changed words
  const std::span<vertex_t> parents;
  std::vector<FoundPair>& out;  // another block: the finds, in vertex order
  const word_t* const frontier = engine.row_frontier_.data();
  // Bits and counts (blocks are whole words of them), or null when listed.
  const word_t* const filled_rows = Listed ? nullptr : engine.csr_.index.filled_words() + offset / kWordBits;
  const std::uint32_t* const first_before = Listed ? nullptr : engine.csr_.index.before_low() + offset / kWordBits;
  const std::int64_t* const before_base = engine.csr_.index.before_base();  // 64-bit counts' bases
  // Listed: the block's rows with entries (offsets in the block), at places [list_first, list_end);
  // the cursor is the first place past the loaded word's.
  const std::uint32_t* const list = engine.csr_.index.list();
  const std::int64_t list_first = Listed ? engine.csr_.index.part_first(block_k) : 0;
  const std::int64_t list_end = Listed ? engine.csr_.index.part_first(block_k + 1) : 0;
  std::int64_t cursor = list_first;
  std::int64_t loaded = -1;  // the word whose rows with entries are loaded_bits, from place loaded_place
  word_t loaded_bits = 0;
  std::int64_t loaded_place = 0;
  const EntryVertex entry_vertex = engine.entry_vertex();                          // sparse rows: an entry's vertex
  const std::uint32_t* const narrow_offsets = engine.csr_.index.narrow_offsets();  // sparse rows, or null
  StepCounts counts;
  // Another block: the parents found in words w - 1 and w by bit (parent_of[w & 1]), and the word
  // whose finds wait for its rows (`waiting`, those found so far).
  Column parent_of[2][kWordBits];
  std::int64_t waiting_word = 0;
  word_t waiting = 0;
  // Sparse rows: the word's tried rows, from their first entry to their end, for fetch_rows.
  const Position* tried[kWordBits];
  const Position* tried_end[kWordBits];

  // Listed: word w's rows with entries, gathered from the list (a seek where the scan moved back, to
  // another chunk, or past rows).
  void load(std::int64_t w) {
    if (w == loaded) return;
    const std::int64_t low = w * kWordBits;
    if (w < loaded) cursor = list_first;
    if (cursor < list_end && list[cursor] < low)
      cursor = std::lower_bound(list + cursor, list + list_end, static_cast<std::uint32_t>(low)) - list;
    loaded = w;
    loaded_place = cursor;
    loaded_bits = 0;
    for (; cursor < list_end && list[cursor] < low + kWordBits; ++cursor)
      loaded_bits |= word_t{1} << (list[cursor] - low);
  }
  word_t filled_bits(std::int64_t w) {
    if constexpr (Listed) {
      load(w);
      return loaded_bits;
    } else {
      return filled_rows[w];
    }
  }
  word_t unvisited(std::int64_t w) { return ~done[w] & filled_bits(w) & (w == words - 1 ? last_mask : ~word_t{0}); }
  // Row v's entries (v has some), v in the word being searched.
  std::span<const Position> row(local_t v) const {
    const std::int64_t k = filled_place(v / kWordBits, static_cast<int>(v % kWordBits));
    const edge_count_t first = narrow_offsets ? narrow_offsets[k] : engine.csr_.index.offset(k);
    const edge_count_t last = narrow_offsets ? narrow_offsets[k + 1] : engine.csr_.index.offset(k + 1);
    return {entry_vertex.columns + first, static_cast<std::size_t>(last - first)};
  }
  bool in_frontier(Position entry) const {
    const vertex_t w = entry_vertex.position(entry);
    return (frontier[w >> 6] >> (w & 63)) & 1;
  }

  // Row b of word w's place among the rows with entries: after those of the word's rows below b.
  std::int64_t filled_place(std::int64_t w, int b) const { return place_in_word(word_place(w), word_filled(w), b); }
  // The same from the word's first place and its rows with entries, read once for all its tries.
  static std::int64_t place_in_word(std::int64_t place, word_t filled, int b) {
    return place + __builtin_popcountll(filled & ((word_t{1} << b) - 1));
  }
  // Word w's first place among the rows with entries, and its rows with entries (Listed: word w loaded).
  std::int64_t word_place(std::int64_t w) const {
    if constexpr (Listed) return loaded_place;
    std::int64_t before = first_before[w];
    if constexpr (SparseRows<Column>::kBased)
      before += before_base[(offset / kWordBits + w) >> SparseRows<Column>::kBaseShift];
    return before;
  }
  word_t word_filled(std::int64_t w) const {
    if constexpr (Listed) return loaded_bits;
    return filled_rows[w];
  }

  word_t try_first_entries(std::int64_t w, word_t todo) {
    if (!engine.first_.empty()) return own_block ? try_first_entries<true>(w, todo) : try_first_entries<false>(w, todo);
    return own_block ? try_sparse_first_entries<true>(w, todo) : try_sparse_first_entries<false>(w, todo);
  }
  // Dense rows, from the table of first entries and their vertices. Compiled apart for the own
  // block, where a parent is written either way (an unvisited vertex's parent is kNoParent already),
  // and for another block, where every try is written to `ahead` and kept only when it hits.
  // Without branches: a hit is a coin toss in the busiest levels.
  template <bool Own>
  word_t try_first_entries(std::int64_t w, word_t todo) {
    word_t newly = 0;
    const std::int64_t place = word_place(w);
    const word_t filled = word_filled(w);
    for (word_t bits = todo; bits; bits &= bits - 1) {
      const int b = __builtin_ctzll(bits);
      const FirstEntry first = engine.first_[place_in_word(place, filled, b)];
      const word_t hit = in_frontier(first.position);
      if constexpr (Own) {
        // the parent if hit, else kNoParent (-1), in arithmetic
        const vertex_t mask = -static_cast<vertex_t>(hit);
        parents[w * kWordBits + b] = (static_cast<vertex_t>(first.vertex) & mask) | ~mask;
      } else {
        parent_of[w & 1][b] = static_cast<Column>(first.vertex);  // kept only if hit
      }
      newly |= hit << b;
    }
    return newly;
  }
  // Sparse rows: each row's first entry read in place (rows hold about one entry each), with the
  // row's end for fetch_rows, and its vertex worked out after the tries, for the hits alone.
  template <bool Own>
  word_t try_sparse_first_entries(std::int64_t w, word_t todo) {
    word_t newly = 0;
    const std::int64_t place = word_place(w);
    const word_t filled = word_filled(w);
    for (word_t bits = todo; bits; bits &= bits - 1) {
      const int b = __builtin_ctzll(bits);
      const std::int64_t k = place_in_word(place, filled, b);
      const edge_count_t first = narrow_offsets ? narrow_offsets[k] : engine.csr_.index.offset(k);
      const edge_count_t end = narrow_offsets ? narrow_offsets[k + 1] : engine.csr_.index.offset(k + 1);
      const Position* const entry = entry_vertex.columns + first;
      tried[b] = entry;
      tried_end[b] = entry_vertex.columns + end;
      // A hit reads the entry's index: fetched beside the entry, so that the two misses overlap.
      if (entry_vertex.index_words) __builtin_prefetch(entry_vertex.index_address(entry));
      newly |= static_cast<word_t>(in_frontier(*entry)) << b;
    }
    for (word_t bits = newly; bits; bits &= bits - 1) {
      const int b = __builtin_ctzll(bits);
      if constexpr (Own)
        parents[w * kWordBits + b] = entry_vertex(tried[b]);
      else
        parent_of[w & 1][b] = static_cast<Column>(entry_vertex(tried[b]));
    }
    return newly;
  }
  // Of word w's vertices in `rest`, those with entries past the first: their rows, kept in `rows`
  // by bit and prefetched. Sparse rows have their bounds from the tries; dense rows look them up.
  template <class Row>
  word_t fetch_rows(std::int64_t w, word_t rest, Row* rows) const {
    if (!engine.first_.empty()) return bottom_up::fetch_rows(*this, w, rest, rows);
    word_t need_rows = 0;
    for (; rest; rest &= rest - 1) {
      const int b = __builtin_ctzll(rest);
      if (tried_end[b] - tried[b] < 2) continue;
      need_rows |= word_t{1} << b;
      rows[b] = Row(tried[b], tried_end[b]);
      __builtin_prefetch(tried[b] + 1);
    }
    return need_rows;
  }

  void found_in_row(local_t v, const Position* entry) {
    const Column parent =
        static_cast<Column>(engine.first_.empty() ? entry_vertex(entry) : engine.vertex_of_entry(entry));
    if (own_block)
      parents[v] = static_cast<vertex_t>(parent);
    else
      parent_of[(v / kWordBits) & 1][v % kWordBits] = parent;
  }

  // Word w's vertices found: into the block's bitmap, and this block's next frontier or the summary
  // of changed words (one thread owns each word of it: chunks are whole words of it).
  void mark(std::int64_t w, word_t newly) {
    done[w] |= newly;
    if (own_block) {
      next[w] |= newly;
    } else {
      if (newly) changed[w / kWordBits] |= word_t{1} << (w % kWordBits);
      waiting_word = w;  // word w - 1's row finds, then word w's first-entry finds
      waiting |= newly;
    }
  }

  static constexpr bool kSkipsEmptyWords = true;
  bool idle() const { return waiting == 0; }
  std::int64_t next_unvisited(std::int64_t w, std::int64_t last) {
    const std::int64_t whole = std::min(last, words - 1);  // the last word has a mask of its own
    if constexpr (Listed) {
      // From word to word with rows with entries: the next one is the cursor's.
      while (w < whole && (filled_bits(w) & ~done[w]) == 0)
        w = cursor < list_end ? std::min<std::int64_t>(whole, list[cursor] / kWordBits) : whole;
    } else {
      while (w < whole && (filled_rows[w] & ~done[w]) == 0) ++w;
    }
    return w;
  }

  // Another block: the previous word's finds, first-entry and row alike, out in vertex order.
  void word_done() {
    if (own_block) return;
    const Column* const parent = parent_of[waiting_word & 1];
    for (word_t bits = waiting; bits; bits &= bits - 1) {
      const int b = __builtin_ctzll(bits);
      out.push_back(found_pair(waiting_word * kWordBits + b, parent[b]));
    }
    waiting = 0;
  }
};

}  // namespace g500
