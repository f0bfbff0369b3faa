#pragma once
// Visits every tuple of this rank's share of the edge source on the owners of its endpoints, one
// way: the tuple (u, v) goes to the owner of u, which looks at u and adds a note (say, u's
// level); then (v, u, note) goes on to the owner of v, which sees both. Nothing travels back, so a
// tuple costs two messages of two ids (plus the note), against four messages for asking both owners
// and waiting for the answers. Rounds of at most `round` tuples bound the buffers.
#include <omp.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "exchange/owner_buckets.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// Carried along with each tuple when the checks need its weight (kernel 3); nothing by default.
struct NoWeight {};

// Id: the width ids travel at (std::uint32_t when N <= 2^32). Note: what the first owner adds.
// at_first(local index of u, u, v) -> Note runs on the owner of u; at_second(thread, local index
// of v, v, u, note) on the owner of v. With Weight = float, the tuple's weight travels too and
// both get it as a last argument. Both run on many threads at once; prefetch(local index) is
// called a few items ahead of each.
template <class Id, class Note, class Weight = NoWeight, class AtFirst, class AtSecond, class Prefetch>
void relay_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, std::int64_t round,
                  AtFirst&& at_first, AtSecond&& at_second, Prefetch&& prefetch) {
  constexpr bool weighted = !std::is_same_v<Weight, NoWeight>;
  struct ToFirst {
    Id first, second;
    [[no_unique_address]] Weight weight;
  };
  struct ToSecond {
    Id second, first;
    Note note;
    [[no_unique_address]] Weight weight;
  };
  const auto first_note = [&](local_t i, vertex_t first, vertex_t second, Weight w) {
    if constexpr (weighted) return at_first(i, first, second, w);
    else return at_first(i, first, second);
  };
  const auto second_look = [&](int t, local_t j, vertex_t second, vertex_t first, const Note& note, Weight w) {
    if constexpr (weighted) at_second(t, j, second, first, note, w);
    else at_second(t, j, second, first, note);
  };
  constexpr std::int64_t kPrefetchDistance = 16;
  const int me = comm.rank(), threads = omp_get_max_threads();
  exchange::OwnerBuckets<ToFirst> to_first(comm.size(), threads, "validation.tuples_to_first_owner");
  exchange::OwnerBuckets<ToSecond> to_second(comm.size(), threads, "validation.tuples_to_second_owner");
  std::vector<ToFirst> at_first_owner;
  std::vector<ToSecond> at_second_owner;
  // On the owner of `first`: the note, then on to the owner of `second` (or done here).
  const auto first_step = [&](int t, vertex_t first, vertex_t second, Weight w) {
    const Note note = first_note(part.to_local(first), first, second, w);
    const int owner = part.owner(second);
    if (owner == me) second_look(t, part.to_local(second), second, first, note, w);
    else to_second.push(t, owner, ToSecond{static_cast<Id>(second), static_cast<Id>(first), note, w});
  };
  const auto each_round = [&](auto&& visit) {
    if constexpr (weighted) {
      for_each_weighted_round(source, comm, round, visit);
    } else {
      for_each_round(source, comm, round,
                     [&](std::int64_t first, std::span<const Edge> edges) { visit(first, edges, std::span<const float>()); });
    }
  };
  each_round([&](std::int64_t, std::span<const Edge> edges, std::span<const float> weights) {
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        if (i + kPrefetchDistance < n && part.owns(edges[i + kPrefetchDistance].u)) prefetch(part.to_local(edges[i + kPrefetchDistance].u));
        const Edge e = edges[i];
        Weight w{};
        if constexpr (weighted) w = weights[i];
        const int owner = part.owner(e.u);
        if (owner == me) first_step(t, e.u, e.v, w);
        else to_first.push(t, owner, ToFirst{static_cast<Id>(e.u), static_cast<Id>(e.v), w});
      }
    }
    to_first.exchange(comm, at_first_owner);
    const std::int64_t m = static_cast<std::int64_t>(at_first_owner.size());
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < m; ++i) {
        if (i + kPrefetchDistance < m) prefetch(part.to_local(static_cast<vertex_t>(at_first_owner[i + kPrefetchDistance].first)));
        first_step(t, static_cast<vertex_t>(at_first_owner[i].first), static_cast<vertex_t>(at_first_owner[i].second),
                   at_first_owner[i].weight);
      }
    }
    to_second.exchange(comm, at_second_owner);
    const std::int64_t k = static_cast<std::int64_t>(at_second_owner.size());
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < k; ++i) {
        if (i + kPrefetchDistance < k) prefetch(part.to_local(static_cast<vertex_t>(at_second_owner[i + kPrefetchDistance].second)));
        const ToSecond& s = at_second_owner[i];
        const vertex_t second = static_cast<vertex_t>(s.second);
        second_look(t, part.to_local(second), second, static_cast<vertex_t>(s.first), s.note, s.weight);
      }
    }
  });
}

}  // namespace g500
