#pragma once
// Brings every tuple of the edge source to the owners of both its endpoints in turn, so that what a
// validator keeps of each vertex (its level or distance in every search of a batch) stays with the
// vertex's owner: O(N/P) a rank, at any scale. A tuple (u, v) made on one rank goes to u's owner,
// which reads u's row (the vertex's entries for the whole batch), and on with that row to v's
// owner, which checks the tuple against v's row. A tuple whose v is this rank's is turned round
// first so that its first hop stays here; on one rank no tuple travels. The source is read in
// rounds of `chunk` tuples a rank, which bound the buffers.
//
// The table gives rows by local index: `Row row(local_t)` and `const void* address(local_t)` (for
// prefetching). check(thread, u, v, weight, u's row, v's local index) runs on v's owner.
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/padded.hpp"
#include "exchange/owner_buckets.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"

namespace g500::validation {

// The share of a rank's tuples that travel, on ranks that each hold 1/P of the vertices: to a first
// owner elsewhere when neither end is here, to a second owner when the ends live apart. For the
// memory estimate.
struct RoutedShare {
  explicit RoutedShare(int ranks) : apart(1.0 - 1.0 / ranks), neither_here(apart * apart) {}
  // Bytes a tuple of the round takes in one copy of the buffers, with items of these sizes.
  double bytes(double to_first, double to_second) const { return neither_here * to_first + apart * to_second; }
  double apart, neither_here;
};

// A rank's mean share of the tuples, the same on every rank: what a scan's round is sized from.
inline double tuples_per_rank(const EdgeSource& source, const mpi::Comm& comm) {
  return static_cast<double>(source.global_tuples()) / comm.size();
}

// Id: the width tuples travel at (std::uint32_t whenever N allows).
template <class Row, class Id, bool Weighted>
class RoutedScan {
 public:
  RoutedScan(const Partition1D& part, const mpi::Comm& comm)
      : part_(part), comm_(comm), to_first_(comm.size(), omp_get_max_threads(), "validation.tuples_to_first_owner"),
        to_second_(comm.size(), omp_get_max_threads(), "validation.tuples_to_second_owner"),
        kinds_(omp_get_max_threads()) {}

  // Collective. after_round() runs once a round on every rank, once the round's tuples are checked.
  template <class Table, class Check, class AfterRound>
  void run(const EdgeSource& source, std::int64_t chunk, const Table& table, Check&& check, AfterRound&& after_round) {
    const auto scan = [&](int t, std::span<const Edge> edges, std::span<const float> weights) {
      const std::int64_t n = static_cast<std::int64_t>(edges.size());
      Kinds& kinds = sort_by_kind(t, n, [&](std::int64_t k) {
        return tuple_of(edges[k].u, edges[k].v, Weighted ? weights[k] : 0.0f);
      });
      handle(t, kinds, table, check);
    };
    const auto end_round = [&] {
      to_first_.exchange(comm_, first_);
      for_each_piece(first_, [&](int t, const Tuple* items, std::int64_t n) {
        Kinds& kinds = sort_by_kind(t, n, [&](std::int64_t k) { return items[k]; });
        handle(t, kinds, table, check);
      });
      to_second_.exchange(comm_, second_);
      for_each_piece(second_, [&](int t, const Second* items, std::int64_t n) {
        for (std::int64_t k = 0; k < n; ++k) {
          if (k + kPrefetchDistance < n) __builtin_prefetch(table.address(part_.to_local(items[k + kPrefetchDistance].tuple.v)));
          const Second& x = items[k];
          check(t, x.tuple.u, x.tuple.v, x.tuple.w, x.row_u, part_.to_local(x.tuple.v));
        }
      });
      after_round();
    };
    if constexpr (Weighted) {
      scan_weighted_in_pieces(source, comm_, chunk, scan, end_round);
    } else {
      scan_in_pieces(source, comm_, chunk, [&](int t, std::span<const Edge> edges) { scan(t, edges, {}); }, end_round);
    }
  }

 private:
  // A tuple on its way to its first owner, with its weight when Weighted.
  struct Unweighted {
    Id u, v;
    static constexpr float w = 0;
  };
  struct WithWeight {
    Id u, v;
    float w;
  };
  using Tuple = std::conditional_t<Weighted, WithWeight, Unweighted>;
  static Tuple tuple_of(vertex_t u, vertex_t v, float w) {
    if constexpr (Weighted) return {static_cast<Id>(u), static_cast<Id>(v), w};
    else return {static_cast<Id>(u), static_cast<Id>(v)};
  }
  struct Second {
    Tuple tuple;
    Row row_u;
  };
  static constexpr std::int64_t kPrefetchDistance = 32;

  // A piece's tuples by what they need: both ends here (checked here), the first end here (its row
  // goes on with it), the first end elsewhere (it goes there first).
  struct Kinds {
    std::vector<Tuple> both_here, first_here, first_away;  // turned round when only v is here
    std::array<std::int64_t, 3> count{};                   // the piece's tuples of each
  };

  // Sorts n tuples (tuple(k) gives each) into this thread's kinds, without a branch on where their
  // ends live, which is a coin toss from tuple to tuple.
  template <class TupleAt>
  Kinds& sort_by_kind(int t, std::int64_t n, TupleAt&& tuple) {
    Kinds& kinds = kinds_[t].value;
    for (std::vector<Tuple>* list : {&kinds.both_here, &kinds.first_here, &kinds.first_away})
      if (static_cast<std::int64_t>(list->size()) < n) list->resize(static_cast<std::size_t>(n));
    Tuple* const out[3] = {kinds.both_here.data(), kinds.first_here.data(), kinds.first_away.data()};
    std::array<std::int64_t, 3>& count = kinds.count;
    count = {0, 0, 0};
    for (std::int64_t k = 0; k < n; ++k) {
      Tuple x = tuple(k);
      const Id a = x.u, b = x.v;
      const bool u_here = part_.owns(static_cast<vertex_t>(a)), v_here = part_.owns(static_cast<vertex_t>(b));
      const bool turn = !u_here & v_here;
      x.u = turn ? b : a;
      x.v = turn ? a : b;
      const int kind = 2 - static_cast<int>(u_here | v_here) - static_cast<int>(u_here & v_here);
      out[kind][count[kind]++] = x;
    }
    return kinds;
  }

  // Each kind in a loop of its own, rows prefetched ahead.
  template <class Table, class Check>
  void handle(int t, const Kinds& kinds, const Table& table, Check& check) {
    const std::array<std::int64_t, 3> count = kinds.count;
    const Tuple* const here = kinds.both_here.data();
    const auto local = [&](Id id) { return part_.to_local(static_cast<vertex_t>(id)); };
    for (std::int64_t k = 0; k < count[0]; ++k) {
      if (k + kPrefetchDistance < count[0]) {
        __builtin_prefetch(table.address(local(here[k + kPrefetchDistance].u)));
        __builtin_prefetch(table.address(local(here[k + kPrefetchDistance].v)));
      }
      check(t, here[k].u, here[k].v, here[k].w, table.row(local(here[k].u)), local(here[k].v));
    }
    const Tuple* const first = kinds.first_here.data();
    for (std::int64_t k = 0; k < count[1]; ++k) {
      if (k + kPrefetchDistance < count[1]) __builtin_prefetch(table.address(local(first[k + kPrefetchDistance].u)));
      // Made in place: a Second built aside and copied in stalls on its own halves.
      Second& second = to_second_.add(t, part_.owner(static_cast<vertex_t>(first[k].v)));
      second.tuple = first[k];
      second.row_u = table.row(local(first[k].u));
    }
    const Tuple* const away = kinds.first_away.data();
    for (std::int64_t k = 0; k < count[2]; ++k) to_first_.push(t, part_.owner(static_cast<vertex_t>(away[k].u)), away[k]);
  }

  // visit(thread, items, n) for the items that arrived, in pieces spread over the threads.
  template <class Item, class Visit>
  void for_each_piece(const std::vector<Item>& items, Visit&& visit) const {
    constexpr std::int64_t kPiece = 4096;
    const std::int64_t n = static_cast<std::int64_t>(items.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t first = 0; first < n; first += kPiece)
      visit(omp_get_thread_num(), items.data() + first, std::min(kPiece, n - first));
  }

  const Partition1D& part_;
  const mpi::Comm& comm_;
  exchange::OwnerBuckets<Tuple> to_first_;
  exchange::OwnerBuckets<Second> to_second_;
  std::vector<Tuple> first_;
  std::vector<Second> second_;
  std::vector<Padded<Kinds>> kinds_;  // by thread
};

}  // namespace g500::validation
