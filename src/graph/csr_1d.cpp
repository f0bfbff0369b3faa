#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <type_traits>

#include "graph/degree_code.hpp"
#include "graph/row_builder.hpp"

namespace g500 {
namespace {

// Each row sorted by its neighbours' arc counts (highest first, ties by id), duplicates dropped,
// in one sort. Every rank first gathers the one-byte code of every vertex's count.
template <class Column>
void sort_rows_by_neighbour_degree(Csr1D<Column>& csr, const mpi::Comm& comm) {
  const Partition1D& part = csr.part;
  const local_t n_local = part.local_count();
  std::vector<std::uint8_t> mine(n_local), code(part.num_vertices());
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < n_local; ++i) mine[i] = degree_code(csr.degree(i));
  comm.allgatherv<std::uint8_t>(mine, code.data(), part.vertex_counts(), part.vertex_displs());
  // The code above the id in one word (the narrowest that holds both), or a pair past 56-bit ids.
  const int id_bits = rows::id_bits(part.num_vertices());
  auto by_word = [&]<class Word>(Word) {
    rows::sort_rows_by_key<Column, Word>(
        csr.offsets, csr.columns,
        [&](Column v) { return static_cast<Word>((Word{255u - code[v]} << id_bits) | v); },
        [id_bits](Word key) { return static_cast<Column>(key & ((Word{1} << id_bits) - 1)); },
        [&](Column v) { __builtin_prefetch(&code[v]); });
  };
  if (id_bits + 8 <= 32) {
    by_word(std::uint32_t{});
  } else if (id_bits <= 56) {
    by_word(std::uint64_t{});
  } else {
    using Pair = std::pair<std::uint8_t, Column>;
    rows::sort_rows_by_key<Column, Pair>(
        csr.offsets, csr.columns, [&](Column v) { return Pair(255 - code[v], v); },
        [](const Pair& key) { return key.second; });
  }
}

}  // namespace

template <class Column>
Csr1D<Column> build_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                           RowOrder order, std::int64_t round) {
  rows::Rows<Column> placed = rows::place_arcs<Column>(
      source, comm, round, part.local_count(), [&](vertex_t row, vertex_t) { return part.owner(row); },
      [&](vertex_t row) { return part.to_local(row); });
  Csr1D<Column> csr{part, std::move(placed.offsets), std::move(placed.columns)};
  if (order == RowOrder::by_neighbour_degree) sort_rows_by_neighbour_degree(csr, comm);
  else rows::sort_rows_by_id(csr.offsets, csr.columns);
  return csr;
}

template Csr1D<std::uint32_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder,
                                           std::int64_t);
template Csr1D<vertex_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder, std::int64_t);

}  // namespace g500
