#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <type_traits>

#include "graph/arc_routing.hpp"
#include "core/radix_sort.hpp"
#include "graph/degree_code.hpp"

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

// Passes 1 and 2: every arc in its row, rows unsorted, duplicates still in.
template <class Column>
Csr1D<Column> place_arcs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                         std::int64_t round) {
  const local_t n_local = part.local_count();
  Csr1D<Column> csr{part, big_vector<edge_count_t>(n_local + 1, 0), {}};
  big_vector<edge_count_t>& offsets = csr.offsets;

  // Pass 1: arcs per row.
  route_arcs<RowOf<Column>>(
      source, part, comm, round, "build.degree_rows",
      [](vertex_t row, vertex_t) { return RowOf<Column>{static_cast<Column>(row)}; },
      [&](std::span<const RowOf<Column>> rows) {
        const std::int64_t n = static_cast<std::int64_t>(rows.size());
        if (omp_get_max_threads() == 1) {  // a locked add costs several plain ones
          for (std::int64_t i = 0; i < n; ++i) ++offsets[part.to_local(static_cast<vertex_t>(rows[i].row)) + 1];
          return;
        }
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) bump(offsets[part.to_local(static_cast<vertex_t>(rows[i].row)) + 1]);
      });
  for (local_t i = 0; i < n_local; ++i) offsets[i + 1] += offsets[i];

  // Pass 2: every arc into its row, at the row's cursor.
  csr.columns.resize(offsets[n_local]);
  big_vector<edge_count_t> cursor(offsets.begin(), offsets.end() - 1);
  ArcPlacer<Column> placer(part, cursor, csr.columns.data());
  route_arcs<Arc<Column>>(
      source, part, comm, round, "build.arcs",
      [](vertex_t row, vertex_t to) { return Arc<Column>{static_cast<Column>(row), static_cast<Column>(to)}; },
      [&](std::span<const Arc<Column>> arcs) { placer.place(arcs); });
  return csr;
}

// Slides the rows together: row r keeps its first kept[r] entries. The room duplicates took stays
// reserved: shrinking would copy the rows, doubling the peak.
template <class Column>
void close_up_rows(Csr1D<Column>& csr, const std::vector<edge_count_t>& kept) {
  const local_t n_local = csr.part.local_count();
  Column* columns = csr.columns.data();
  edge_count_t at = 0;
  for (local_t r = 0; r < n_local; ++r) {
    if (at != csr.offsets[r]) std::memmove(columns + at, columns + csr.offsets[r], kept[r] * sizeof(Column));
    csr.offsets[r] = at;
    at += kept[r];
  }
  csr.offsets[n_local] = at;
  csr.columns.resize(at);
}

// Each row sorted by id, duplicates dropped.
template <class Column>
void sort_rows_by_id(Csr1D<Column>& csr) {
  const local_t n_local = csr.part.local_count();
  std::vector<edge_count_t> kept(n_local);
#pragma omp parallel for schedule(dynamic, 1024)
  for (local_t r = 0; r < n_local; ++r) {
    Column* row_begin = csr.columns.data() + csr.offsets[r];
    Column* row_end = csr.columns.data() + csr.offsets[r + 1];
    std::sort(row_begin, row_end);
    kept[r] = std::unique(row_begin, row_end) - row_begin;
  }
  close_up_rows(csr, kept);
}

// Sorts each row by key_of(entry), drops entries whose keys repeat (copies of one neighbour) and
// records what each row keeps. Integer keys of `bits` bits go by radix in long rows.
template <class Column, class Key, class KeyOf, class EntryOf>
void sort_rows_by_key(Csr1D<Column>& csr, std::vector<edge_count_t>& kept, int bits, KeyOf&& key_of,
                      EntryOf&& entry_of) {
  const local_t n_local = csr.part.local_count();
#pragma omp parallel
  {
    std::vector<Key> keyed, scratch;
#pragma omp for schedule(dynamic, 256)
    for (local_t i = 0; i < n_local; ++i) {
      keyed.clear();
      for (edge_count_t k = csr.offsets[i]; k < csr.offsets[i + 1]; ++k) keyed.push_back(key_of(csr.columns[k]));
      if constexpr (std::is_integral_v<Key>) sort_keys(keyed, scratch, bits);
      else std::sort(keyed.begin(), keyed.end());
      Column* out = csr.columns.data() + csr.offsets[i];
      edge_count_t len = 0;
      for (std::size_t k = 0; k < keyed.size(); ++k) {
        if (k > 0 && keyed[k] == keyed[k - 1]) continue;
        out[len++] = entry_of(keyed[k]);
      }
      kept[i] = len;
    }
  }
}

// Each row sorted by its neighbours' arc counts (highest first, ties by id), duplicates dropped,
// in one sort. Every rank first gathers the one-byte code of every vertex's count.
template <class Column>
void sort_rows_by_neighbour_degree(Csr1D<Column>& csr, const mpi::Comm& comm) {
  const Partition1D& part = csr.part;
  const local_t n_local = part.local_count();
  std::vector<std::uint8_t> mine(n_local), code(part.num_vertices());
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < n_local; ++i) mine[i] = degree_code(csr.degree(i));
  std::vector<int> counts(comm.size()), displs(comm.size());
  for (int r = 0; r < comm.size(); ++r) {
    counts[r] = static_cast<int>(part.count_of(r));
    displs[r] = static_cast<int>(part.begin_of(r));
  }
  comm.allgatherv<std::uint8_t>(mine, code.data(), counts, displs);
  std::vector<edge_count_t> kept(n_local);
  // The code above the id in one word (the narrowest that holds both), or a pair past 56-bit ids.
  const int id_bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(part.num_vertices() - 1))));
  auto by_word = [&]<class Word>(Word) {
    sort_rows_by_key<Column, Word>(
        csr, kept, id_bits + 8, [&](Column v) { return static_cast<Word>((Word{255u - code[v]} << id_bits) | v); },
        [id_bits](Word key) { return static_cast<Column>(key & ((Word{1} << id_bits) - 1)); });
  };
  if (id_bits + 8 <= 32) {
    by_word(std::uint32_t{});
  } else if (id_bits <= 56) {
    by_word(std::uint64_t{});
  } else {
    using Pair = std::pair<std::uint8_t, Column>;
    sort_rows_by_key<Column, Pair>(
        csr, kept, 0, [&](Column v) { return Pair(255 - code[v], v); }, [](const Pair& key) { return key.second; });
  }
  close_up_rows(csr, kept);
}

}  // namespace

template <class Column>
Csr1D<Column> build_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                           RowOrder order, std::int64_t round) {
  Csr1D<Column> csr = place_arcs<Column>(source, part, comm, round);
  if (order == RowOrder::by_neighbour_degree) sort_rows_by_neighbour_degree(csr, comm);
  else sort_rows_by_id(csr);
  return csr;
}

template Csr1D<std::uint32_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder,
                                           std::int64_t);
template Csr1D<vertex_t> build_csr_1d(const EdgeSource&, const Partition1D&, const mpi::Comm&, RowOrder, std::int64_t);

}  // namespace g500
