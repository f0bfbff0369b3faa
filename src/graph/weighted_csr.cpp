#include "graph/weighted_csr.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "graph/arc_routing.hpp"
#include "core/key_sort.hpp"
#include "graph/row_builder.hpp"

namespace g500 {

template <class Column>
edge_count_t WeightedCsr1D<Column>::light_end(local_t i, float delta) const {
  const float* first = weights.data() + offsets[i];
  const float* last = weights.data() + offsets[i + 1];
  return offsets[i] + (std::lower_bound(first, last, delta) - first);
}

template <class Column>
WeightedCsr1D<Column> build_weighted_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                            std::int64_t round) {
  const local_t n_local = part.local_count();
  WeightedCsr1D<Column> csr{part, big_vector<edge_count_t>(n_local + 1, 0), {}, {}};
  big_vector<edge_count_t>& offsets = csr.offsets;

  // Pass 1: arcs per row.
  route_arcs<rows::RowOf<Column>>(
      source, part, comm, round, "build.degree_rows",
      [](vertex_t row, vertex_t) { return rows::RowOf<Column>{static_cast<Column>(row)}; },
      [&](std::span<const rows::RowOf<Column>> arcs) {
        for (const auto& a : arcs) ++offsets[part.to_local(static_cast<vertex_t>(a.row)) + 1];
      });
  for (local_t i = 0; i < n_local; ++i) offsets[i + 1] += offsets[i];

  // Pass 2: every arc and its weight into its row.
  struct WeightedArc {
    Column row, to;
    float weight;
  };
  csr.columns.resize(offsets[n_local]);
  csr.weights.resize(offsets[n_local]);
  big_vector<edge_count_t> cursor(offsets.begin(), offsets.end() - 1);
  route_arcs<WeightedArc>(
      source, part, comm, round, "build.weighted_arcs",
      [](vertex_t row, vertex_t to, float w) { return WeightedArc{static_cast<Column>(row), static_cast<Column>(to), w}; },
      [&](std::span<const WeightedArc> arcs) {
        for (const WeightedArc& a : arcs) {
          const edge_count_t at = cursor[part.to_local(static_cast<vertex_t>(a.row))]++;
          csr.columns[at] = a.to;
          csr.weights[at] = a.weight;
        }
      });

  // Each row: the lightest copy of each neighbour, then the row by weight (ties by id). With 32-bit
  // ids an entry is one 64-bit key both times (a weight's bits order like the weight, for w >= 0),
  // so long rows go by vector sort.
  std::vector<edge_count_t> kept(n_local);
#pragma omp parallel
  {
    std::vector<std::uint64_t> keys;
    std::vector<std::pair<Column, float>> row;
#pragma omp for schedule(dynamic, 256)
    for (local_t i = 0; i < n_local; ++i) {
      Column* ids = csr.columns.data() + offsets[i];
      float* ws = csr.weights.data() + offsets[i];
      const std::size_t n = static_cast<std::size_t>(offsets[i + 1] - offsets[i]);
      std::size_t len = 0;
      if constexpr (sizeof(Column) == 4) {
        keys.resize(n);
        for (std::size_t k = 0; k < n; ++k) keys[k] = (std::uint64_t{ids[k]} << 32) | std::bit_cast<std::uint32_t>(ws[k]);
        sort_keys(keys);
        for (std::size_t k = 0; k < n; ++k)  // the first of each id is its lightest copy
          if (k == 0 || (keys[k] >> 32) != (keys[k - 1] >> 32)) keys[len++] = (keys[k] << 32) | (keys[k] >> 32);
        keys.resize(len);
        sort_keys(keys);
        for (std::size_t k = 0; k < len; ++k) {
          ids[k] = static_cast<Column>(keys[k] & 0xffffffffu);
          ws[k] = std::bit_cast<float>(static_cast<std::uint32_t>(keys[k] >> 32));
        }
      } else {
        row.clear();
        for (std::size_t k = 0; k < n; ++k) row.emplace_back(ids[k], ws[k]);
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
                  row.end());
        std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
          return a.second < b.second || (a.second == b.second && a.first < b.first);
        });
        len = row.size();
        for (std::size_t k = 0; k < len; ++k) {
          ids[k] = row[k].first;
          ws[k] = row[k].second;
        }
      }
      kept[i] = static_cast<edge_count_t>(len);
    }
  }
  // Slide the rows together (ids and weights alike).
  edge_count_t at = 0;
  for (local_t i = 0; i < n_local; ++i) {
    const edge_count_t from = offsets[i];
    offsets[i] = at;
    for (edge_count_t k = 0; k < kept[i]; ++k, ++at) {
      csr.columns[at] = csr.columns[from + k];
      csr.weights[at] = csr.weights[from + k];
    }
  }
  offsets[n_local] = at;
  csr.columns.resize(at);
  csr.weights.resize(at);
  release_spare_capacity(csr.columns);
  release_spare_capacity(csr.weights);
  return csr;
}

template struct WeightedCsr1D<std::uint32_t>;
template struct WeightedCsr1D<vertex_t>;
template WeightedCsr1D<std::uint32_t> build_weighted_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&,
                                                            std::int64_t);
template WeightedCsr1D<vertex_t> build_weighted_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&,
                                                       std::int64_t);

}  // namespace g500
