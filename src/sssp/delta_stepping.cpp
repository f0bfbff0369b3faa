#include "sssp/delta_stepping.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "core/timer.hpp"
#include "exchange/rounds.hpp"
#include "core/memory.hpp"

namespace g500 {

template <class Column>
DeltaStepping<Column>::DeltaStepping(const mpi::Comm& comm, const Partition1D& part, float delta)
    : comm_(comm), part_(part), delta_(delta), per_delta_(1.0 / static_cast<double>(delta)), csr_{part, {}, {}, {}},
      buckets_(comm.size(), omp_get_max_threads(), "sssp.relaxations") {}

template <class Column>
void DeltaStepping<Column>::build(const EdgeSource& source) {
  csr_ = build_weighted_csr_1d<Column>(source, part_, comm_);
  light_.resize(part_.local_count());
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part_.local_count(); ++i) {
    light_[i] = static_cast<std::uint32_t>(csr_.light_end(i, delta_) - csr_.offsets[i]);
  }
}

template <class Column>
template <class First, class Last>
std::int64_t DeltaStepping<Column>::relax(const std::vector<local_t>& from, First&& first, Last&& last,
                                          std::span<vertex_t> parents, std::span<float> dist, std::int64_t bucket,
                                          bool requeue) {
  // In pieces of about kTopDownRound requests, one exchange each, so the buffers stay a few MB
  // however many edges a bucket relaxes; every rank takes part in the busiest rank's count.
  std::vector<std::int64_t> ends;
  edge_count_t in_piece = 0;
  for (std::size_t i = 0; i < from.size(); ++i) {
    in_piece += last(from[i]) - first(from[i]);
    if (in_piece >= exchange::kTopDownRound) {
      ends.push_back(static_cast<std::int64_t>(i) + 1);
      in_piece = 0;
    }
  }
  if (in_piece > 0 || ends.empty()) ends.push_back(static_cast<std::int64_t>(from.size()));
  const std::int64_t pieces = comm_.allreduce<std::int64_t>(static_cast<std::int64_t>(ends.size()), mpi::Op::max);
  std::int64_t sent = 0;
  for (std::int64_t piece = 0; piece < pieces; ++piece) {
    const std::int64_t mine = static_cast<std::int64_t>(ends.size()), all = static_cast<std::int64_t>(from.size());
    const std::int64_t lo = piece == 0 ? 0 : piece <= mine ? ends[piece - 1] : all;
    const std::int64_t hi = piece < mine ? ends[piece] : all;
#pragma omp parallel reduction(+ : sent)
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(dynamic, 64)
      for (std::int64_t i = lo; i < hi; ++i) {
        const local_t u = from[i];
        const Column parent = static_cast<Column>(part_.to_global(u));
        const float du = dist[u];
        for (edge_count_t k = first(u), end = last(u); k < end; ++k) {
          const vertex_t v = static_cast<vertex_t>(csr_.columns[k]);
          buckets_.push(t, part_.owner(v), Relaxation{csr_.columns[k], parent, du + csr_.weights[k]});
          ++sent;
        }
      }
    }
    buckets_.exchange(comm_, arrived_);
    // Applied by one thread: a vertex may get several offers, and the lowest must win.
    for (const Relaxation& r : arrived_) {
      const local_t v = part_.to_local(static_cast<vertex_t>(r.vertex));
      if (r.dist < dist[v]) {
        dist[v] = r.dist;
        parents[v] = static_cast<vertex_t>(r.parent);
        if (requeue && bucket_of(r.dist) == bucket) active_.push_back(v);
      }
    }
  }
  return sent;
}

template <class Column>
void DeltaStepping<Column>::search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist,
                                   SsspProfile* profile) {
  const local_t n_local = part_.local_count();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  std::fill(parents.begin(), parents.end(), kNoParent);
  std::fill(dist.begin(), dist.end(), kInf);
  active_.clear();
  if (part_.owns(root)) {
    const local_t r = part_.to_local(root);
    dist[r] = 0;
    parents[r] = root;
    active_.push_back(r);
  }
  bool last_bucket = false;  // every edge light (bucket_of)
  const auto light_end = [&](local_t u) { return last_bucket ? csr_.offsets[u + 1] : csr_.offsets[u] + light_[u]; };
  const auto row_begin = [&](local_t u) { return csr_.offsets[u]; };
  const auto row_end = [&](local_t u) { return csr_.offsets[u + 1]; };
  std::vector<local_t> round;
  for (std::int64_t bucket = 0;;) {
    const Timer timer;
    BucketRecord rec;
    rec.bucket = bucket;
    last_bucket = bucket == kLastBucket;
    // Light edges, until no distance in the bucket changes anywhere.
    while (comm_.allreduce<std::int64_t>(static_cast<std::int64_t>(active_.size()), mpi::Op::sum) > 0) {
      std::sort(active_.begin(), active_.end());
      active_.erase(std::unique(active_.begin(), active_.end()), active_.end());
      round.swap(active_);
      active_.clear();
      rec.light_relaxations += relax(round, row_begin, light_end, parents, dist, bucket, true);
      ++rec.light_rounds;
    }
    // The bucket's distances are final: its heavy edges once.
    members_.clear();
    float next = kInf;
    for (local_t i = 0; i < n_local; ++i) {
      if (dist[i] == kInf) continue;
      const std::int64_t b = bucket_of(dist[i]);
      if (b == bucket) members_.push_back(i);
    }
    rec.heavy_relaxations = relax(members_, light_end, row_end, parents, dist, bucket, false);
    // The next bucket: the lowest distance beyond this one.
    for (local_t i = 0; i < n_local; ++i)
      if (dist[i] < next && bucket_of(dist[i]) > bucket) next = dist[i];
    std::int64_t counts[3] = {static_cast<std::int64_t>(members_.size()), rec.light_relaxations,
                              rec.heavy_relaxations};
    comm_.allreduce_inplace<std::int64_t>(counts, mpi::Op::sum);
    rec.settled = counts[0];
    rec.light_relaxations = counts[1];
    rec.heavy_relaxations = counts[2];
    next = comm_.allreduce(next, mpi::Op::min);
    rec.seconds = timer.seconds();
    if (profile) profile->push_back(rec);
    if (next == kInf) break;
    bucket = bucket_of(next);
    for (local_t i = 0; i < n_local; ++i)
      if (dist[i] != kInf && bucket_of(dist[i]) == bucket) active_.push_back(i);
  }
}

template class DeltaStepping<std::uint32_t>;
template class DeltaStepping<vertex_t>;

std::unique_ptr<SsspEngine> make_delta_stepping(const mpi::Comm& comm, const Partition1D& part, float delta,
                                                bool ids_32_bit) {
  if (ids_32_bit) return std::make_unique<DeltaStepping<std::uint32_t>>(comm, part, delta);
  return std::make_unique<DeltaStepping<vertex_t>>(comm, part, delta);
}

std::int64_t delta_stepping_memory_bytes(double vertices, double tuples, int ranks, double id_bytes) {
  const double n_local = vertices / ranks + 64, m_local = tuples / ranks + 1;
  double bytes = weighted_csr_1d_build_bytes(vertices, tuples, ranks, id_bytes);
  bytes += 4 * n_local + 4 * n_local + 3 * 8 * n_local;  // distances, light counts; active, round, members
  // relaxation requests (buckets, sent, received): one piece, plus room for a hub's row that ends it
  bytes += 3 * (2 * id_bytes + 4) * std::min(2 * m_local, 2.0 * exchange::kTopDownRound);
  return estimate_to_bytes(bytes);
}

}  // namespace g500
