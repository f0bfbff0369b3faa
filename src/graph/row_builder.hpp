#pragma once
// Kernel 1's building blocks, for any layout of rows: arcs routed to the rank that stores their row
// (two passes over the edge source: counts, then the arcs themselves), rows sorted and cleared of
// duplicates, rows slid together. A layout supplies where an arc goes (dest_of(row, to): a rank)
// and which local row a global row id is (row_index(row)).
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "core/big_vector.hpp"
#include "core/key_sort.hpp"
#include "core/types.hpp"
#include "graph/arc_routing.hpp"
#include "mpi/comm.hpp"

namespace g500::rows {

template <class Column>
struct Arc {
  Column row;  // a global id whose row the receiving rank holds
  Column to;
};

// The first pass needs only the row of each arc.
template <class Column>
struct RowOf {
  Column row;
};

// Hands out a round's items (anything with a .row, a global id) grouped by block of rows: a
// counting sort, then visit(items of one block) for each block on one thread, blocks spread over
// the team. A block's rows (their counts, cursors and columns) then sit in that thread's cache,
// and no two threads touch one row, so no atomics are needed.
template <class Item, class RowIndex>
class RowBlocks {
 public:
  RowBlocks(const RowIndex& row_index, local_t rows) : row_index_(row_index) {
    while ((rows >> shift_) > 4096) ++shift_;  // at most ~4096 blocks of >= 8192 rows
    blocks_ = static_cast<int>((rows >> shift_) + 1);
  }

  template <class Visit>
  void for_each_block(std::span<const Item> items, Visit&& visit) {
    const std::int64_t n = static_cast<std::int64_t>(items.size());
    sorted_.resize(n);
    const int threads = omp_get_max_threads();
    counts_.assign(static_cast<std::size_t>(threads) * blocks_, 0);
#pragma omp parallel num_threads(threads)
    {
      // Split by the team actually granted; counts_ has room for the one asked for.
      const int t = omp_get_thread_num(), team = omp_get_num_threads();
      const std::int64_t first = n * t / team, last = n * (t + 1) / team;
      std::int64_t* mine = counts_.data() + static_cast<std::size_t>(t) * blocks_;
      for (std::int64_t i = first; i < last; ++i) ++mine[block_of(items[i])];
#pragma omp barrier
#pragma omp single
      {
        std::int64_t at = 0;
        block_start_.assign(blocks_ + 1, 0);
        for (int b = 0; b < blocks_; ++b) {
          block_start_[b] = at;
          for (int u = 0; u < team; ++u) {
            std::int64_t& c = counts_[static_cast<std::size_t>(u) * blocks_ + b];
            const std::int64_t here = c;
            c = at;
            at += here;
          }
        }
        block_start_[blocks_] = at;
      }
      for (std::int64_t i = first; i < last; ++i) sorted_[mine[block_of(items[i])]++] = items[i];
#pragma omp barrier
#pragma omp for schedule(dynamic, 4)
      for (int b = 0; b < blocks_; ++b) {
        visit(std::span<const Item>(sorted_.data() + block_start_[b], sorted_.data() + block_start_[b + 1]));
      }
    }
  }

 private:
  int block_of(const Item& item) const {
    return static_cast<int>(row_index_(static_cast<vertex_t>(item.row)) >> shift_);
  }

  const RowIndex& row_index_;
  int shift_ = 13;
  int blocks_ = 1;
  std::vector<Item> sorted_;
  std::vector<std::int64_t> counts_;
  std::vector<std::int64_t> block_start_;
};

// Bits that hold every value below `count` (at least 1).
inline int id_bits(std::int64_t count) {
  return std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(count > 0 ? count - 1 : 0))));
}

// The rows of one rank as kernel 1 fills them.
template <class Column>
struct Rows {
  big_vector<edge_count_t> offsets;  // rows + 1 entries
  big_vector<Column> columns;
};

// Passes 1 and 2: every arc (row, to) of the source in its row at rank dest_of(row, to), rows
// unsorted, duplicates still in. Collective.
template <class Column, class DestOf, class RowIndex>
Rows<Column> place_arcs(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, local_t n_rows,
                        DestOf&& dest_of, const RowIndex& row_index) {
  Rows<Column> out{big_vector<edge_count_t>(n_rows + 1, 0), {}};
  big_vector<edge_count_t>& offsets = out.offsets;

  // Pass 1: arcs per row.
  {
    RowBlocks<RowOf<Column>, RowIndex> rows_seen(row_index, n_rows);
    route_arcs_to<RowOf<Column>>(
        source, comm, round, "build.degree_rows", dest_of,
        [](vertex_t row, vertex_t) { return RowOf<Column>{static_cast<Column>(row)}; },
        [&](std::span<const RowOf<Column>> arcs) {
          const auto count = [&](std::span<const RowOf<Column>> some) {
            for (const RowOf<Column>& a : some) ++offsets[row_index(static_cast<vertex_t>(a.row)) + 1];
          };
          // One thread counts in place: grouping first costs more than the random increments it saves.
          if (omp_get_max_threads() == 1) count(arcs);
          else rows_seen.for_each_block(arcs, count);
        });
  }
  for (local_t i = 0; i < n_rows; ++i) offsets[i + 1] += offsets[i];

  // Pass 2: every arc into its row, at the row's cursor. The offsets serve as the cursors (no
  // second array of N/P counters at the build's peak): each ends at its row's end, the next row's
  // start, and one shift puts them back.
  out.columns.resize(offsets[n_rows]);
  edge_count_t* cursor = offsets.data();
  Column* columns = out.columns.data();
  RowBlocks<Arc<Column>, RowIndex> arcs_by_block(row_index, n_rows);
  route_arcs_to<Arc<Column>>(
      source, comm, round, "build.arcs", dest_of,
      [](vertex_t row, vertex_t to) { return Arc<Column>{static_cast<Column>(row), static_cast<Column>(to)}; },
      [&](std::span<const Arc<Column>> arcs) {
        arcs_by_block.for_each_block(arcs, [&](std::span<const Arc<Column>> block) {
          for (const Arc<Column>& a : block) columns[cursor[row_index(static_cast<vertex_t>(a.row))]++] = a.to;
        });
      });
  for (local_t i = n_rows; i > 0; --i) offsets[i] = offsets[i - 1];
  offsets[0] = 0;
  return out;
}

// Slides the rows together: row r keeps its first kept[r] entries. The room duplicates took is
// handed back to the system in place (shrinking would copy the rows, doubling the peak).
template <class Column>
void close_up_rows(big_vector<edge_count_t>& offsets, big_vector<Column>& columns,
                   const std::vector<edge_count_t>& kept) {
  const local_t n_rows = static_cast<local_t>(offsets.size()) - 1;
  edge_count_t at = 0;
  for (local_t r = 0; r < n_rows; ++r) {
    if (at != offsets[r]) std::memmove(columns.data() + at, columns.data() + offsets[r], kept[r] * sizeof(Column));
    offsets[r] = at;
    at += kept[r];
  }
  offsets[n_rows] = at;
  columns.resize(at);
  release_spare_capacity(columns);
}

// Sorts each row by key_of(entry), drops entries whose keys repeat (copies of one neighbour) and
// slides the rows together. Integer keys go by vectorised sort (core/key_sort.hpp). When a key
// reads a table at random (a neighbour's degree code), prefetch(entry) is called a few entries
// ahead.
template <class Column, class Key, class KeyOf, class EntryOf, class Prefetch = void (*)(Column)>
void sort_rows_by_key(big_vector<edge_count_t>& offsets, big_vector<Column>& columns, KeyOf&& key_of,
                      EntryOf&& entry_of, Prefetch&& prefetch = [](Column) {}) {
  constexpr edge_count_t kAhead = 32;
  const local_t n_rows = static_cast<local_t>(offsets.size()) - 1;
  const edge_count_t n_entries = offsets[n_rows];
  std::vector<edge_count_t> kept(n_rows);
#pragma omp parallel
  {
    std::vector<Key> keyed;
#pragma omp for schedule(dynamic, 256)
    for (local_t i = 0; i < n_rows; ++i) {
      keyed.clear();
      for (edge_count_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        if (k + kAhead < n_entries) prefetch(columns[k + kAhead]);
        keyed.push_back(key_of(columns[k]));
      }
      if constexpr (std::is_integral_v<Key>) sort_keys(keyed);
      else std::sort(keyed.begin(), keyed.end());
      Column* out = columns.data() + offsets[i];
      edge_count_t len = 0;
      for (std::size_t k = 0; k < keyed.size(); ++k) {
        if (k > 0 && keyed[k] == keyed[k - 1]) continue;
        out[len++] = entry_of(keyed[k]);
      }
      kept[i] = len;
    }
  }
  close_up_rows(offsets, columns, kept);
}

// Each row sorted by value, duplicates dropped.
template <class Column>
void sort_rows_by_id(big_vector<edge_count_t>& offsets, big_vector<Column>& columns) {
  using Key = std::make_unsigned_t<Column>;
  sort_rows_by_key<Column, Key>(
      offsets, columns, [](Column v) { return static_cast<Key>(v); },
      [](Key key) { return static_cast<Column>(key); });
}

}  // namespace g500::rows
