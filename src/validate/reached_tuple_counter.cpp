#include "validate/reached_tuple_counter.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "core/bitmap.hpp"
#include "exchange/slice_gather.hpp"

namespace g500 {

ReachedTupleCounter::ReachedTupleCounter(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                         int batch, std::int64_t chunk)
    : source_(source), part_(part), comm_(comm), batch_(std::clamp(batch, 1, kMaxBatch)), chunk_(chunk) {}

void ReachedTupleCounter::wait(std::span<const vertex_t> parents) {
  if (used_ + 1 >= batch_) throw std::logic_error("ReachedTupleCounter::wait: the batch is full");
  add(parents);
}

void ReachedTupleCounter::add(std::span<const vertex_t> parents) {
  if (reached_.empty()) reached_.assign(static_cast<std::size_t>(part_.num_vertices()), 0);
  // This search's reached vertices, gathered from their owners into bit `used_` of every vertex.
  Bitmap mine(part_.local_count()), all(part_.num_vertices());
  for (local_t i = 0; i < part_.local_count(); ++i)
    if (parents[i] != kNoParent) mine.set(i);
  exchange::SliceGather(comm_, {part_.word_counts(), part_.word_displs()}).gather(mine, all, false);
  const std::uint16_t bit = static_cast<std::uint16_t>(1u << used_), keep = static_cast<std::uint16_t>(~bit);
  const vertex_t n = part_.num_vertices();
#pragma omp parallel for schedule(static)
  for (vertex_t v = 0; v < n; ++v) reached_[v] = static_cast<std::uint16_t>((reached_[v] & keep) | (all.test(v) ? bit : 0));
  ++used_;
}

std::vector<std::int64_t> ReachedTupleCounter::count(std::span<const vertex_t> parents) {
  add(parents);
  const int slots = used_;
  std::vector<std::int64_t> thread_nedge(static_cast<std::size_t>(omp_get_max_threads()) * slots, 0);
  scan_in_pieces(
      source_, comm_, chunk_,
      [&](int t, std::span<const Edge> edges) {
        std::int64_t nedge[kMaxBatch] = {};
        for (const Edge& e : edges) {
          const unsigned both = reached_[e.u] & reached_[e.v];
          for (int s = 0; s < slots; ++s) nedge[s] += (both >> s) & 1u;
        }
        for (int s = 0; s < slots; ++s) thread_nedge[static_cast<std::size_t>(t) * slots + s] += nedge[s];
      },
      [] {});
  std::vector<std::int64_t> nedge(slots, 0);
  for (std::size_t k = 0; k < thread_nedge.size(); ++k) nedge[k % slots] += thread_nedge[k];
  for (std::int64_t& c : nedge) c = comm_.allreduce(c, mpi::Op::sum);
  used_ = 0;
  return nedge;
}

std::int64_t count_reached_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                  std::span<const vertex_t> parents, std::int64_t chunk) {
  return ReachedTupleCounter(source, part, comm, 1, chunk).count(parents).front();
}

}  // namespace g500
