#include "graph/csr_1d.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "exchange/owner_buckets.hpp"

namespace g500 {
namespace {

struct Arc {
  vertex_t from;
  vertex_t to;
};

// Runs `round(first, last)` over the slice in chunks; every rank runs the same number of rounds
// because each round is collective.
template <class Round>
void in_rounds(const EdgeSlice& slice, const mpi::Comm& comm, std::int64_t chunk, Round&& round) {
  const std::int64_t n = static_cast<std::int64_t>(slice.edges.size());
  const std::int64_t rounds = comm.allreduce<std::int64_t>((n + chunk - 1) / chunk, mpi::Op::max);
  for (std::int64_t r = 0; r < rounds; ++r) round(std::min(n, r * chunk), std::min(n, (r + 1) * chunk));
}

}  // namespace

Csr1D build_csr_1d(const EdgeSlice& slice, const Partition1D& part, const mpi::Comm& comm, std::int64_t chunk) {
  const int p = comm.size();
  const int threads = omp_get_max_threads();
  const local_t n_local = part.local_count();
  Csr1D csr{part, std::vector<edge_count_t>(n_local + 1, 0), {}};

  // Pass 1: degrees. Each endpoint of a non-loop tuple tells its owner "one more arc".
  {
    exchange::OwnerBuckets<vertex_t> buckets(p, threads);
    std::vector<edge_count_t>& deg = csr.offsets;
    in_rounds(slice, comm, chunk, [&](std::int64_t first, std::int64_t last) {
#pragma omp parallel
      {
        const int t = omp_get_thread_num();
#pragma omp for schedule(static)
        for (std::int64_t i = first; i < last; ++i) {
          const Edge e = slice.edges[i];
          if (e.u == e.v) continue;
          buckets.push(t, part.owner(e.u), e.u);
          buckets.push(t, part.owner(e.v), e.v);
        }
      }
      const std::vector<vertex_t> got = buckets.exchange(comm);
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < got.size(); ++i) {
        std::atomic_ref<edge_count_t>(deg[part.to_local(got[i]) + 1]).fetch_add(1, std::memory_order_relaxed);
      }
    });
    for (local_t i = 0; i < n_local; ++i) deg[i + 1] += deg[i];
  }

  // Pass 2: arcs land in their rows at per-row cursors.
  csr.columns.resize(csr.offsets.back());
  {
    std::vector<edge_count_t> cursor(csr.offsets.begin(), csr.offsets.end() - 1);
    exchange::OwnerBuckets<Arc> buckets(p, threads);
    in_rounds(slice, comm, chunk, [&](std::int64_t first, std::int64_t last) {
#pragma omp parallel
      {
        const int t = omp_get_thread_num();
#pragma omp for schedule(static)
        for (std::int64_t i = first; i < last; ++i) {
          const Edge e = slice.edges[i];
          if (e.u == e.v) continue;
          buckets.push(t, part.owner(e.u), Arc{e.u, e.v});
          buckets.push(t, part.owner(e.v), Arc{e.v, e.u});
        }
      }
      const std::vector<Arc> got = buckets.exchange(comm);
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < got.size(); ++i) {
        const edge_count_t at = std::atomic_ref<edge_count_t>(cursor[part.to_local(got[i].from)])
                                    .fetch_add(1, std::memory_order_relaxed);
        csr.columns[at] = got[i].to;
      }
    });
  }

  // Sort each row and drop duplicates, then close the gaps. Sorting also makes the CSR identical
  // whatever the arrival order, so it does not depend on rank or thread counts.
  std::vector<edge_count_t> unique_len(n_local);
#pragma omp parallel for schedule(dynamic, 1024)
  for (local_t i = 0; i < n_local; ++i) {
    vertex_t* b = csr.columns.data() + csr.offsets[i];
    vertex_t* e = csr.columns.data() + csr.offsets[i + 1];
    std::sort(b, e);
    unique_len[i] = std::unique(b, e) - b;
  }
  edge_count_t out = 0;
  for (local_t i = 0; i < n_local; ++i) {
    const edge_count_t from = csr.offsets[i];
    if (from != out) std::memmove(csr.columns.data() + out, csr.columns.data() + from, unique_len[i] * sizeof(vertex_t));
    csr.offsets[i] = out;
    out += unique_len[i];
  }
  csr.offsets[n_local] = out;
  csr.columns.resize(out);
  return csr;
}

}  // namespace g500
