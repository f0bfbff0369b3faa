#pragma once
// Rules 3, 4 and 5 of an SSSP validation, for every search of a batch at once, on every tuple (with
// its weight) of this rank's share of the edge source, where it is made: no tuple travels.
//
// Rules 3 and 4 read the distances of a tuple's endpoints in the replicated table. Rule 5: a tuple
// (v, p, w) with d(v) == d(p) + w is a candidate tree edge of v; v's owner confirms it if p is v's
// parent. Only candidates travel: with random weights, about one per reached vertex.
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "exchange/column_gather.hpp"
#include "graph/edge_source.hpp"
#include "validate/failure.hpp"
#include "validate/tree_edge_confirmer.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

// Every vertex's distance in each search of a batch, on every rank: search s's distance of v at
// v * slots + s. An unreached vertex holds +infinity, whatever its owner's array held.
class DistanceTable {
 public:
  static constexpr int kLanes = 16;  // the most slots; a row is loaded as kLanes floats
  DistanceTable(vertex_t n, int slots) : slots_(slots), d_(static_cast<std::size_t>(n) * slots + kLanes) {}
  int slots() const { return slots_; }
  const float* row(vertex_t v) const { return d_.data() + static_cast<std::size_t>(v) * slots_; }
  float at(vertex_t v, int s) const { return row(v)[s]; }

  // Collective: this rank's distances of search `slot` to every rank.
  void fill(const Partition1D& part, const mpi::Comm& comm, int slot, std::span<const float> dist) {
    const vertex_t begin = part.begin();
    constexpr float kInf = std::numeric_limits<float>::infinity();
#pragma omp parallel for schedule(static)
    for (local_t i = 0; i < part.local_count(); ++i)
      d_[static_cast<std::size_t>(begin + i) * slots_ + slot] = std::isfinite(dist[i]) ? dist[i] : kInf;
    exchange::gather_column_inplace(comm, d_.data() + slot, slots_, part.vertex_counts(), part.vertex_displs());
  }

 private:
  int slots_;
  big_vector<float> d_;
};

// One scan over the tuples for the first parents.size() searches of `table`.
template <class Id>
class DistanceScan {
 public:
  DistanceScan(const Partition1D& part, const mpi::Comm& comm, const DistanceTable& table,
               std::span<const SlotParents> parents, std::span<const vertex_t> roots)
      : part_(part), comm_(comm), table_(table), parents_(parents), roots_(roots),
        slots_(static_cast<int>(parents.size())), threads_(omp_get_max_threads()), confirmer_(part, comm, parents),
        tally_(threads_, slots_) {}

  // Collective. Adds to each search's failure and returns each search's count of this rank's nedge.
  std::vector<std::int64_t> run(const EdgeSource& source, std::int64_t chunk, std::span<Failure> failures) {
    scan_weighted_in_pieces(
        source, comm_, chunk, [&](int t, std::span<const Edge> edges, std::span<const float> w) { scan(t, edges, w); },
        [&] { confirmer_.confirm_round(); });
    return finish(failures);
  }

 private:
  using Floats = float __attribute__((vector_size(4 * DistanceTable::kLanes)));
  using Mask = std::int32_t __attribute__((vector_size(4 * DistanceTable::kLanes)));
  static constexpr std::int64_t kPrefetchDistance = 16;

  // Thread t's tuples against every search: a row's slots are one vector, so a tuple is checked in
  // a few vector steps; only a lane that is a candidate or breaks a rule is looked at alone.
  void scan(int t, std::span<const Edge> edges, std::span<const float> weights) {
    Mask used{};
    for (int s = 0; s < slots_; ++s) used[s] = -1;
    const Floats inf = Floats{} + std::numeric_limits<float>::infinity();
    const DistanceTable& table = table_;
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
    Mask counted{};  // both ends reached, per lane (as -1 each)
    for (std::int64_t k = 0; k < n; ++k) {
      if (k + kPrefetchDistance < n) {
        __builtin_prefetch(table.row(edges[k + kPrefetchDistance].u));
        __builtin_prefetch(table.row(edges[k + kPrefetchDistance].v));
      }
      const vertex_t u = edges[k].u, v = edges[k].v;
      Floats du, dv;
      std::memcpy(&du, table.row(u), sizeof du);
      std::memcpy(&dv, table.row(v), sizeof dv);
      const Mask in_u = (du < inf) & used, in_v = (dv < inf) & used;
      const Mask both = in_u & in_v;
      counted += both;
      if (u == v) continue;  // a self-loop counts, and proves nothing
      const Floats w = Floats{} + weights[k];
      const Floats via_u = du + w, via_v = dv + w;
      const Mask v_child = both & (dv == via_u), u_child = both & (du == via_v);
      const Mask broken = (in_u ^ in_v) | (both & ((via_u < dv) | (via_v < du)));
      const Mask any = v_child | u_child | broken;
      std::uint64_t words[sizeof(Mask) / 8];
      std::memcpy(words, &any, sizeof words);
      std::uint64_t seen = 0;
      for (std::uint64_t word : words) seen |= word;
      if (__builtin_expect(seen != 0, 0)) {
        for (int s = 0; s < slots_; ++s) {
          if (broken[s]) report(t, s, u, v, weights[k], in_u[s] != 0, du[s], dv[s]);
          if (v_child[s]) confirmer_.candidate(t, s, v, u);
          if (u_child[s]) confirmer_.candidate(t, s, u, v);
        }
      }
    }
    for (int s = 0; s < slots_; ++s) tally_.nedge(t, s) -= counted[s];
  }

  // A tuple that breaks rule 3 or 4 for search s.
  void report(int t, int s, vertex_t u, vertex_t v, float w, bool in_u, float du, float dv) {
    Failure& f = tally_.failure(t, s);
    const bool in_v = dv < std::numeric_limits<float>::infinity();
    if (in_u != in_v) {
      f.set(4, joins_reached_to_unreached(u, v, in_u));
    } else if (f.wants(3)) {
      f.set(3, "edge (" + vid(u) + ", " + vid(v) + ") of weight " + std::to_string(w) +
                   " breaks the triangle rule: distances " + std::to_string(du) + " and " + std::to_string(dv));
    }
  }

  // The threads' counts and failures summed per search, and rule 5 for every reached vertex of
  // this rank but the root whose tree edge no tuple confirmed.
  std::vector<std::int64_t> finish(std::span<Failure> failures) const {
    const std::vector<std::int64_t> nedge = tally_.sum(failures);
    const vertex_t begin = part_.begin();
    confirmer_.first_unconfirmed(
        [&](local_t i, int s) {
          return table_.at(begin + i, s) < std::numeric_limits<float>::infinity() && begin + i != roots_[s];
        },
        [&](int s, local_t i) {
          failures[s].set(5, "vertex " + vid(part_.to_global(i)) + " has parent " + vid(parents_[s][i]) +
                                 " at distance " + std::to_string(table_.at(begin + i, s)) +
                                 ", which no input edge of that weight joins it to");
        });
    return nedge;
  }

  const Partition1D& part_;
  const mpi::Comm& comm_;
  const DistanceTable& table_;
  std::span<const SlotParents> parents_;
  std::span<const vertex_t> roots_;
  int slots_, threads_;
  TreeEdgeConfirmer<Id> confirmer_;
  BatchTally tally_;
};

}  // namespace g500::validation
