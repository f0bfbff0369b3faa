#include "validate/sssp_validator.hpp"

#include <omp.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "exchange/owner_buckets.hpp"
#include "validate/failure.hpp"
#include "validate/tuple_relay.hpp"

namespace g500 {
namespace {

std::string distance(float d) { return std::to_string(d); }

// Rule 1 on this rank's vertices.
void check_roots_and_ranges(const Partition1D& part, vertex_t root, std::span<const vertex_t> parents,
                            std::span<const float> dist, Failure& failure) {
  for (local_t i = 0; i < part.local_count(); ++i) {
    const vertex_t v = part.to_global(i), p = parents[i];
    const bool finite = std::isfinite(dist[i]);
    if (p != kNoParent && (p < 0 || p >= part.num_vertices())) {
      failure.set(1, "vertex " + vid(v) + " has parent " + vid(p) + ", not a vertex id");
    } else if ((p != kNoParent) != finite) {
      failure.set(1, "vertex " + vid(v) + " has parent " + vid(p) + " but distance " + distance(dist[i]));
    } else if (v == root && (p != root || dist[i] != 0.0f)) {
      failure.set(1, "the root " + vid(root) + " has parent " + vid(p) + " and distance " + distance(dist[i]) +
                         ", not itself and 0");
    } else if (finite && dist[i] < 0) {
      failure.set(1, "vertex " + vid(v) + " has a negative distance " + distance(dist[i]));
    }
  }
}

template <class Id>
std::int64_t scan_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                         std::span<const vertex_t> parents, std::span<const float> dist, std::int64_t chunk,
                         Failure& failure) {
  struct Note {
    Id parent;
    float dist;
  };
  const int threads = omp_get_max_threads();
  std::vector<std::uint8_t> confirmed(part.local_count(), 0);
  const auto confirm = [&](local_t i) { std::atomic_ref<std::uint8_t>(confirmed[i]).store(1, std::memory_order_relaxed); };
  exchange::OwnerBuckets<Id> confirmations(comm.size(), threads, "validation.sssp_confirmations");
  std::vector<Failure> thread_failure(threads);
  std::vector<std::int64_t> thread_nedge(threads, 0);
  relay_tuples<Id, Note, float>(
      source, part, comm, chunk,
      [&](local_t i, vertex_t, vertex_t, float) { return Note{static_cast<Id>(parents[i]), dist[i]}; },
      [&](int t, local_t j, vertex_t v, vertex_t u, const Note& nu, float w) {
        // Rule 1 has passed: a vertex is reached exactly when its distance is finite.
        const bool in_u = std::isfinite(nu.dist), in_v = std::isfinite(dist[j]);
        Failure& f = thread_failure[t];
        if (in_u != in_v) {
          if (f.wants(4)) {
            const vertex_t in = in_u ? u : v, out = in_u ? v : u;
            f.set(4, "edge (" + vid(u) + ", " + vid(v) + ") joins reached vertex " + vid(in) +
                         " to unreached vertex " + vid(out));
          }
          return;
        }
        if (!in_u) return;
        ++thread_nedge[t];
        if (u == v) return;
        const float dv = dist[j], du = nu.dist;
        if ((du + w < dv || dv + w < du) && f.wants(3)) {
          f.set(3, "edge (" + vid(u) + ", " + vid(v) + ") of weight " + distance(w) + " breaks the triangle rule: " +
                       "distances " + distance(du) + " and " + distance(dv));
        }
        if (parents[j] == u && dv == du + w) confirm(j);
        if (nu.parent == static_cast<Id>(v) && du == dv + w) {
          const int owner = part.owner(u);
          if (owner == comm.rank()) confirm(part.to_local(u));
          else confirmations.push(t, owner, static_cast<Id>(u));
        }
      },
      [&](local_t i) { __builtin_prefetch(&parents[i]); });
  std::vector<Id> arrived;
  confirmations.exchange(comm, arrived);
  for (Id u : arrived) confirmed[part.to_local(static_cast<vertex_t>(u))] = 1;
  std::int64_t nedge = 0;
  for (int t = 0; t < threads; ++t) {
    nedge += thread_nedge[t];
    if (thread_failure[t].rule) failure.set(thread_failure[t].rule, thread_failure[t].message);
  }
  for (local_t i = 0; i < part.local_count(); ++i) {
    if (parents[i] != kNoParent && part.to_global(i) != root && !confirmed[i]) {
      failure.set(5, "vertex " + vid(part.to_global(i)) + " has parent " + vid(parents[i]) + " at distance " +
                         distance(dist[i]) + ", which no input edge of that weight joins it to");
      break;
    }
  }
  return nedge;
}

}  // namespace

ValidationResult validate_sssp(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                               vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist,
                               std::int64_t chunk) {
  if (!source.has_weights()) throw std::logic_error("SSSP validation needs an edge source with weights");
  Failure failure;
  check_roots_and_ranges(part, root, parents, dist, failure);
  if (part.owns(root) && parents[part.to_local(root)] == kNoParent) {
    failure.set(1, "the root " + vid(root) + " was not reached");
  }
  Failure agreed = agree(comm, failure);
  if (agreed.rule) return {false, agreed.rule, agreed.message, 0};
  const std::int64_t nedge = fits_32_bit(part.num_vertices())
                                 ? scan_tuples<std::uint32_t>(source, part, comm, root, parents, dist, chunk, failure)
                                 : scan_tuples<vertex_t>(source, part, comm, root, parents, dist, chunk, failure);
  agreed = agree(comm, failure);
  if (agreed.rule) return {false, agreed.rule, agreed.message, 0};
  return {true, 0, "", comm.allreduce(nedge, mpi::Op::sum)};
}

}  // namespace g500
