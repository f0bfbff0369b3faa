#pragma once
// Rules 3, 4 and 5 of a BFS validation, for every tree of a batch at once, on every tuple of this
// rank's share of the edge source, where it is made: no tuple travels.
//
// Rules 3 and 4 read the levels of a tuple's endpoints in the replicated trees (tree_table.hpp).
// Rule 5: a tuple (v, p) with v one level below p, and p's fingerprint equal to the one v keeps of
// its parent, is a candidate tree edge of v; v's owner confirms it if p is v's parent. Only
// candidates travel: about one per vertex, plus the tuples one level apart whose fingerprints match
// by chance (1 in 16 with packed entries).
#include <omp.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "graph/edge_source.hpp"
#include "validate/tree_edge_confirmer.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

constexpr int kMaxBatch = 16;

// One scan over the tuples for the first parents.size() trees of `tree`. Candidate ids travel as
// Id (32-bit whenever N allows: scan_tuples_narrowest).
template <class Entry, class Id>
class TupleScan {
 public:
  TupleScan(const Partition1D& part, const mpi::Comm& comm, const TreeTable<Entry>& tree,
            std::span<const SlotParents> parents)
      : part_(part), comm_(comm), tree_(tree), parents_(parents), slots_(static_cast<int>(parents.size())),
        threads_(omp_get_max_threads()), confirmer_(part, comm, parents),
        tally_(threads_, slots_) {}

  // Collective. Scans the source in rounds of `chunk` tuples; adds to each search's failure and
  // returns each search's count of this rank's nedge.
  std::vector<std::int64_t> run(const EdgeSource& source, std::int64_t chunk, std::span<Failure> failures) {
    scan_in_pieces(source, comm_, chunk, [&](int t, std::span<const Edge> edges) { scan(t, edges); },
                   [&] { confirmer_.confirm_round(); });
    return finish(failures);
  }

 private:
  static constexpr std::int64_t kPrefetchDistance = 16;  // tuples (or candidates) ahead

  // Thread t's tuples against every tree of the batch.
  void scan(int t, std::span<const Edge> edges) {
    if constexpr (std::is_same_v<Entry, PackedEntry>) scan_packed(t, edges);
    else scan_wide(t, edges);
  }

  // Packed entries: a row's slots are one 16-byte vector, so a tuple is checked against every tree
  // of the batch in a few vector steps; only a lane that is a candidate or breaks a rule (a few
  // percent) is looked at alone. The table keeps 16 bytes past its last row for the last load.
  void scan_packed(int t, std::span<const Edge> edges) {
    using Bytes = std::uint8_t __attribute__((vector_size(16)));
    Bytes lane_used{};
    for (int s = 0; s < slots_; ++s) lane_used[s] = 0xff;
    const Bytes low = Bytes{} + 15, one = Bytes{} + 1;
    const Bytes unreached = Bytes{} + static_cast<std::uint8_t>(PackedEntry::kUnreached);
    const TreeTable<Entry>& tree = tree_;
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
    std::int64_t nedge[kMaxBatch] = {};
    Bytes counted{};  // both ends reached, per lane, since the last flush (255 at most)
    int unflushed = 0;
    const auto flush = [&] {
      for (int s = 0; s < slots_; ++s) nedge[s] += counted[s];
      counted = Bytes{};
      unflushed = 0;
    };
    for (std::int64_t k = 0; k < n; ++k) {
      if (k + kPrefetchDistance < n) {
        __builtin_prefetch(tree.row(edges[k + kPrefetchDistance].u));
        __builtin_prefetch(tree.row(edges[k + kPrefetchDistance].v));
      }
      const vertex_t u = edges[k].u, v = edges[k].v;
      Bytes eu, ev;
      std::memcpy(&eu, tree.row(u), sizeof eu);
      std::memcpy(&ev, tree.row(v), sizeof ev);
      const Bytes lu = eu & low, lv = ev & low, fu = eu >> 4, fv = ev >> 4;
      const Bytes in_u = (Bytes)(lu != unreached) & lane_used, in_v = (Bytes)(lv != unreached) & lane_used;
      const Bytes both = in_u & in_v;
      const Bytes u_below = both & (Bytes)(lu == lv + one);
      const Bytes v_below = both & (Bytes)(lv == lu + one);
      const Bytes up = u_below & (Bytes)(fu == Bytes{} + static_cast<std::uint8_t>(Entry::fingerprint_of(v)));
      const Bytes down = v_below & (Bytes)(fv == Bytes{} + static_cast<std::uint8_t>(Entry::fingerprint_of(u)));
      const Bytes broken = (in_u ^ in_v) | (both & ~(Bytes)(lu == lv) & ~u_below & ~v_below);
      counted -= both;  // lanes of -1
      if (++unflushed == 255) flush();
      const Bytes any = up | down | broken;
      std::uint64_t halves[2];
      std::memcpy(halves, &any, sizeof halves);
      if (__builtin_expect((halves[0] | halves[1]) != 0, 0)) {
        for (int s = 0; s < slots_; ++s) {
          if (!any[s]) continue;
          if (up[s]) candidate(t, s, u, v);
          else if (down[s]) candidate(t, s, v, u);
          else report(t, s, u, v, in_u[s] != 0, in_v[s] != 0, lu[s], lv[s]);
        }
      }
    }
    flush();
    for (int s = 0; s < slots_; ++s) tally_.nedge(t, s) += nedge[s];
  }

  // Wider entries, a slot at a time.
  void scan_wide(int t, std::span<const Edge> edges) {
    std::int64_t nedge[kMaxBatch] = {};
    const TreeTable<Entry>& tree = tree_;  // locals: the candidates' pushes cannot change them
    const int slots = slots_;
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
    for (std::int64_t k = 0; k < n; ++k) {
      if (k + kPrefetchDistance < n) {
        __builtin_prefetch(tree.row(edges[k + kPrefetchDistance].u));
        __builtin_prefetch(tree.row(edges[k + kPrefetchDistance].v));
      }
      const vertex_t u = edges[k].u, v = edges[k].v;
      const Entry* const row_u = tree.row(u);
      const Entry* const row_v = tree.row(v);
      const std::uint32_t fp_u = Entry::fingerprint_of(u), fp_v = Entry::fingerprint_of(v);
      for (int s = 0; s < slots; ++s) {
        const Entry eu = row_u[s], ev = row_v[s];
        // Without branches on the levels, which vary at random from tuple to tuple; only a broken
        // rule or a candidate (a few percent of tuples) branches.
        const std::uint32_t lu = eu.level(), lv = ev.level();
        const bool in_u = lu != Entry::kUnreached, in_v = lv != Entry::kUnreached;
        const std::int64_t diff = std::int64_t{lu} - std::int64_t{lv};
        const bool both = in_u & in_v;
        nedge[s] += both;
        const bool up = both & (diff == 1) & (eu.fingerprint() == fp_v);
        const bool down = both & (diff == -1) & (ev.fingerprint() == fp_u);
        if (__builtin_expect(up | down, 0)) {
          if (up) candidate(t, s, u, v);
          else candidate(t, s, v, u);
        }
        const bool broken = (in_u != in_v) | (both & (diff * diff > 1));
        if (__builtin_expect(broken, 0)) report(t, s, u, v, in_u, in_v, lu, lv);
      }
    }
    for (int s = 0; s < slots; ++s) tally_.nedge(t, s) += nedge[s];
  }

  // A tuple that breaks rule 3 or 4 for search s.
  void report(int t, int s, vertex_t u, vertex_t v, bool in_u, bool in_v, std::uint32_t lu, std::uint32_t lv) {
    Failure& f = tally_.failure(t, s);
    if (in_u != in_v) {
      f.set(4, joins_reached_to_unreached(u, v, in_u));
    } else {
      f.set(3, "edge (" + vid(u) + ", " + vid(v) + ") spans levels " + std::to_string(lu) + " and " +
                   std::to_string(lv));
    }
  }

  void candidate(int t, int s, vertex_t child, vertex_t parent) { confirmer_.candidate(t, s, child, parent); }

  // The threads' counts and failures summed per search, and rule 5 for every reached vertex of
  // this rank whose tree edge no tuple confirmed.
  std::vector<std::int64_t> finish(std::span<Failure> failures) const {
    const std::vector<std::int64_t> nedge = tally_.sum(failures);
    const Entry* const rows = tree_.row(part_.begin());
    const int slots = tree_.slots();
    confirmer_.first_unconfirmed(
        [&](local_t i, int s) {
          const std::uint32_t level = rows[i * slots + s].level();
          return level != Entry::kUnreached && level > 0;
        },
        [&](int s, local_t i) {
          failures[s].set(5, "vertex " + vid(part_.to_global(i)) + " has parent " + vid(parents_[s][i]) +
                                 ", which no input edge joins it to");
        });
    return nedge;
  }

  const Partition1D& part_;
  const mpi::Comm& comm_;
  const TreeTable<Entry>& tree_;
  std::span<const SlotParents> parents_;
  int slots_, threads_;
  TreeEdgeConfirmer<Id> confirmer_;
  BatchTally tally_;
};

// A TupleScan with candidates in 32-bit ids whenever N allows.
template <class Entry>
std::vector<std::int64_t> scan_tuples_narrowest(const EdgeSource& source, const Partition1D& part,
                                                const mpi::Comm& comm, const TreeTable<Entry>& tree,
                                                std::span<const SlotParents> parents, std::int64_t chunk,
                                                std::span<Failure> failures) {
  if (fits_32_bit(part.num_vertices()))
    return TupleScan<Entry, std::uint32_t>(part, comm, tree, parents).run(source, chunk, failures);
  return TupleScan<Entry, vertex_t>(part, comm, tree, parents).run(source, chunk, failures);
}

}  // namespace g500::validation
