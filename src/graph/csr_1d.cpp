#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <type_traits>

#include "exchange/owner_query.hpp"
#include "graph/degree_code.hpp"
#include "graph/row_builder.hpp"
#include "graph/row_sort.hpp"

namespace g500 {
namespace {

// What a row sort needs of a neighbour, in one random read: its arc-count code and, when the
// block is renumbered, the move from its old place to its new one.
struct [[gnu::packed]] NeighbourKey {
  std::uint8_t code;
  std::int16_t delta;
};
static_assert(sizeof(NeighbourKey) == 3);
// The record's parts; without renumbering the record is the code alone, and ids stay as they are.
std::uint8_t code_of(const NeighbourKey& key) { return key.code; }
std::uint8_t code_of(std::uint8_t code) { return code; }
template <class Column>
Column new_id_of(Column v, const NeighbourKey& key) { return static_cast<Column>(v + key.delta); }
template <class Column>
Column new_id_of(Column v, std::uint8_t) { return v; }

// By entry: each entry's neighbour record from its owner (`mine`: the owner's records of its
// block, by old local index), in bounded rounds; returns the codes, one an entry, and makes the
// entries new ids in place (each round's questions are read before that round rewrites them).
template <class Column, class Entry>
big_vector<std::uint8_t> ask_neighbour_codes(Csr1D<Column>& csr, const mpi::Comm& comm, const std::vector<Entry>& mine) {
  const Partition1D& part = csr.part;
  big_vector<std::uint8_t> codes(static_cast<std::size_t>(csr.local_entries()));
  exchange::OwnerQuery<Column, Entry, Partition1D> query(comm, part);
  query.ask_in_rounds(
      std::span<const Column>(csr.columns.data(), codes.size()), kNeighbourKeyRound,
      [](Column v) { return static_cast<vertex_t>(v); }, [&](Column v) { return mine[part.to_local(v)]; },
      [&](std::int64_t first, std::span<const Entry> records) {
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(records.size()); ++i) {
          codes[first + i] = code_of(records[i]);
          csr.columns[first + i] = new_id_of(csr.columns[first + i], records[i]);
        }
      });
  return codes;
}

// Each row sorted by its neighbours' arc counts (highest first, ties by id), duplicates dropped,
// in one sort. The sort reads, for each entry, its neighbour's code of its count (one byte) and,
// with `order` (rows already moved to it; entries are old ids and come out as new ones), its
// delta: the two side by side, so each entry costs one cache miss, not two. Where a rank's entries
// outnumber the vertices, every rank gathers the record of every vertex; past that (a few dozen
// ranks at edgefactor 16), each entry's record is asked of its owner in bounded rounds and kept
// by entry, so no table of all N vertices is built (neighbour_keys_by_entry).
template <class Column>
void sort_rows_by_neighbour_degree(Csr1D<Column>& csr, const mpi::Comm& comm, const WindowOrder* order,
                                   NeighbourKeys keys) {
  const Partition1D& part = csr.part;
  const local_t n_local = part.local_count();
  const int id_bits = rows::id_bits(part.num_vertices());
  const bool by_entry =
      keys == NeighbourKeys::automatic
          ? neighbour_keys_by_entry(
                static_cast<double>(part.num_vertices()),
                static_cast<double>(comm.allreduce<edge_count_t>(csr.local_entries(), mpi::Op::sum)) / comm.size())
          : keys == NeighbourKeys::by_entry;
  auto sort_by = [&]<class Entry>(Entry) {
    std::vector<Entry> mine(n_local);
    // Row i is old vertex order->old_of(i).
#pragma omp parallel for schedule(static)
    for (local_t i = 0; i < n_local; ++i) {
      const std::uint8_t code = degree_code(csr.degree(i));
      if constexpr (std::is_same_v<Entry, NeighbourKey>) {
        const local_t old = order->old_of(i);
        mine[old] = NeighbourKey{code, order->to_new[old]};
      } else {
        mine[i] = code;
      }
    }
    // The code above the id in one word (the narrowest that holds both), or a pair past 56-bit ids;
    // code_at(k) and id_at(k): entry k's neighbour's code and new id.
    auto sort_with = [&](auto&& code_at, auto&& id_at, auto&& prefetch_at) {
      auto by_word = [&]<class Word>(Word) {
        rows::sort_rows_by_entry_key<Column, Word>(
            csr.offsets, csr.columns,
            [&](edge_count_t k) { return static_cast<Word>((Word{255u - code_at(k)} << id_bits) | id_at(k)); },
            [id_bits](Word key) { return static_cast<Column>(key & ((Word{1} << id_bits) - 1)); }, prefetch_at);
      };
      if (id_bits + 8 <= 32) {
        by_word(std::uint32_t{});
      } else if (id_bits <= 56) {
        by_word(std::uint64_t{});
      } else {
        using Pair = std::pair<std::uint8_t, Column>;
        rows::sort_rows_by_entry_key<Column, Pair>(
            csr.offsets, csr.columns, [&](edge_count_t k) { return Pair(255 - code_at(k), id_at(k)); },
            [](const Pair& key) { return key.second; }, prefetch_at);
      }
    };
    const Column* columns = csr.columns.data();
    if (!by_entry) {
      big_vector<Entry> all(part.num_vertices());
      comm.allgatherv<Entry>(mine, all.data(), part.vertex_counts(), part.vertex_displs());
      sort_with([&](edge_count_t k) { return code_of(all[columns[k]]); },
                [&](edge_count_t k) { return new_id_of(columns[k], all[columns[k]]); },
                [&](edge_count_t k) { __builtin_prefetch(&all[columns[k]]); });
      return;
    }
    const big_vector<std::uint8_t> codes = ask_neighbour_codes<Column, Entry>(csr, comm, mine);
    sort_with([&](edge_count_t k) { return codes[k]; }, [&](edge_count_t k) { return columns[k]; },
              [](edge_count_t) {});
  };
  if (order) sort_by(NeighbourKey{});
  else sort_by(std::uint8_t{});
}

}  // namespace

rows::BlockCounts block_counts_from(ArcSketch& sketch, const Partition1D& part) {
  return [&sketch, &part](int tag_bits, const std::vector<std::int64_t>& block_base,
                          std::vector<std::int64_t>& block_arcs) {
    if (!sketch.usable() || tag_bits < 6) return false;
    const int word_shift = tag_bits - 6;
    for (int d = 0; d < part.num_ranks(); ++d) {
      const std::int64_t words_end = part.first_word(d + 1);
#pragma omp parallel for schedule(static)
      for (std::int64_t b = 0; b < block_base[d + 1] - block_base[d]; ++b) {
        const std::int64_t first = part.first_word(d) + (b << word_shift);
        block_arcs[block_base[d] + b] =
            first < words_end ? sketch.arcs_in_words(first, std::min(words_end, first + (std::int64_t{1} << word_shift)))
                              : 0;
      }
    }
    sketch.release();
    return true;
  };
}

template <class Column>
Csr1D<Column> build_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                           RowOrder order, std::int64_t round, WindowOrder* renumber, ArcSketch* sketch,
                           NeighbourKeys keys) {
  if (renumber && order != RowOrder::by_neighbour_degree) {
    throw std::logic_error("build_csr_1d: renumbering needs rows by neighbour degree");
  }
  rows::Rows<Column> placed = rows::place_arcs<Column>(
      source, comm, round, part.local_count(), part.num_vertices(), [&](vertex_t row, vertex_t) { return part.owner(row); },
      [&](int rank) { return part.begin_of(rank); }, sketch ? block_counts_from(*sketch, part) : rows::BlockCounts{});
  Csr1D<Column> csr{part, std::move(placed.offsets), std::move(placed.columns)};
  if (renumber) {
    // By arc count (duplicates still in): the same order for any rank or thread count.
    *renumber = window_order_by_length(csr.offsets);
    permute_rows(*renumber, csr.offsets, csr.columns);
  }
  if (order == RowOrder::by_neighbour_degree) sort_rows_by_neighbour_degree(csr, comm, renumber, keys);
  else rows::sort_rows_by_id(csr.offsets, csr.columns);
  return csr;
}

template Csr1D<std::uint32_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder,
                                           std::int64_t, WindowOrder*, ArcSketch*, NeighbourKeys);
template Csr1D<vertex_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder, std::int64_t,
                                      WindowOrder*, ArcSketch*, NeighbourKeys);

}  // namespace g500
