#include "bench/memory_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace g500 {
namespace {

// Rounds of the chunked exchanges move at most this many tuples per rank at once.
constexpr double kChunkTuples = double(1 << 22);

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

}  // namespace

std::int64_t estimate_run_bytes(int scale, int edgefactor, int num_ranks) {
  const double n = std::ldexp(1.0, scale), m = n * edgefactor;
  const double n_local = n / num_ranks + 64, m_local = m / num_ranks + 1;
  double bytes = 16 * m_local;                                  // edge slice
  bytes += 8 * 2 * m_local + 16 * n_local;                      // CSR columns (before dedup), offsets, cursor
  bytes += 3 * 2 * 16 * std::min(m_local, kChunkTuples);        // construction buckets, send and receive
  bytes += 48 * std::min(2 * m_local, kChunkTuples);             // ordering rows: degree queries
  bytes += 8 * n_local + 3 * n_local / 8 + n / 8 + 16 * n_local; // parents, bitmaps, gathered frontier, queues
  bytes += 16 * m_local;                                        // top-down (vertex, parent) buffers
  bytes += 4 * n_local + 2 * 48 * std::min(m_local, kChunkTuples / 2);  // validation levels and queries
  return static_cast<std::int64_t>(std::min(bytes, 9.0e18));
}

std::int64_t estimate_generate_bytes(int scale, int edgefactor, int num_ranks, bool with_weights) {
  const double m_local = std::ldexp(1.0, scale) * edgefactor / num_ranks + 1;
  return static_cast<std::int64_t>(std::min(m_local * (with_weights ? 20 : 16), 9.0e18));
}

void check_memory(const mpi::Comm& comm, std::int64_t bytes_per_rank, const std::string& what) {
  const mpi::Comm node = comm.split_shared();
  const std::int64_t node_need = node.allreduce(bytes_per_rank, mpi::Op::sum);
  const std::int64_t node_has = available_memory_bytes();
  const int short_here = node_need > node_has ? 1 : 0;
  const std::int64_t worst_need = comm.allreduce(short_here ? node_need : std::int64_t{0}, mpi::Op::max);
  if (worst_need > 0) {
    const std::int64_t has = comm.allreduce(short_here ? node_has : std::int64_t{INT64_MAX}, mpi::Op::min);
    throw UserError("not enough memory for " + what + ": a node needs about " + gib(double(worst_need)) + " but has " +
                    gib(double(has)) + " available (use a smaller --scale or more nodes)");
  }
}

}  // namespace g500
