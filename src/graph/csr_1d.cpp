#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "exchange/owner_buckets.hpp"
#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"

namespace g500 {
namespace {

struct Arc {
  vertex_t from;  // row, a global id owned by the receiving rank
  vertex_t to;
};

// Arcs grouped by block of consecutive local rows, one list per (thread, block), so that a block's
// rows can later be counted, filled and sorted inside cache by one thread. Appending is lock-free.
class BlockedArcs {
 public:
  // `expected` arcs in all, spread about evenly: room is reserved for that many.
  BlockedArcs(local_t rows, int threads, std::int64_t expected) {
    while ((rows >> shift_) > 256) ++shift_;  // at most ~256 blocks of >= 8192 rows
    blocks_ = static_cast<int>((rows >> shift_) + 1);
    lists_.resize(static_cast<std::size_t>(threads) * blocks_);
    const std::size_t each = static_cast<std::size_t>(expected / (std::int64_t{threads} * blocks_) * 9 / 8);
    for (auto& list : lists_) list.reserve(each);
  }
  int blocks() const { return blocks_; }
  int threads() const { return static_cast<int>(lists_.size() / blocks_); }
  local_t first_row(int b) const { return static_cast<local_t>(b) << shift_; }
  void add(int thread, local_t row, vertex_t to) { list(thread, static_cast<int>(row >> shift_)).push_back({row, to}); }
  big_vector<Arc>& list(int thread, int block) { return lists_[static_cast<std::size_t>(thread) * blocks_ + block]; }

 private:
  int shift_ = 13;
  int blocks_ = 1;
  std::vector<big_vector<Arc>> lists_;
};

// One block's rows, sorted and without duplicates: degree per row and the columns back to back.
struct BuiltBlock {
  std::vector<edge_count_t> degree;
  big_vector<vertex_t> columns;
};

BuiltBlock build_block(BlockedArcs& arcs, int b, local_t first_row, local_t rows) {
  BuiltBlock out;
  std::vector<edge_count_t> start(rows + 1, 0);
  for (int t = 0; t < arcs.threads(); ++t)
    for (const Arc& a : arcs.list(t, b)) ++start[a.from - first_row + 1];
  for (local_t r = 0; r < rows; ++r) start[r + 1] += start[r];
  big_vector<vertex_t> cols(start[rows]);
  std::vector<edge_count_t> cursor(start.begin(), start.end() - 1);
  for (int t = 0; t < arcs.threads(); ++t) {
    big_vector<Arc>& list = arcs.list(t, b);
    for (const Arc& a : list) cols[cursor[a.from - first_row]++] = a.to;
    big_vector<Arc>().swap(list);  // free as we go: this block's arcs are no longer needed
  }
  out.degree.resize(rows);
  edge_count_t kept = 0;
  for (local_t r = 0; r < rows; ++r) {
    vertex_t* b_it = cols.data() + start[r];
    vertex_t* e_it = cols.data() + start[r + 1];
    std::sort(b_it, e_it);
    const edge_count_t len = std::unique(b_it, e_it) - b_it;
    std::memmove(cols.data() + kept, b_it, len * sizeof(vertex_t));
    kept += len;
    out.degree[r] = len;
  }
  cols.resize(kept);
  cols.shrink_to_fit();
  out.columns = std::move(cols);
  return out;
}

}  // namespace

Csr1D build_csr_1d(const EdgeSlice& slice, const Partition1D& part, const mpi::Comm& comm, std::int64_t chunk) {
  const int me = comm.rank();
  const int threads = omp_get_max_threads();
  const local_t n_local = part.local_count();
  // Rows are scrambled vertices, so each rank expects about its share of the 2 arcs per tuple.
  const std::int64_t expected = 2 * slice.global_edges / comm.size();
  BlockedArcs arcs(n_local, threads, expected);

  // Each non-loop tuple (u, v) gives the arcs u->v and v->u. Arcs of rows this rank owns go straight
  // into the blocks; the rest travel to their owners in bounded rounds.
  exchange::OwnerBuckets<Arc> outgoing(comm.size(), threads, "build.arcs");
  std::vector<Arc> arrived;
  const std::int64_t n = static_cast<std::int64_t>(slice.edges.size());
  exchange::in_rounds(comm, n, chunk, [&](std::int64_t first, std::int64_t last) {
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      const auto route = [&](vertex_t from, vertex_t to) {
        const int owner = part.owner(from);
        if (owner == me) arcs.add(t, part.to_local(from), to);
        else outgoing.push(t, owner, Arc{from, to});
      };
#pragma omp for schedule(static)
      for (std::int64_t i = first; i < last; ++i) {
        const Edge e = slice.edges[i];
        if (e.u == e.v) continue;
        route(e.u, e.v);
        route(e.v, e.u);
      }
    }
    outgoing.exchange(comm, arrived);
    const std::int64_t got = static_cast<std::int64_t>(arrived.size());
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < got; ++i) arcs.add(t, part.to_local(arrived[i].from), arrived[i].to);
    }
  });
  std::vector<Arc>().swap(arrived);

  // Build each block in cache, then lay the blocks out back to back.
  std::vector<BuiltBlock> built(arcs.blocks());
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < arcs.blocks(); ++b) {
    const local_t first_row = std::min(n_local, arcs.first_row(b));
    const local_t rows = std::min(n_local, arcs.first_row(b + 1)) - first_row;
    built[b] = build_block(arcs, b, first_row, rows);
  }
  Csr1D csr{part, big_vector<edge_count_t>(n_local + 1), {}};
  std::vector<edge_count_t> block_start(arcs.blocks() + 1, 0);
  for (int b = 0; b < arcs.blocks(); ++b) {
    block_start[b + 1] = block_start[b] + static_cast<edge_count_t>(built[b].columns.size());
  }
  csr.columns.resize(block_start.back());
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < arcs.blocks(); ++b) {
    const local_t first_row = std::min(n_local, arcs.first_row(b));
    edge_count_t at = block_start[b];
    for (std::size_t r = 0; r < built[b].degree.size(); ++r) {
      csr.offsets[first_row + r] = at;
      at += built[b].degree[r];
    }
    std::copy(built[b].columns.begin(), built[b].columns.end(), csr.columns.begin() + block_start[b]);
    big_vector<vertex_t>().swap(built[b].columns);
  }
  csr.offsets[n_local] = block_start.back();
  return csr;
}

void order_rows_by_degree(Csr1D& csr, const mpi::Comm& comm, std::int64_t chunk) {
  const Partition1D& part = csr.part;
  const local_t n_local = part.local_count();
  exchange::OwnerQuery<vertex_t, std::int64_t, Partition1D> query(comm, part);
  std::vector<std::int64_t> degree;
  // Rounds cover whole rows: [row, next_row) holds at most `chunk` entries (or one longer row).
  // Two consecutive rounds hold more than `chunk` entries, which bounds the rounds any rank needs.
  const std::int64_t rounds =
      comm.allreduce<std::int64_t>(2 * ((csr.local_entries() + chunk - 1) / chunk) + 1, mpi::Op::max);
  local_t row = 0;
  for (std::int64_t r = 0; r < rounds; ++r) {
    local_t next_row = row;
    while (next_row < n_local && (next_row == row || csr.offsets[next_row + 1] - csr.offsets[row] <= chunk)) {
      ++next_row;
    }
    const edge_count_t first = csr.offsets[row], last = csr.offsets[next_row];
    degree.resize(last - first);
    query.ask(std::span<const vertex_t>(csr.columns.data() + first, last - first), degree,
              [](vertex_t v) { return v; }, [&](vertex_t v) { return csr.degree(part.to_local(v)); },
              [&](local_t i) { __builtin_prefetch(&csr.offsets[i]); });
#pragma omp parallel
    {
      std::vector<std::pair<std::int64_t, vertex_t>> keyed;
#pragma omp for schedule(dynamic, 256)
      for (local_t i = row; i < next_row; ++i) {
        keyed.clear();
        for (edge_count_t k = csr.offsets[i]; k < csr.offsets[i + 1]; ++k) {
          keyed.emplace_back(-degree[k - first], csr.columns[k]);
        }
        std::sort(keyed.begin(), keyed.end());
        for (std::size_t k = 0; k < keyed.size(); ++k) csr.columns[csr.offsets[i] + k] = keyed[k].second;
      }
    }
    row = next_row;
  }
}

}  // namespace g500
