#include "graph/csr_2d.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "core/key_sort.hpp"
#include "exchange/owner_query.hpp"
#include "graph/arc_routing.hpp"
#include "graph/row_builder.hpp"
#include "graph/row_sort.hpp"

namespace g500 {
namespace {

// The rows with entries kernel 1 found: a bit a row of the column range, or (listed) their list
// by block of the column range.
struct FilledSet {
  bool listed = false;
  Bitmap bits;
  RowList list;
};

// Each vertex's degree, summed over the processor column: every rank of the column holds the row
// lengths of all of V_j (its own entries), and rank i of the column gets the sums for its block.
template <class Column>
big_vector<Column> block_degrees(const big_vector<edge_count_t>& offsets, const Partition2D& grid,
                                 const mpi::Comm& col_comm) {
  const Partition1D& part = grid.part();
  const local_t rows = static_cast<local_t>(offsets.size()) - 1;
  std::vector<Column> lengths(rows);  // a degree is below N, so it fits a stored id
#pragma omp parallel for schedule(static)
  for (local_t u = 0; u < rows; ++u) lengths[u] = static_cast<Column>(offsets[u + 1] - offsets[u]);
  mpi::Counts counts(grid.grid().rows);
  for (int i = 0; i < grid.grid().rows; ++i) counts[i] = part.count_of(grid.col() * grid.grid().rows + i);
  big_vector<Column> degree(part.local_count());
  col_comm.reduce_scatter<Column>(lengths, degree, counts, mpi::Op::sum);
  return degree;
}

// Set bits of `bits` in [begin, end).
inline std::int64_t count_set(const Bitmap& bits, vertex_t begin, vertex_t end) {
  std::int64_t count = 0;
  vertex_t u = begin;
  for (; u < end && u % kWordBits != 0; ++u) count += bits.test(u);
  for (; u + kWordBits <= end; u += kWordBits) count += __builtin_popcountll(bits.word(u / kWordBits));
  for (; u < end; ++u) count += bits.test(u);
  return count;
}

// The same sums from rows with entries only (the pairs placement): each such row's length goes to
// its vertex's owner in the processor column, in rounds of `round` lengths a rank. Rows rise,
// so each owner's come as one run; rank i of the column takes the owners from i on, cyclically, so
// that in a round the column's ranks send to different owners and none receives much more than a
// round.
template <class Column, class Offset>
big_vector<Column> block_degrees_of_filled(const FilledSet& filled_set, const big_vector<Offset>& offsets,
                                           const Partition2D& grid, const mpi::Comm& col_comm, std::int64_t round) {
  const Bitmap& filled = filled_set.bits;
  const Partition1D& part = grid.part();
  const int rows = grid.grid().rows, first_block = grid.col() * rows;
  const vertex_t first_row = grid.col_begin(grid.col());
  // Each owner's rows [row_begin[j], row_begin[j + 1]) of the column range, and where its filled
  // rows start among all of them (the offsets' index): a cursor each, moved on as rounds take them.
  std::vector<vertex_t> next_row(rows + 1);
  std::vector<std::int64_t> next_place(rows + 1, 0), left(rows, 0);
  for (int j = 0; j <= rows; ++j)
    next_row[j] = j < rows ? part.begin_of(first_block + j) - first_row : grid.col_count(grid.col());
  for (int j = 0; j < rows; ++j) {  // listed: the owners are the list's parts
    left[j] = filled_set.listed ? filled_set.list.part_first[j + 1] - filled_set.list.part_first[j]
                                : count_set(filled, next_row[j], next_row[j + 1]);
    next_place[j + 1] = next_place[j] + left[j];
  }
  struct Length {
    Column vertex, length;  // the vertex's index in its block
  };
  const std::int64_t total = next_place[rows];
  const std::int64_t rounds = col_comm.allreduce<std::int64_t>((total + round - 1) / round, mpi::Op::max);
  big_vector<Column> degree(part.local_count(), 0);
  std::vector<Length> send;
  std::vector<Length> received;
  mpi::Counts counts(rows, 0);
  for (std::int64_t r = 0; r < rounds; ++r) {
    send.clear();
    std::int64_t room = round;
    std::fill(counts.begin(), counts.end(), 0);
    // The owners taken from, from this rank's own on, then in the exchange's order (by rank).
    std::vector<std::pair<int, std::int64_t>> take;
    for (int t = 0; t < rows && room > 0; ++t) {
      const int j = (col_comm.rank() + t) % rows;
      const std::int64_t n = std::min(room, left[j]);
      if (n > 0) take.emplace_back(j, n);
      room -= n;
    }
    std::sort(take.begin(), take.end());
    for (const auto& [j, n] : take) {
      const vertex_t block_first = part.begin_of(first_block + j) - first_row;
      std::int64_t k = next_place[j];
      vertex_t u = next_row[j];
      if (filled_set.listed) {  // the list holds each row's index in its block
        for (const std::int64_t end = k + n; k < end; ++k)
          send.push_back({static_cast<Column>(filled_set.list.list[static_cast<std::size_t>(k)]),
                          static_cast<Column>(offsets[k + 1] - offsets[k])});
      }
      for (std::int64_t i = filled_set.listed ? n : 0; i < n; ++u) {
        if ((u & (kWordBits - 1)) == 0 && filled.word(u / kWordBits) == 0) {  // skip empty words whole
          u += kWordBits - 1;
          continue;
        }
        if (!filled.test(u)) continue;
        send.push_back({static_cast<Column>(u - block_first), static_cast<Column>(offsets[k + 1] - offsets[k])});
        ++k;
        ++i;
      }
      next_row[j] = u;
      next_place[j] = k;
      left[j] -= n;
      counts[j] = n;
    }
    col_comm.alltoallv_into<Length>(send, counts, received);
    for (const Length& l : received) degree[l.vertex] += l.length;
  }
  return degree;
}

// The block's vertices by decreasing degree, ties by index.
template <class Column, class Position>
void sort_block(Csr2D<Column, Position>& csr) {
  const local_t n = static_cast<local_t>(csr.degree.size());
  csr.sorted_to_local.resize(n);
  std::iota(csr.sorted_to_local.begin(), csr.sorted_to_local.end(), Column{0});
  std::stable_sort(csr.sorted_to_local.begin(), csr.sorted_to_local.end(),
                   [&](Column a, Column b) { return csr.degree[a] > csr.degree[b]; });
  csr.local_to_sorted.resize(n);
  for (local_t s = 0; s < n; ++s) csr.local_to_sorted[csr.sorted_to_local[s]] = static_cast<Column>(s);
}

// A sort key too wide for one word: a row and a target.
template <class Column>
struct RowTarget {
  Column row, to;
  friend bool operator<(const RowTarget& a, const RowTarget& b) { return a.row != b.row ? a.row < b.row : a.to < b.to; }
  friend bool operator==(const RowTarget&, const RowTarget&) = default;
};

// A sort key of a row and a target past 64 bits but within 96 (a row of a column range and a
// row-range position past 2^32 each: SCALE 43 on 152,064 nodes takes 68): 12 bytes, 4 an arc fewer
// than a pair of ids. The key is the row above the target, as one 96-bit number.
struct [[gnu::packed]] Key96 {
  std::uint64_t low;
  std::uint32_t high;
  static Key96 of(std::uint64_t row, std::uint64_t to, int to_bits) {
    const unsigned __int128 v = (static_cast<unsigned __int128>(row) << to_bits) | to;
    return {static_cast<std::uint64_t>(v), static_cast<std::uint32_t>(v >> 64)};
  }
  unsigned __int128 value() const { return (static_cast<unsigned __int128>(high) << 64) | low; }
  friend bool operator<(const Key96& a, const Key96& b) { return a.value() < b.value(); }
  friend bool operator==(const Key96& a, const Key96& b) { return a.value() == b.value(); }
};
static_assert(sizeof(Key96) == 12);

// The first `unique` keys of `store` (sorted, distinct) as rows with entries: which ones (returned:
// bits, or listed by the parts that begin at `part_starts`), their offsets (+ 1), and the columns,
// written over the keys in `store`, which becomes `columns`.
template <class Position, class Key, class Offset>
FilledSet rows_from_keys(big_vector<Position>& store, std::int64_t unique, int to_bits, local_t n_rows,
                         const std::vector<local_t>* part_starts, big_vector<Offset>& offsets,
                         big_vector<Position>& columns) {
  const Key* const keys = reinterpret_cast<const Key*>(store.data());
  const auto row_of = [&](const Key& key) {
    if constexpr (std::is_same_v<Key, std::uint64_t>) return static_cast<local_t>(key >> to_bits);
    else if constexpr (std::is_same_v<Key, Key96>)
      return static_cast<local_t>(key.value() >> to_bits);
    else return static_cast<local_t>(key.row);
  };
  const auto to_of = [&](const Key& key) {
    if constexpr (std::is_same_v<Key, std::uint64_t>)
      return static_cast<Position>(key & ((Key{1} << to_bits) - 1));
    else if constexpr (std::is_same_v<Key, Key96>)
      return static_cast<Position>(key.low & ((std::uint64_t{1} << to_bits) - 1));  // to_bits < 64 here
    else
      return static_cast<Position>(key.to);
  };
  std::int64_t rows_with_entries = 0;
  for (std::int64_t k = 0; k < unique; ++k) {
    if (k == 0 || row_of(keys[k]) != row_of(keys[k - 1])) ++rows_with_entries;
  }
  FilledSet filled;
  filled.listed = part_starts != nullptr;
  if (filled.listed)
    filled.list = RowList(*part_starts, n_rows, rows_with_entries);
  else
    filled.bits = Bitmap(n_rows);
  offsets = big_vector<Offset>(static_cast<std::size_t>(rows_with_entries) + 1);
  // Keys in, columns out over them, byte copies both ways (one buffer seen as two types).
  char* const bytes = reinterpret_cast<char*>(store.data());
  std::int64_t row = 0;
  local_t previous = -1;
  for (std::int64_t k = 0; k < unique; ++k) {
    Key key;
    std::memcpy(&key, bytes + k * sizeof(Key), sizeof(Key));
    if (const local_t r = row_of(key); r != previous) {
      if (filled.listed)
        filled.list.add(r);
      else
        filled.bits.set(r);
      offsets[row++] = static_cast<Offset>(k);
      previous = r;
    }
    const Position column = to_of(key);
    std::memcpy(bytes + k * sizeof(Position), &column, sizeof(Position));
  }
  store.resize(static_cast<std::size_t>(unique));
  release_spare_capacity(store);
  columns = std::move(store);
  offsets[rows_with_entries] = static_cast<Offset>(unique);
  if (filled.listed) filled.list.finish();
  return filled;
}

// The sorted, distinct keys place_by_keys leaves, in the store that becomes the columns.
template <class Position>
struct SortedKeys {
  big_vector<Position> store;
  std::int64_t unique = 0;
  int to_bits = 1;
};

// Kernel 1 by sort keys, for a rank whose column range has more rows than it has arcs (past a few
// hundred ranks): no table of the column range's rows but a bit a row. Two passes, as the dense
// placement has: the arcs each rank will hold are counted where the tuples are made; then every
// arc arrives as one key, its row above its target, and the keys are sorted and their copies
// dropped (rows_from_keys then makes rows with entries only, with offsets as narrow as they fit).
// A key travels (Sent) with its target's global id, and is kept (Kept) with the target's
// row-range position instead, which needs fewer bits: one word where the ids would take two.
template <class Column, class Position, class Sent, class Kept>
SortedKeys<Position> place_by_keys(const EdgeSource& source, const Partition2D& grid, const mpi::Comm& comm,
                                   std::int64_t round) {
  const Partition1D& part = grid.part();
  const auto dest_of = [&](vertex_t u, vertex_t v) { return grid.storing_rank(u, v); };
  // Pass 1: arcs to each rank, by thread, summed; each rank learns its own total.
  const int ranks = comm.size();
  std::vector<std::vector<std::int64_t>> to_rank(omp_get_max_threads());
  scan_in_pieces(
      source, comm, round,
      [&](int t, std::span<const Edge> edges) {
        std::vector<std::int64_t>& mine = to_rank[t];
        if (mine.empty()) mine.assign(ranks, 0);
        for (const Edge& e : edges) {
          if (e.u == e.v) continue;
          ++mine[dest_of(e.u, e.v)];
          ++mine[dest_of(e.v, e.u)];
        }
      },
      [] {});
  std::vector<std::int64_t> sent(ranks, 0);
  for (const auto& counts : to_rank)
    for (std::size_t r = 0; r < counts.size(); ++r) sent[r] += counts[r];
  std::int64_t arriving = 0;
  comm.reduce_scatter<std::int64_t>(sent, std::span<std::int64_t>(&arriving, 1), mpi::Counts(ranks, 1), mpi::Op::sum);

  // Pass 2: every arc as a key (row in its column range, target), then sorted.
  const int id_bits = rows::id_bits(part.num_vertices()), to_bits = rows::id_bits(grid.w_count());
  const auto sent_key = [&](vertex_t u, vertex_t v) {
    const vertex_t row = u - grid.col_begin(part.owner(u) / grid.grid().rows);
    if constexpr (std::is_same_v<Sent, std::uint64_t>)
      return (static_cast<Sent>(row) << id_bits) | static_cast<Sent>(v);
    else
      return Sent{static_cast<Column>(row), static_cast<Column>(v)};
  };
  // On arrival: the target's global id becomes its position in this rank's row range (unsorted:
  // ids rise with positions, block by block, so the rows' order is the same).
  const auto kept_key = [&](const Sent& key) {
    vertex_t row, v;
    if constexpr (std::is_same_v<Sent, std::uint64_t>) {
      row = static_cast<vertex_t>(key >> id_bits);
      v = static_cast<vertex_t>(key & ((Sent{1} << id_bits) - 1));
    } else {
      row = static_cast<vertex_t>(key.row);
      v = static_cast<vertex_t>(key.to);
    }
    const vertex_t w = grid.position_of(v);
    if constexpr (std::is_same_v<Kept, std::uint64_t>)
      return (static_cast<Kept>(row) << to_bits) | static_cast<Kept>(w);
    else if constexpr (std::is_same_v<Kept, Key96>)
      return Key96::of(static_cast<std::uint64_t>(row), static_cast<std::uint64_t>(w), to_bits);
    else
      return Kept{static_cast<Column>(row), static_cast<Column>(w)};
  };
  // The keys live in what becomes the columns (a column is no wider than a key, and the k-th
  // column lands on bytes of keys already read), so the rank never holds both.
  static_assert(sizeof(Kept) >= sizeof(Position));
  big_vector<Position> store((static_cast<std::size_t>(arriving) * sizeof(Kept) + sizeof(Position) - 1) /
                             sizeof(Position));
  Kept* const keys = reinterpret_cast<Kept*>(store.data());
  std::int64_t filled_to = 0;
  route_arcs_to<Sent>(source, comm, round, "build.arcs", dest_of, sent_key, [&](std::span<const Sent> arrived) {
    const std::int64_t n = static_cast<std::int64_t>(arrived.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) keys[filled_to + k] = kept_key(arrived[k]);
    filled_to += n;
  });
  // 64-bit keys take the vectorised sort; wider pairs (ids past 2^32 with large column ranges)
  // the library's.
  if constexpr (std::is_same_v<Kept, std::uint64_t>)
    sort_keys(std::span<Kept>(keys, static_cast<std::size_t>(arriving)));
  else std::sort(keys, keys + arriving);
  const std::int64_t unique = std::unique(keys, keys + arriving) - keys;
  return {std::move(store), unique, to_bits};
}

// Every entry (a row-range position in id order) becomes its sorted position, asked of its block's
// owner in the processor row, round by round: no table of the row's N/R vertices on any rank.
template <class Column, class Position>
void ask_sorted_positions(Csr2D<Column, Position>& csr, const Partition2D& grid, const mpi::Comm& row_comm) {
  const RowRangeBlocks blocks{grid};
  exchange::OwnerQuery<Position, Position, RowRangeBlocks> query(row_comm, blocks);
  // Each round's questions are its entries, read before that round rewrites them.
  query.ask_in_rounds(
      std::span<const Position>(csr.columns.data(), csr.columns.size()), kPositionRound,
      [](Position v) { return static_cast<vertex_t>(v); },
      [&](Position v) { return static_cast<Position>(csr.local_to_sorted[blocks.to_local(static_cast<vertex_t>(v))]); },
      [&](std::int64_t first, std::span<const Position> sorted) {
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(sorted.size()); ++i) {
          const int c = blocks.owner(static_cast<vertex_t>(csr.columns[first + i]));
          csr.columns[first + i] = static_cast<Position>(grid.w_begin(c) + sorted[i]);
        }
      });
}

// Dense rows' entries, global ids, as row-range positions (a block's offset plus the vertex's index
// in it): in place where the widths agree, else into narrower storage (both held a moment).
template <class Position, class Column>
big_vector<Position> positions_of_ids(big_vector<Column>&& ids, const Partition2D& grid) {
  const auto position = [&](Column id) { return static_cast<Position>(grid.position_of(static_cast<vertex_t>(id))); };
  const std::int64_t n = static_cast<std::int64_t>(ids.size());
  if constexpr (std::is_same_v<Position, Column>) {
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) ids[k] = position(ids[k]);
    return std::move(ids);
  } else {
    big_vector<Position> positions(ids.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) positions[k] = position(ids[k]);
    release_storage(ids);
    return positions;
  }
}

// Kernel 1's last steps, either placement: with sorted blocks, entries become sorted row-range
// positions (asked of the owners in the row for sparse rows, from the row's gathered maps for dense
// ones) and the rows are sorted again; the index is kept.
template <class Column, class Position, class Offset>
void finish_rows(Csr2D<Column, Position>& csr, big_vector<Offset>& offsets, FilledSet filled, const Partition2D& grid,
                 const mpi::Comm& row_comm, bool sort_vertices) {
  const Partition1D& part = grid.part();
  const bool dense = csr.placement == RowPlacement::dense;
  // Global ids rise with the column, and so with the row-range position, block by block, so rows
  // stay in order unless the blocks are sorted.
  if (sort_vertices) sort_block(csr);
  if (sort_vertices && dense) {
    // The sorted index of every row-range position's vertex, gathered in the row.
    mpi::Counts counts(grid.grid().cols), displs(grid.grid().cols);
    for (int c = 0; c < grid.grid().cols; ++c) {
      counts[c] = part.count_of(grid.block_in_row(c));
      displs[c] = grid.w_begin(c);
    }
    std::vector<Column> w_sorted(grid.w_count());
    row_comm.allgatherv<Column>({csr.local_to_sorted.data(), csr.local_to_sorted.size()}, w_sorted.data(), counts,
                                displs);
    const std::int64_t entries = static_cast<std::int64_t>(offsets.back());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < entries; ++k) {
      const vertex_t w = static_cast<vertex_t>(csr.columns[k]);
      csr.columns[k] = static_cast<Position>(grid.w_begin(grid.col_of_w(w)) + w_sorted[w]);
    }
  } else if (sort_vertices) {
    ask_sorted_positions(csr, grid, row_comm);
  }
  if (sort_vertices) rows::sort_rows_by_id(offsets, csr.columns);
  if constexpr (std::is_same_v<Offset, edge_count_t>) {
    if (dense) {
      csr.index = SparseRows<Column>(offsets);
      return;
    }
  }
  if (filled.listed)
    csr.index = SparseRows<Column>(grid.col_count(grid.col()), std::move(filled.list), std::move(offsets));
  else
    csr.index = SparseRows<Column>(grid.col_count(grid.col()), std::move(filled.bits), std::move(offsets));
}

// Sparse rows from place_by_keys's sorted keys, with offsets of type Offset.
// How place_by_keys kept its keys: one word, 12 bytes, or a pair of ids.
enum class KeptAs { word, twelve_bytes, pair };

template <class Column, class Position, class Offset>
void sparse_rows_from_keys(Csr2D<Column, Position>& csr, SortedKeys<Position>& keys, KeptAs kept,
                           const Partition2D& grid, const mpi::Comm& row_comm, const mpi::Comm& col_comm,
                           bool sort_vertices, std::int64_t round, bool listed) {
  const local_t n_rows = grid.col_count(grid.col());
  // Listed rows' parts: the column range's blocks.
  std::vector<local_t> starts;
  for (int k = 0; k < grid.grid().rows; ++k)
    starts.push_back(grid.part().begin_of(grid.col() * grid.grid().rows + k) - grid.col_begin(grid.col()));
  const std::vector<local_t>* const parts = listed ? &starts : nullptr;
  big_vector<Offset> offsets;
  FilledSet filled =
      kept == KeptAs::word ? rows_from_keys<Position, std::uint64_t, Offset>(keys.store, keys.unique, keys.to_bits,
                                                                             n_rows, parts, offsets, csr.columns)
      : kept == KeptAs::twelve_bytes ? rows_from_keys<Position, Key96, Offset>(keys.store, keys.unique, keys.to_bits,
                                                                               n_rows, parts, offsets, csr.columns)
                                     : rows_from_keys<Position, RowTarget<Column>, Offset>(
                                           keys.store, keys.unique, keys.to_bits, n_rows, parts, offsets, csr.columns);
  csr.degree = block_degrees_of_filled<Column>(filled, offsets, grid, col_comm, round);
  finish_rows(csr, offsets, std::move(filled), grid, row_comm, sort_vertices);
}

}  // namespace

template <class Column, class Position>
Csr2D<Column, Position> build_csr_2d(const EdgeSource& source, const Partition2D& grid, const mpi::Comm& comm,
                                     const mpi::Comm& row_comm, const mpi::Comm& col_comm, bool sort_vertices,
                                     std::int64_t round, RowPlacement placement, SortKeys key_width,
                                     FilledRows filled) {
  const Partition1D& part = grid.part();
  const local_t n_rows = grid.col_count(grid.col());
  Csr2D<Column, Position> csr;
  csr.placement = resolve_row_placement(placement, static_cast<double>(part.num_vertices()),
                                        static_cast<double>(source.global_tuples()), grid.grid());
  if (csr.placement == RowPlacement::dense) {
    // 64-bit offsets of every row while kernel 1 moves rows; the index narrows them after.
    rows::Rows<Column> placed = rows::place_arcs<Column>(
        source, comm, round, n_rows, part.num_vertices(),
        [&](vertex_t u, vertex_t v) { return grid.storing_rank(u, v); },
        [&](int rank) { return grid.col_begin(rank / grid.grid().rows); });
    rows::sort_rows_by_id(placed.offsets, placed.columns);
    csr.columns = positions_of_ids<Position>(std::move(placed.columns), grid);
    csr.degree = block_degrees<Column>(placed.offsets, grid, col_comm);
    finish_rows(csr, placed.offsets, FilledSet{}, grid, row_comm, sort_vertices);
    return csr;
  }
  // Keys travel as one word where a row and an id fit one, and are kept as one where a row and a
  // position do. The row's bits are the widest column range's, so every rank sends alike.
  vertex_t widest = 0;
  for (int c = 0; c < grid.grid().cols; ++c) widest = std::max(widest, grid.col_count(c));
  const int row_bits = rows::id_bits(widest);
  const int kept_bits = rows::id_bits(grid.w_count()) + row_bits;
  const bool sent_one_word = key_width == SortKeys::narrowest && rows::id_bits(part.num_vertices()) + row_bits <= 64;
  const KeptAs kept = key_width != SortKeys::pairs && key_width != SortKeys::twelve_bytes && kept_bits <= 64
                          ? KeptAs::word
                      : key_width != SortKeys::pairs && kept_bits <= 96 ? KeptAs::twelve_bytes
                                                                        : KeptAs::pair;
  SortedKeys<Position> keys =
      sent_one_word ? place_by_keys<Column, Position, std::uint64_t, std::uint64_t>(source, grid, comm, round)
      : kept == KeptAs::word
          ? place_by_keys<Column, Position, RowTarget<Column>, std::uint64_t>(source, grid, comm, round)
      : kept == KeptAs::twelve_bytes
          ? place_by_keys<Column, Position, RowTarget<Column>, Key96>(source, grid, comm, round)
          : place_by_keys<Column, Position, RowTarget<Column>, RowTarget<Column>>(source, grid, comm, round);
  const bool listed = lists_filled_rows(filled, csr.placement, static_cast<double>(part.num_vertices()),
                                        static_cast<double>(source.global_tuples()), grid.grid());
  // The offsets of the rows with entries in 32 bits while the rank's entries fit them.
  if (keys.unique <= static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max())) {
    sparse_rows_from_keys<Column, Position, std::uint32_t>(csr, keys, kept, grid, row_comm, col_comm, sort_vertices,
                                                           round, listed);
  } else {
    sparse_rows_from_keys<Column, Position, edge_count_t>(csr, keys, kept, grid, row_comm, col_comm, sort_vertices,
                                                          round, listed);
  }
  return csr;
}

#define G500_BUILD_CSR_2D(Column, Position)                                                                           \
  template Csr2D<Column, Position> build_csr_2d(const EdgeSource&, const Partition2D&, const mpi::Comm&,              \
                                                const mpi::Comm&, const mpi::Comm&, bool, std::int64_t, RowPlacement, \
                                                SortKeys, FilledRows);
G500_2D_WIDTHS(G500_BUILD_CSR_2D)
#undef G500_BUILD_CSR_2D

}  // namespace g500
