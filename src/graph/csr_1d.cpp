#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>

#include "graph/arc_routing.hpp"
#include "exchange/owner_query.hpp"

namespace g500 {
namespace {

template <class Column>
struct Arc {
  Column row;  // a global id owned by the receiving rank
  Column to;
};

// The first pass needs only the row of each arc.
template <class Column>
struct RowOf {
  Column row;
};

// Rows handled together when sorting: about 256 blocks of at least 8192 rows, so that each is
// sorted and compacted by one thread while the rest of the rows wait in memory.
local_t block_rows(local_t rows) {
  local_t size = 8192;
  while (rows / size > 256) size *= 2;
  return size;
}

inline void bump(edge_count_t& counter) { std::atomic_ref<edge_count_t>(counter).fetch_add(1, std::memory_order_relaxed); }

// Writes a round's arcs into their rows at the rows' cursors. The arcs are first grouped by block of
// rows (a counting sort), so that one thread fills each block while its rows sit in cache; no
// atomics are needed.
template <class Column>
class ArcPlacer {
 public:
  ArcPlacer(const Partition1D& part, big_vector<edge_count_t>& cursor, Column* columns)
      : part_(part), cursor_(cursor), columns_(columns) {
    const local_t rows = part.local_count();
    while ((rows >> shift_) > 4096) ++shift_;  // at most ~4096 blocks of >= 8192 rows
    blocks_ = static_cast<int>((rows >> shift_) + 1);
  }

  void place(std::span<const Arc<Column>> arcs) {
    const std::int64_t n = static_cast<std::int64_t>(arcs.size());
    sorted_.resize(n);
    const int threads = omp_get_max_threads();
    counts_.assign(static_cast<std::size_t>(threads) * blocks_, 0);
#pragma omp parallel num_threads(threads)
    {
      // Split by the team actually granted; counts_ has room for the one asked for.
      const int t = omp_get_thread_num(), team = omp_get_num_threads();
      const std::int64_t first = n * t / team, last = n * (t + 1) / team;
      std::int64_t* mine = counts_.data() + static_cast<std::size_t>(t) * blocks_;
      for (std::int64_t i = first; i < last; ++i) ++mine[block_of(arcs[i])];
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
      for (std::int64_t i = first; i < last; ++i) sorted_[mine[block_of(arcs[i])]++] = arcs[i];
#pragma omp barrier
#pragma omp for schedule(dynamic, 4)
      for (int b = 0; b < blocks_; ++b) {
        for (std::int64_t i = block_start_[b]; i < block_start_[b + 1]; ++i) {
          const local_t row = part_.to_local(static_cast<vertex_t>(sorted_[i].row));
          columns_[cursor_[row]++] = sorted_[i].to;
        }
      }
    }
  }

 private:
  int block_of(const Arc<Column>& a) const {
    return static_cast<int>(part_.to_local(static_cast<vertex_t>(a.row)) >> shift_);
  }

  const Partition1D& part_;
  big_vector<edge_count_t>& cursor_;
  Column* columns_;
  int shift_ = 13;
  int blocks_ = 1;
  std::vector<Arc<Column>> sorted_;
  std::vector<std::int64_t> counts_;
  std::vector<std::int64_t> block_start_;
};

}  // namespace

template <class Column>
Csr1D<Column> build_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                           std::int64_t round) {
  const local_t n_local = part.local_count();
  Csr1D<Column> csr{part, big_vector<edge_count_t>(n_local + 1, 0), {}};
  big_vector<edge_count_t>& offsets = csr.offsets;

  // Pass 1: arcs per row (an upper bound on the degree: duplicates are still in).
  route_arcs<RowOf<Column>>(
      source, part, comm, round, "build.degree_rows",
      [](vertex_t row, vertex_t) { return RowOf<Column>{static_cast<Column>(row)}; },
      [&](std::span<const RowOf<Column>> rows) {
        const std::int64_t n = static_cast<std::int64_t>(rows.size());
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) bump(offsets[part.to_local(static_cast<vertex_t>(rows[i].row)) + 1]);
      });
  for (local_t i = 0; i < n_local; ++i) offsets[i + 1] += offsets[i];

  // Pass 2: every arc into its row, at the row's cursor.
  csr.columns.resize(offsets[n_local]);
  big_vector<edge_count_t> cursor(offsets.begin(), offsets.end() - 1);
  Column* columns = csr.columns.data();
  {
    ArcPlacer<Column> placer(part, cursor, columns);
    route_arcs<Arc<Column>>(
        source, part, comm, round, "build.arcs",
        [](vertex_t row, vertex_t to) { return Arc<Column>{static_cast<Column>(row), static_cast<Column>(to)}; },
        [&](std::span<const Arc<Column>> arcs) { placer.place(arcs); });
  }
  big_vector<edge_count_t>().swap(cursor);

  // Sort each row and drop its duplicates, block by block in parallel (each block compacted toward
  // its own start), then slide the blocks together in order.
  const local_t block = block_rows(n_local);
  const local_t blocks = (n_local + block - 1) / block;
  std::vector<edge_count_t> block_kept(blocks, 0);
  std::vector<edge_count_t> degree(n_local);
#pragma omp parallel for schedule(dynamic, 1)
  for (local_t b = 0; b < blocks; ++b) {
    const local_t first = b * block, last = std::min(n_local, first + block);
    edge_count_t at = offsets[first];
    for (local_t r = first; r < last; ++r) {
      Column* row_begin = columns + offsets[r];
      Column* row_end = columns + offsets[r + 1];
      std::sort(row_begin, row_end);
      const edge_count_t len = std::unique(row_begin, row_end) - row_begin;
      std::memmove(columns + at, row_begin, len * sizeof(Column));
      at += len;
      degree[r] = len;
    }
    block_kept[b] = at - offsets[first];
  }
  edge_count_t at = 0;
  for (local_t b = 0; b < blocks; ++b) {
    const local_t first = b * block;
    std::memmove(columns + at, columns + offsets[first], block_kept[b] * sizeof(Column));
    at += block_kept[b];
  }
  for (local_t i = 0; i < n_local; ++i) offsets[i + 1] = offsets[i] + degree[i];
  // The room duplicates took stays reserved: shrinking would copy the rows, doubling the peak.
  csr.columns.resize(offsets[n_local]);
  return csr;
}

template <class Column>
void order_rows_by_degree(Csr1D<Column>& csr, const mpi::Comm& comm, std::int64_t round) {
  const Partition1D& part = csr.part;
  const local_t n_local = part.local_count();
  exchange::OwnerQuery<Column, std::int64_t, Partition1D> query(comm, part);
  std::vector<std::int64_t> degree;
  // Rounds cover whole rows: [row, next_row) holds at most `round` entries (or one longer row).
  // Two consecutive rounds hold more than `round` entries, which bounds the rounds any rank needs.
  const std::int64_t rounds =
      comm.allreduce<std::int64_t>(2 * ((csr.local_entries() + round - 1) / round) + 1, mpi::Op::max);
  local_t row = 0;
  for (std::int64_t r = 0; r < rounds; ++r) {
    local_t next_row = row;
    while (next_row < n_local && (next_row == row || csr.offsets[next_row + 1] - csr.offsets[row] <= round)) {
      ++next_row;
    }
    const edge_count_t first = csr.offsets[row], last = csr.offsets[next_row];
    degree.resize(last - first);
    query.ask(std::span<const Column>(csr.columns.data() + first, last - first), degree,
              [](Column v) { return static_cast<vertex_t>(v); },
              [&](Column v) { return csr.degree(part.to_local(static_cast<vertex_t>(v))); },
              [&](local_t i) { __builtin_prefetch(&csr.offsets[i]); });
#pragma omp parallel
    {
      // Sort keys: higher degree first, then lower id. With 32-bit ids both fit one 64-bit word.
      using Key = std::conditional_t<sizeof(Column) == 4, std::uint64_t, std::pair<std::int64_t, Column>>;
      std::vector<Key> keyed;
#pragma omp for schedule(dynamic, 256)
      for (local_t i = row; i < next_row; ++i) {
        keyed.clear();
        for (edge_count_t k = csr.offsets[i]; k < csr.offsets[i + 1]; ++k) {
          if constexpr (sizeof(Column) == 4) {
            const std::uint64_t d = std::min<std::uint64_t>(degree[k - first], 0xffffffffULL);
            keyed.push_back(((0xffffffffULL - d) << 32) | csr.columns[k]);
          } else {
            keyed.emplace_back(-degree[k - first], csr.columns[k]);
          }
        }
        std::sort(keyed.begin(), keyed.end());
        for (std::size_t k = 0; k < keyed.size(); ++k) {
          if constexpr (sizeof(Column) == 4) csr.columns[csr.offsets[i] + k] = static_cast<Column>(keyed[k]);
          else csr.columns[csr.offsets[i] + k] = keyed[k].second;
        }
      }
    }
    row = next_row;
  }
}

template Csr1D<std::uint32_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, std::int64_t);
template Csr1D<vertex_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, std::int64_t);
template void order_rows_by_degree(Csr1D<std::uint32_t>&, const mpi::Comm&, std::int64_t);
template void order_rows_by_degree(Csr1D<vertex_t>&, const mpi::Comm&, std::int64_t);

}  // namespace g500
