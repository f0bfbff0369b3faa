#include "graph/weighted_csr.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/key_sort.hpp"
#include "graph/arc_routing.hpp"
#include "graph/row_builder.hpp"
#include "graph/row_sort.hpp"

namespace g500 {
namespace {

// Kernel 3's arcs as kernel 1's machinery places them: with 32-bit ids, the row's word is the
// neighbour above the weight's bits (so a row sorted by word has each neighbour's lightest copy
// first), made where the tuple is.
struct WeightedArcs32 {
  struct Item {
    std::uint32_t row, to;
    float weight;
  };
  static Item make(vertex_t row, vertex_t to, float weight) {
    return {static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(to), weight};
  }
  static std::uint64_t word(const Item& a) {
    return (std::uint64_t{a.to} << 32) | std::bit_cast<std::uint32_t>(a.weight);
  }
  static int word_bits(vertex_t n) { return rows::id_bits(n) + 32; }
};

// Wider ids: their rows are placed as (to, weight) pairs by row.
struct WeightedArcsWide {
  struct Item {
    vertex_t row;
    WideWeightedEntry entry;
  };
  static Item make(vertex_t row, vertex_t to, float weight) { return {row, {to, weight}}; }
  static WideWeightedEntry word(const Item& a) { return a.entry; }
};

// Each row (words: neighbour above weight) keeps its neighbours' lightest copies, as
// weight-above-neighbour words sorted ascending; returns the entries kept.
edge_count_t lightest_by_weight(std::span<std::uint64_t> row) {
  sort_keys(row);
  std::size_t len = 0;
  std::uint64_t previous = ~std::uint64_t{0};  // no neighbour's
  for (std::size_t k = 0; k < row.size(); ++k) {  // without a branch: copies are common, and at random
    const std::uint64_t w = row[k], to = w >> 32;
    row[len] = (w << 32) | to;
    len += to != previous;
    previous = to;
  }
  sort_keys(row.first(len));
  return static_cast<edge_count_t>(len);
}

}  // namespace

template <class Column>
edge_count_t WeightedCsr1D<Column>::light_end(local_t i, float delta) const {
  if constexpr (sizeof(Column) == 4) {
    const std::uint64_t* first = entries.data() + offsets[i];
    const std::uint64_t* last = entries.data() + offsets[i + 1];
    return offsets[i] + (std::lower_bound(first, last, weighted_word(0, delta)) - first);
  } else {
    const WideWeightedEntry* first = entries.data() + offsets[i];
    const WideWeightedEntry* last = entries.data() + offsets[i + 1];
    return offsets[i] + (std::partition_point(first, last, [delta](const WideWeightedEntry& e) { return e.weight < delta; }) - first);
  }
}

template <class Column>
WeightedCsr1D<Column> build_weighted_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                            std::int64_t round) {
  const auto owner = [&](vertex_t row, vertex_t) { return part.owner(row); };
  const auto first_row = [&](int rank) { return part.begin_of(rank); };
  const local_t n_local = part.local_count();
  std::vector<edge_count_t> kept(n_local);
  if constexpr (sizeof(Column) == 4) {
    rows::Rows<std::uint64_t> placed = rows::place_arcs<std::uint64_t, WeightedArcs32>(
        source, comm, round, n_local, part.num_vertices(), owner, first_row);
    WeightedCsr1D<Column> csr{part, std::move(placed.offsets), std::move(placed.columns)};
#pragma omp parallel for schedule(dynamic, 256)
    for (local_t i = 0; i < n_local; ++i) {
      kept[i] = lightest_by_weight(std::span(csr.entries.data() + csr.offsets[i], csr.degree(i)));
    }
    rows::close_up_rows(csr.offsets, csr.entries, kept);
    return csr;
  } else {
    rows::Rows<WideWeightedEntry> placed = rows::place_by_row<WideWeightedEntry, WeightedArcsWide>(
        source, comm, round, n_local, owner, first_row);
    WeightedCsr1D<Column> csr{part, std::move(placed.offsets), std::move(placed.columns)};
#pragma omp parallel
    {
      std::vector<WideWeightedEntry> row;
#pragma omp for schedule(dynamic, 256)
      for (local_t i = 0; i < n_local; ++i) {
        WideWeightedEntry* first = csr.entries.data() + csr.offsets[i];
        row.assign(first, first + csr.degree(i));
        // By neighbour, lightest first; the first of each neighbour kept; then by weight, ties by id.
        std::sort(row.begin(), row.end(), [](const WideWeightedEntry& a, const WideWeightedEntry& b) {
          return a.to < b.to || (a.to == b.to && a.weight < b.weight);
        });
        row.erase(std::unique(row.begin(), row.end(),
                              [](const WideWeightedEntry& a, const WideWeightedEntry& b) { return a.to == b.to; }),
                  row.end());
        std::sort(row.begin(), row.end(), [](const WideWeightedEntry& a, const WideWeightedEntry& b) {
          return a.weight < b.weight || (a.weight == b.weight && a.to < b.to);
        });
        std::copy(row.begin(), row.end(), first);
        kept[i] = static_cast<edge_count_t>(row.size());
      }
    }
    rows::close_up_rows(csr.offsets, csr.entries, kept);
    return csr;
  }
}

WeightedCsrBytes weighted_csr_1d_bytes(double vertices, double tuples, int ranks, double id_bytes) {
  const double n_local = vertices / ranks + 64, m_local = tuples / ranks + 1;
  const double round = std::min(m_local, static_cast<double>(exchange::build_round(ranks)));
  const double entry = id_bytes == 4 ? 8 : sizeof(WideWeightedEntry);
  // 32-bit ids: a side byte an entry while placing when the word has no room for a block's tags.
  const int word_bits = rows::id_bits(static_cast<std::int64_t>(vertices)) + 32;
  const double side = id_bytes == 4 && 64 - word_bits < rows::kMinTagBits ? 1 : 0;
  const double item = id_bytes == 4 ? 12 : 24;
  WeightedCsrBytes bytes;
  bytes.kept = entry * 2 * m_local + 8 * n_local;
  bytes.build = (entry + side) * 2 * m_local + 2 * 8 * n_local + 20 * round + 3 * 2 * item * round;
  return bytes;
}

template struct WeightedCsr1D<std::uint32_t>;
template struct WeightedCsr1D<vertex_t>;
template WeightedCsr1D<std::uint32_t> build_weighted_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&,
                                                            std::int64_t);
template WeightedCsr1D<vertex_t> build_weighted_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&,
                                                       std::int64_t);

}  // namespace g500
