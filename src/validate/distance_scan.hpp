#pragma once
// Rules 3, 4 and 5 of an SSSP validation, for every search of a batch at once, on every tuple (with
// its weight) of the edge source, checked as it passes its endpoints' owners
// (validate/routed_scan.hpp): u's owner adds u's distances in the batch's searches, v's owner
// checks the tuple against v's.
//
// Rule 5: a tuple (v, p, w) with d(v) == d(p) + w is a candidate tree edge of v; v's owner
// confirms it if p is v's parent. With random weights, about one per reached vertex.
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "core/padded.hpp"
#include "graph/edge_source.hpp"
#include "validate/failure.hpp"
#include "validate/routed_scan.hpp"
#include "validate/tree_edge_confirmer.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

// This rank's vertices' distances in each search of a batch: search s's distance of local vertex
// i at i * slots + s. An unreached vertex holds +infinity, whatever its owner's array held. A row
// travels with a tuple as kLanes floats (lanes past the batch ignored).
class DistanceTable {
 public:
  static constexpr int kLanes = 16;  // the most slots; a row is loaded as kLanes floats
  struct Row {
    float d[kLanes];
  };
  DistanceTable(local_t n_local, int slots) : slots_(slots), d_(static_cast<std::size_t>(n_local) * slots + kLanes) {}
  int slots() const { return slots_; }
  const float* row_data(local_t i) const { return d_.data() + static_cast<std::size_t>(i) * slots_; }
  Row row(local_t i) const {
    Row r;
    std::memcpy(&r, row_data(i), sizeof r);
    return r;
  }
  const void* address(local_t i) const { return row_data(i); }
  float at(local_t i, int s) const { return row_data(i)[s]; }

  // This rank's distances of search `slot`.
  void fill(int slot, std::span<const float> dist) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const std::int64_t count = static_cast<std::int64_t>(dist.size());
#pragma omp parallel for schedule(static)
    for (local_t i = 0; i < count; ++i)
      d_[static_cast<std::size_t>(i) * slots_ + slot] = std::isfinite(dist[i]) ? dist[i] : kInf;
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
      : part_(part), table_(table), parents_(parents), roots_(roots),
        slots_(static_cast<int>(parents.size())), threads_(omp_get_max_threads()), route_(part, comm),
        confirmer_(part, comm, parents), tally_(threads_, slots_), counted_(threads_) {
    for (int s = 0; s < slots_; ++s) used_[s] = -1;
  }

  // Collective. Adds to each search's failure and returns each search's count of the nedge this
  // rank checked.
  std::vector<std::int64_t> run(const EdgeSource& source, std::int64_t chunk, std::span<Failure> failures) {
    route_.run(
        source, chunk, table_,
        [&](int t, vertex_t u, vertex_t v, float w, const Row& row_u, local_t v_local) {
          check(t, u, v, w, row_u, table_.row(v_local));
        },
        [&] { confirmer_.confirm_round(); });
    for (int t = 0; t < threads_; ++t) flush(t);
    return finish(failures);
  }

 private:
  using Row = DistanceTable::Row;
  using Floats = float __attribute__((vector_size(4 * DistanceTable::kLanes)));
  using Mask = std::int32_t __attribute__((vector_size(4 * DistanceTable::kLanes)));

  // A tuple against every search: a row's slots are one vector, so a tuple is checked in a few
  // vector steps; only a lane that is a candidate or breaks a rule is looked at alone.
  [[gnu::always_inline]] void check(int t, vertex_t u, vertex_t v, float weight, const Row& row_u, const Row& row_v) {
    static_assert(sizeof(Row) == sizeof(Floats));
    const Floats inf = Floats{} + std::numeric_limits<float>::infinity();
    Floats du, dv;
    std::memcpy(&du, &row_u, sizeof du);
    std::memcpy(&dv, &row_v, sizeof dv);
    const Mask in_u = (du < inf) & used_, in_v = (dv < inf) & used_;
    const Mask both = in_u & in_v;
    Counted& counted = counted_[t].value;
    counted.both += both;  // lanes of -1
    if (++counted.tuples == kFlushEvery) flush(t);
    if (u == v) return;  // a self-loop counts, and proves nothing
    const Floats w = Floats{} + weight;
    const Floats via_u = du + w, via_v = dv + w;
    const Mask v_child = both & (dv == via_u), u_child = both & (du == via_v);
    const Mask broken = (in_u ^ in_v) | (both & ((via_u < dv) | (via_v < du)));
    const Mask any = v_child | u_child | broken;
    if (__builtin_expect(!is_zero(any), 0)) {
      std::uint32_t child_v = 0, child_u = 0;  // a candidate's searches go as one
      for (int s = 0; s < slots_; ++s) {
        if (broken[s]) report(t, s, u, v, weight, in_u[s] != 0, du[s], dv[s]);
        child_v |= static_cast<std::uint32_t>(v_child[s] != 0) << s;
        child_u |= static_cast<std::uint32_t>(u_child[s] != 0) << s;
      }
      if (child_v) confirmer_.candidate(t, child_v, v, u);
      if (child_u) confirmer_.candidate(t, child_u, u, v);
    }
  }

  // A thread's count of tuples with both ends reached, per lane (as -1 each), since its last flush.
  struct Counted {
    Mask both{};
    std::int64_t tuples = 0;
  };
  static constexpr std::int64_t kFlushEvery = std::int64_t{1} << 30;  // before a lane could overflow

  void flush(int t) {
    Counted& counted = counted_[t].value;
    for (int s = 0; s < slots_; ++s) tally_.nedge(t, s) -= counted.both[s];
    counted = Counted{};
  }

  static bool is_zero(const Mask& m) {
    std::uint64_t words[sizeof(Mask) / 8];
    std::memcpy(words, &m, sizeof words);
    std::uint64_t seen = 0;
    for (std::uint64_t word : words) seen |= word;
    return seen == 0;
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
          return table_.at(i, s) < std::numeric_limits<float>::infinity() && begin + i != roots_[s];
        },
        [&](int s, local_t i) {
          failures[s].set(5, "vertex " + vid(part_.to_global(i)) + " has parent " + vid(parents_[s][i]) +
                                 " at distance " + std::to_string(table_.at(i, s)) +
                                 ", which no input edge of that weight joins it to");
        });
    return nedge;
  }

  const Partition1D& part_;
  const DistanceTable& table_;
  std::span<const SlotParents> parents_;
  std::span<const vertex_t> roots_;
  int slots_, threads_;
  RoutedScan<Row, Id, true> route_;
  TreeEdgeConfirmer<Id> confirmer_;
  BatchTally tally_;
  std::vector<Padded<Counted>> counted_;
  Mask used_{};  // -1 in the batch's lanes
};

}  // namespace g500::validation
