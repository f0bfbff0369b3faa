#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <type_traits>

#include "graph/degree_code.hpp"
#include "graph/row_builder.hpp"

namespace g500 {
namespace {

// Each row sorted by its neighbours' arc counts (highest first, ties by id), duplicates dropped,
// in one sort. Every rank first gathers the one-byte code of every vertex's count. With `order`
// (rows already moved to it), entries are old ids and come out as new ones: every vertex's delta
// is gathered too, and the key carries the new id.
template <class Column>
void sort_rows_by_neighbour_degree(Csr1D<Column>& csr, const mpi::Comm& comm, const WindowOrder* order) {
  const Partition1D& part = csr.part;
  const local_t n_local = part.local_count();
  std::vector<std::uint8_t> mine(n_local), code(part.num_vertices());
  // Codes by old id: row i is old vertex order->old_of(i).
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < n_local; ++i) mine[order ? order->old_of(i) : i] = degree_code(csr.degree(i));
  comm.allgatherv<std::uint8_t>(mine, code.data(), part.vertex_counts(), part.vertex_displs());
  big_vector<std::int16_t> to_new;  // every vertex's delta, by old global id
  if (order) {
    to_new.resize(part.num_vertices());
    comm.allgatherv<std::int16_t>(std::span<const std::int16_t>(order->to_new.data(), order->to_new.size()),
                                  to_new.data(), part.vertex_counts(), part.vertex_displs());
  }
  const auto new_id = [&](Column v) { return order ? static_cast<Column>(v + to_new[v]) : v; };
  const auto prefetch = [&](Column v) {
    __builtin_prefetch(&code[v]);
    if (order) __builtin_prefetch(&to_new[v]);
  };
  // The code above the id in one word (the narrowest that holds both), or a pair past 56-bit ids.
  const int id_bits = rows::id_bits(part.num_vertices());
  auto by_word = [&]<class Word>(Word) {
    rows::sort_rows_by_key<Column, Word>(
        csr.offsets, csr.columns,
        [&](Column v) { return static_cast<Word>((Word{255u - code[v]} << id_bits) | new_id(v)); },
        [id_bits](Word key) { return static_cast<Column>(key & ((Word{1} << id_bits) - 1)); }, prefetch);
  };
  if (id_bits + 8 <= 32) {
    by_word(std::uint32_t{});
  } else if (id_bits <= 56) {
    by_word(std::uint64_t{});
  } else {
    using Pair = std::pair<std::uint8_t, Column>;
    rows::sort_rows_by_key<Column, Pair>(
        csr.offsets, csr.columns, [&](Column v) { return Pair(255 - code[v], new_id(v)); },
        [](const Pair& key) { return key.second; });
  }
}

}  // namespace

template <class Column>
Csr1D<Column> build_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                           RowOrder order, std::int64_t round, WindowOrder* renumber) {
  if (renumber && order != RowOrder::by_neighbour_degree) {
    throw std::logic_error("build_csr_1d: renumbering needs rows by neighbour degree");
  }
  rows::Rows<Column> placed = rows::place_arcs<Column>(
      source, comm, round, part.local_count(), part.num_vertices(), [&](vertex_t row, vertex_t) { return part.owner(row); },
      [&](int rank) { return part.begin_of(rank); });
  Csr1D<Column> csr{part, std::move(placed.offsets), std::move(placed.columns)};
  if (renumber) {
    // By arc count (duplicates still in): the same order for any rank or thread count.
    *renumber = window_order_by_length(csr.offsets);
    permute_rows(*renumber, csr.offsets, csr.columns);
  }
  if (order == RowOrder::by_neighbour_degree) sort_rows_by_neighbour_degree(csr, comm, renumber);
  else rows::sort_rows_by_id(csr.offsets, csr.columns);
  return csr;
}

template Csr1D<std::uint32_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder,
                                           std::int64_t, WindowOrder*);
template Csr1D<vertex_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder, std::int64_t,
                                      WindowOrder*);

}  // namespace g500
