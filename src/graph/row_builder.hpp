#pragma once
// Kernel 1's building blocks, for any layout of rows: arcs routed to the rank that stores their row
// (two passes over the edge source: counts, then the arcs themselves) and placed in their rows
// (graph/row_sort.hpp then sorts them and drops copies). A layout supplies where an arc goes (dest_of(row, to): a rank)
// and the global id of each rank's first row (row_base(rank)): the rows a rank holds are
// consecutive ids.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "graph/arc_routing.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"
#include "mpi/node_memory.hpp"

namespace g500::rows {

template <class Column>
struct Arc {
  Column row;  // a global id whose row the receiving rank holds
  Column to;
};

// What an arc carries to its row: the Item it travels as, made from a tuple's ends by make(row, to)
// (or make(row, to, weight): the source's weights are read), the Column word its row stores
// (word(item)), and the bits that word takes for ids below n (word_bits(n)). Plain arcs store
// their target; kernel 3's carry a weight beside it (graph/weighted_csr.cpp).
template <class Column>
struct PlainArcs {
  using Item = Arc<Column>;
  static Item make(vertex_t row, vertex_t to) { return {static_cast<Column>(row), static_cast<Column>(to)}; }
  static Column word(const Item& a) { return a.to; }
  static int word_bits(vertex_t n);
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

template <class Column>
int PlainArcs<Column>::word_bits(vertex_t n) {
  return id_bits(n);
}

// Arcs::make as a lambda, which the exchange's loop inlines (a function pointer it may not).
template <class Arcs>
auto arc_maker() {
  if constexpr (std::is_invocable_v<decltype(&Arcs::make), vertex_t, vertex_t, float>) {
    return [](vertex_t row, vertex_t to, float weight) { return Arcs::make(row, to, weight); };
  } else {
    return [](vertex_t row, vertex_t to) { return Arcs::make(row, to); };
  }
}

// The rows of one rank as kernel 1 fills them.
template <class Column>
struct Rows {
  big_vector<edge_count_t> offsets;  // rows + 1 entries
  big_vector<Column> columns;
};

// Rows of 2^kMaxTagBits at most per block of place_by_block: a block's entries (~32 per row at the
// Graph500 edge factor) then sit in L2 while they are sorted into their rows.
inline constexpr int kMaxTagBits = 10;
// Rows per block when side bytes carry part of the tag (32-bit ids from SCALE 25): larger blocks
// made their sort longer, smaller ones more write streams than L2 holds lines for (docs/tuning.md).
inline constexpr int kSideTagBits = 12;
// Below 2^kMinTagBits rows per block, a round brings too few arcs per block for the appends to
// fill cache lines, and place_by_row does as well.
inline constexpr int kMinTagBits = 8;
// place_by_block's first pass keeps a counter per block of every rank on each thread.
inline constexpr std::int64_t kMaxCountedBlocks = std::int64_t{1} << 20;
// Entries of a block that place_by_block sorts through scratch (per thread); bigger ones in place.
inline constexpr edge_count_t kBlockScratch = edge_count_t{1} << 18;

// Where each rank's blocks of 2^tag_bits rows start when every rank's are laid end to end (and,
// last, their total). Collective.
inline std::vector<std::int64_t> block_bases(const mpi::Comm& comm, local_t n_rows, int tag_bits) {
  const std::vector<local_t> rows_of = comm.allgather(n_rows);
  std::vector<std::int64_t> base(rows_of.size() + 1, 0);
  for (std::size_t r = 0; r < rows_of.size(); ++r) base[r + 1] = base[r] + (rows_of[r] >> tag_bits) + 1;
  return base;
}

// Pass 1's counts when a pass before made them (graph/arc_sketch.hpp): fills this rank's arcs of
// each block of 2^tag_bits rows, indexed as block_base lays them out, and returns true; or returns
// false, and the pass counts. Every rank must answer alike.
using BlockCounts = std::function<bool(int tag_bits, const std::vector<std::int64_t>& block_base,
                                       std::vector<std::int64_t>& block_arcs)>;

// place_by_block's pass 1: this rank's arcs of every rank's blocks of 2^tag_bits rows, counted
// where the tuples are made, into block_arcs (indexed as block_base lays them out).
template <class DestOf, class RowBase>
void count_block_arcs(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, int tag_bits,
                      DestOf&& dest_of, RowBase&& row_base, const std::vector<std::int64_t>& block_base,
                      std::vector<std::int64_t>& block_arcs) {
  const int threads = omp_get_max_threads();
  std::vector<std::vector<std::int64_t>> counts(threads);
  scan_in_pieces(
      source, comm, round,
      [&](int t, std::span<const Edge> edges) {
        std::vector<std::int64_t>& mine = counts[t];
        if (mine.empty()) mine.assign(block_arcs.size(), 0);
        const auto count = [&](vertex_t row, vertex_t to) {
          const int d = dest_of(row, to);
          ++mine[block_base[d] + ((row - row_base(d)) >> tag_bits)];
        };
        for (const Edge& e : edges) {
          if (e.u == e.v) continue;
          count(e.u, e.v);
          count(e.v, e.u);
        }
      },
      [] {});
  for (const auto& c : counts)
    for (std::size_t b = 0; b < c.size(); ++b) block_arcs[b] += c[b];
}

// A tagged arc's row inside its block: the tag's low bits sit in the column word above the id, and
// any bits the word has no room for in a side byte per entry (side is then non-null).
template <class Column>
struct BlockTags {
  int to_bits;               // the id's width
  int word_bits;             // tag bits above the id in the word
  const std::uint8_t* side;  // the tag's high bits, entry by entry, or nullptr

  local_t row(const Column* columns, edge_count_t k) const {
    // Unsigned: with 64-bit (signed) ids, a tag may reach the sign bit.
    const local_t low = static_cast<local_t>(static_cast<std::make_unsigned_t<Column>>(columns[k]) >> to_bits);
    return side ? low | (static_cast<local_t>(side[k]) << word_bits) : low;
  }
};

// place_by_block's last phase: each block of tagged arcs into its rows. Its rows are counted, then
// a counting sort runs through a scratch block in cache or, for a block too big for the scratch (a
// hub's), in place, each entry swapped to its row's cursor until the one at hand belongs where it
// stands (American flag sort). The tags are dropped. A placed entry is never read again, so the
// side bytes are only read.
template <class Column>
void sort_blocks_into_rows(Rows<Column>& out, const std::vector<edge_count_t>& block_begin, local_t n_rows,
                           const BlockTags<Column>& tags, int tag_bits, edge_count_t scratch_limit) {
  const local_t n_blocks = static_cast<local_t>(block_begin.size()) - 1;
  const int to_bits = tags.to_bits;
  const Column to_mask = static_cast<Column>((Column{1} << to_bits) - 1);
  Column* const columns = out.columns.data();
  big_vector<edge_count_t>& offsets = out.offsets;
#pragma omp parallel
  {
    std::vector<edge_count_t> cursor(std::size_t{1} << tag_bits);
    std::vector<Column> scratch;
#pragma omp for schedule(dynamic, 16)
    for (local_t b = 0; b < n_blocks; ++b) {
      const local_t first = b << tag_bits, rows = std::min(n_rows, (b + 1) << tag_bits) - first;
      const edge_count_t begin = block_begin[b], end = block_begin[b + 1];
      std::fill(cursor.begin(), cursor.begin() + rows, 0);
      for (edge_count_t k = begin; k < end; ++k) ++cursor[tags.row(columns, k)];
      edge_count_t at = begin;
      for (local_t r = 0; r < rows; ++r) {
        offsets[first + r] = at;
        at += std::exchange(cursor[r], at);
      }
      if (end - begin <= scratch_limit) {
        scratch.resize(end - begin);
        for (edge_count_t k = begin; k < end; ++k) scratch[cursor[tags.row(columns, k)]++ - begin] = columns[k] & to_mask;
        std::copy(scratch.begin(), scratch.end(), columns + begin);
        continue;
      }
      for (local_t r = 0; r < rows; ++r) {
        const edge_count_t row_end = r + 1 < rows ? offsets[first + r + 1] : end;
        edge_count_t& here = cursor[r];
        while (here < row_end) {
          Column v = columns[here];
          local_t to_row = tags.row(columns, here);
          while (to_row != r) {
            const edge_count_t slot = cursor[to_row]++;
            const Column there = columns[slot];
            const local_t there_row = tags.row(columns, slot);
            columns[slot] = v & to_mask;
            v = there;
            to_row = there_row;
          }
          columns[here++] = v & to_mask;
        }
      }
    }
  }
}

// Kernel 1's placement by blocks of 2^tag_bits rows, each arc tagged with its row's place in its
// block: above the id in the column word as far as the word has room (32-bit columns: all of it up
// to SCALE 24), and the rest, at most 8 bits, in a side byte per arc, held only while placing.
//  - Pass 1 counts the arcs of each block of rows on the sending side and sums the counts with
//    one reduction: nothing is exchanged.
//  - Pass 2 appends each arc, tagged, to its block's range: a few thousand write streams, each
//    writing whole cache lines, where placing arcs at their rows' cursors writes one random cache
//    line per arc.
//  - Each block is then counted and sorted into its rows in cache, tags dropped.
// tag_bits: at most 8 more than the word has room for above to_bits.
template <class Column, class Arcs = PlainArcs<Column>, class DestOf, class RowBase>
Rows<Column> place_by_block(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, local_t n_rows,
                            int to_bits, int tag_bits, DestOf&& dest_of, RowBase&& row_base,
                            const std::vector<std::int64_t>& block_base, const BlockCounts& counted = {},
                            edge_count_t scratch_limit = kBlockScratch) {
  const int me = comm.rank();
  const std::int64_t n_blocks_all = block_base.back();
  const local_t n_blocks = (n_rows >> tag_bits) + 1;
  const std::int64_t my_blocks = block_base[me];

  // Pass 1: arcs per block, counted where the tuples are (unless a pass before counted them).
  std::vector<std::int64_t> block_arcs(n_blocks_all, 0);
  if (!(counted && counted(tag_bits, block_base, block_arcs))) {
    count_block_arcs(source, comm, round, tag_bits, dest_of, row_base, block_base, block_arcs);
  }
  comm.allreduce_inplace(std::span<std::int64_t>(block_arcs), mpi::Op::sum);
  std::vector<edge_count_t> block_begin(n_blocks + 1, 0);
  for (local_t b = 0; b < n_blocks; ++b) block_begin[b + 1] = block_begin[b] + block_arcs[my_blocks + b];

  // Pass 2: every arc appended to its block.
  Rows<Column> out{big_vector<edge_count_t>(n_rows + 1), big_vector<Column>(block_begin[n_blocks])};
  const vertex_t first_row = row_base(me);
  const auto row_index = [first_row](vertex_t row) { return static_cast<local_t>(row - first_row); };
  const int word_bits = std::min(tag_bits, static_cast<int>(8 * sizeof(Column)) - to_bits);
  const local_t word_mask = (local_t{1} << word_bits) - 1, tag_mask = (local_t{1} << tag_bits) - 1;
  big_vector<std::uint8_t> side(tag_bits > word_bits ? block_begin[n_blocks] : 0);
  std::uint8_t* const side_of = side.empty() ? nullptr : side.data();
  Column* columns = out.columns.data();
  std::vector<edge_count_t> fill(block_begin.begin(), block_begin.end() - 1);  // append cursors
  // An arc as its block stores it at k: the row's place in the block above the target (and its
  // high bits beside).
  const auto put = [&](edge_count_t k, local_t r, Column to) {
    using Word = std::make_unsigned_t<Column>;
    columns[k] = static_cast<Column>((static_cast<Word>(r & word_mask) << to_bits) | static_cast<Word>(to));
    if (side_of) side_of[k] = static_cast<std::uint8_t>((r & tag_mask) >> word_bits);
  };
  using Item = typename Arcs::Item;
  const auto append = [&](std::span<const Item> arcs) {
    for (const Item& a : arcs) {
      const local_t r = row_index(static_cast<vertex_t>(a.row));
      put(fill[r >> tag_bits]++, r, Arcs::word(a));
    }
  };
  // Several threads: each counts its share of a round's arcs per block, takes a run of each block's
  // range for them, and appends there (no copy grouping them by block first).
  std::vector<edge_count_t> runs;  // by thread, then block: where the thread's run starts
  const auto append_in_parallel = [&](std::span<const Item> arcs) {
    const int threads = omp_get_max_threads();
    const std::int64_t n = static_cast<std::int64_t>(arcs.size());
    runs.assign(static_cast<std::size_t>(threads) * n_blocks, 0);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num(), team = omp_get_num_threads();
      const std::int64_t first = n * t / team, last = n * (t + 1) / team;
      edge_count_t* mine = runs.data() + static_cast<std::size_t>(t) * n_blocks;
      for (std::int64_t i = first; i < last; ++i) ++mine[row_index(static_cast<vertex_t>(arcs[i].row)) >> tag_bits];
#pragma omp barrier
#pragma omp for schedule(static)
      for (local_t b = 0; b < n_blocks; ++b) {
        for (int u = 0; u < team; ++u) {
          edge_count_t& run = runs[static_cast<std::size_t>(u) * n_blocks + b];
          fill[b] += std::exchange(run, fill[b]);
        }
      }
      for (std::int64_t i = first; i < last; ++i) {
        const Item& a = arcs[i];
        const local_t r = row_index(static_cast<vertex_t>(a.row));
        put(mine[r >> tag_bits]++, r, Arcs::word(a));
      }
    }
  };
  route_arcs_to<Item>(source, comm, round, "build.arcs", dest_of, arc_maker<Arcs>(), [&](std::span<const Item> arcs) {
        // One thread appends in arrival order: the streams' open lines stay in cache anyway.
        if (omp_get_max_threads() == 1) append(arcs);
        else append_in_parallel(arcs);
      });

  sort_blocks_into_rows(out, block_begin, n_rows, BlockTags<Column>{to_bits, word_bits, side_of}, tag_bits,
                        scratch_limit);
  out.offsets[n_rows] = block_begin[n_blocks];
  return out;
}

// Kernel 1's placement otherwise. Pass 1 routes each arc's row to the rank that holds it, which
// counts its rows' arcs; pass 2 writes every arc at its row's cursor.
template <class Column, class Arcs = PlainArcs<Column>, class DestOf, class RowBase>
Rows<Column> place_by_row(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, local_t n_rows,
                          DestOf&& dest_of, RowBase&& row_base) {
  Rows<Column> out{big_vector<edge_count_t>(n_rows + 1, 0), {}};
  big_vector<edge_count_t>& offsets = out.offsets;
  const vertex_t first_row = row_base(comm.rank());
  const auto row_index = [first_row](vertex_t row) { return static_cast<local_t>(row - first_row); };

  // Pass 1: arcs per row.
  using Row = RowOf<decltype(Arcs::Item::row)>;
  {
    RowBlocks<Row, decltype(row_index)> rows_seen(row_index, n_rows);
    route_arcs_to<Row>(
        source, comm, round, "build.degree_rows", dest_of,
        [](vertex_t row, vertex_t) { return Row{static_cast<decltype(Row::row)>(row)}; },
        [&](std::span<const Row> arcs) {
          const auto count = [&](std::span<const Row> some) {
            for (const Row& a : some) ++offsets[row_index(static_cast<vertex_t>(a.row)) + 1];
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
  using Item = typename Arcs::Item;
  RowBlocks<Item, decltype(row_index)> arcs_by_block(row_index, n_rows);
  route_arcs_to<Item>(source, comm, round, "build.arcs", dest_of, arc_maker<Arcs>(), [&](std::span<const Item> arcs) {
    arcs_by_block.for_each_block(arcs, [&](std::span<const Item> block) {
      for (const Item& a : block) columns[cursor[row_index(static_cast<vertex_t>(a.row))]++] = Arcs::word(a);
    });
  });
  for (local_t i = n_rows; i > 0; --i) offsets[i] = offsets[i - 1];
  offsets[0] = 0;
  return out;
}

// Every arc (row, to) of the source in its row at rank dest_of(row, to), rows unsorted,
// duplicates still in; `to` < to_bound. Rank r holds the rows row_base(r), ..., of which this
// rank's n_rows. Collective.
// By block when tags fit: in the column word alone or, when the word has no room for kMinTagBits,
// with a side byte an arc if every node has room for those beside the rows it will hold (the
// memory estimate counts placement without them); else by row. Side bytes where the word had room
// made construction slower (docs/tuning.md).
// Arcs: what an arc carries (PlainArcs, or a policy of the same shape).
template <class Column, class Arcs = PlainArcs<Column>, class DestOf, class RowBase>
Rows<Column> place_arcs(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, local_t n_rows,
                        vertex_t to_bound, DestOf&& dest_of, RowBase&& row_base, const BlockCounts& counted = {}) {
  const int to_bits = Arcs::word_bits(to_bound);
  const int word_room = static_cast<int>(8 * sizeof(Column)) - to_bits;
  int tag_bits = std::min(kMaxTagBits, word_room);
  if (tag_bits < kMinTagBits && word_room > 0) {
    // Arcs are spread about evenly over the ranks; a tenth more for the unevenness and the rounds.
    const double arcs = 2.0 * static_cast<double>(source.global_tuples()) / comm.size();
    const double placing = 1.1 * (arcs * (sizeof(Column) + 1) + 8.0 * (n_rows + 1));
    if (mpi::node_memory_fits(comm, static_cast<std::int64_t>(placing))) {
      tag_bits = std::min(kSideTagBits, word_room + 8);
    }
  }
  if (tag_bits >= kMinTagBits) {
    const std::vector<std::int64_t> block_base = block_bases(comm, n_rows, tag_bits);
    if (block_base.back() <= kMaxCountedBlocks) {
      return place_by_block<Column, Arcs>(source, comm, round, n_rows, to_bits, tag_bits, dest_of, row_base,
                                          block_base, counted);
    }
  }
  return place_by_row<Column, Arcs>(source, comm, round, n_rows, dest_of, row_base);
}

}  // namespace g500::rows
