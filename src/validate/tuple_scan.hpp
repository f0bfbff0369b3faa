#pragma once
// Rules 3, 4 and 5 of a BFS validation, for every tree of a batch at once, on every tuple of the
// edge source, checked as it passes its endpoints' owners (validate/routed_scan.hpp): u's owner
// adds u's row of the batch's trees, v's owner checks the tuple against v's row.
//
// Rules 3 and 4 compare the endpoints' levels. Rule 5: a tuple (v, p) with v one level below p,
// and p's fingerprint equal to the one v keeps of its parent, is a candidate tree edge of v; v's
// owner confirms it if p is v's parent. Only candidates travel on: about one per vertex, plus the
// tuples one level apart whose fingerprints match by chance (1 in 16 with packed entries).
#include <omp.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "core/padded.hpp"
#include "graph/edge_source.hpp"
#include "validate/routed_scan.hpp"
#include "validate/tree_edge_confirmer.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

constexpr int kMaxBatch = 16;

// One scan over the tuples for the first parents.size() trees of `tree`. Tuples and candidate ids
// travel as Id (32-bit whenever N allows: scan_tuples_narrowest).
template <class Entry, class Id>
class TupleScan {
 public:
  using Row = typename TreeTable<Entry>::Row;

  TupleScan(const Partition1D& part, const mpi::Comm& comm, const TreeTable<Entry>& tree,
            std::span<const SlotParents> parents)
      : part_(part), tree_(tree), parents_(parents), slots_(static_cast<int>(parents.size())),
        threads_(omp_get_max_threads()), route_(part, comm), confirmer_(part, comm, parents), tally_(threads_, slots_),
        lanes_(threads_) {
    for (int s = 0; s < slots_; ++s) lane_used_[s] = 0xff;
  }

  // Collective. Scans the source in rounds of `chunk` tuples; adds to each search's failure and
  // returns each search's count of the nedge this rank checked.
  std::vector<std::int64_t> run(const EdgeSource& source, std::int64_t chunk, std::span<Failure> failures) {
    route_.run(
        source, chunk, tree_,
        [&](int t, vertex_t u, vertex_t v, float, const Row& row_u, local_t v_local) {
          check(t, u, v, row_u, tree_.row(v_local));
        },
        [&] { confirmer_.confirm_round(); });
    for (int t = 0; t < threads_; ++t) flush(t);
    return finish(failures);
  }

 private:
  using Bytes = std::uint8_t __attribute__((vector_size(16)));
  // A thread's count of tuples with both ends reached, per lane, since its last flush (255 at most).
  struct Lanes {
    Bytes counted{};
    int unflushed = 0;
  };

  [[gnu::always_inline]] void check(int t, vertex_t u, vertex_t v, const Row& row_u, const Row& row_v) {
    if constexpr (std::is_same_v<Entry, PackedEntry>) check_packed(t, u, v, row_u, row_v);
    else check_wide(t, u, v, row_u, row_v);
  }

  // Packed entries: a row's slots are one 16-byte vector, so a tuple is checked against every tree
  // of the batch in a few vector steps; only a lane that is a candidate or breaks a rule (a few
  // percent) is looked at alone.
  [[gnu::always_inline]] void check_packed(int t, vertex_t u, vertex_t v, const Row& row_u, const Row& row_v) {
    static_assert(sizeof(Row) == sizeof(Bytes));
    const Bytes low = Bytes{} + 15, one = Bytes{} + 1;
    const Bytes unreached = Bytes{} + static_cast<std::uint8_t>(PackedEntry::kUnreached);
    Bytes eu, ev;
    std::memcpy(&eu, row_u.bytes, sizeof eu);
    std::memcpy(&ev, row_v.bytes, sizeof ev);
    const Bytes lu = eu & low, lv = ev & low, fu = eu >> 4, fv = ev >> 4;
    const Bytes in_u = (Bytes)(lu != unreached) & lane_used_, in_v = (Bytes)(lv != unreached) & lane_used_;
    const Bytes both = in_u & in_v;
    const Bytes u_below = both & (Bytes)(lu == lv + one);
    const Bytes v_below = both & (Bytes)(lv == lu + one);
    const Bytes up = u_below & (Bytes)(fu == Bytes{} + static_cast<std::uint8_t>(Entry::fingerprint_of(v)));
    const Bytes down = v_below & (Bytes)(fv == Bytes{} + static_cast<std::uint8_t>(Entry::fingerprint_of(u)));
    const Bytes broken = (in_u ^ in_v) | (both & ~(Bytes)(lu == lv) & ~u_below & ~v_below);
    Lanes& lanes = lanes_[t].value;
    lanes.counted -= both;  // lanes of -1
    if (++lanes.unflushed == 255) flush(t);
    // A candidate's searches go as one; a broken lane (rare) is looked at alone.
    if (const unsigned child_u = lane_bits(up)) confirmer_.candidate(t, child_u, u, v);
    if (const unsigned child_v = lane_bits(down)) confirmer_.candidate(t, child_v, v, u);
    for (unsigned lanes_set = lane_bits(broken); lanes_set; lanes_set &= lanes_set - 1) {
      const int s = __builtin_ctz(lanes_set);
      report(t, s, u, v, in_u[s] != 0, in_v[s] != 0, lu[s], lv[s]);
    }
  }

  // Bit s set where lane s of `mask` (each lane 0 or 0xff) is.
  static unsigned lane_bits(Bytes mask) {
    std::uint64_t halves[2];
    std::memcpy(halves, &mask, sizeof halves);
    // Each lane's top bit, gathered eight lanes a half by a multiply (the lanes' bits do not overlap).
    constexpr std::uint64_t kTops = 0x8080808080808080ull, kGather = 0x0002040810204081ull;
    const unsigned low = static_cast<unsigned>(((halves[0] & kTops) * kGather) >> 56);
    const unsigned high = static_cast<unsigned>(((halves[1] & kTops) * kGather) >> 56);
    return low | high << 8;
  }

  void flush(int t) {
    Lanes& lanes = lanes_[t].value;
    for (int s = 0; s < slots_; ++s) tally_.nedge(t, s) += lanes.counted[s];
    lanes = Lanes{};
  }

  // Wider entries: a deep tree, validated alone.
  [[gnu::always_inline]] void check_wide(int t, vertex_t u, vertex_t v, const Row& row_u, const Row& row_v) {
    static_assert(TreeTable<Entry>::kRowEntries == 1);
    const Entry eu = row_u.entry(0), ev = row_v.entry(0);
    const std::uint32_t lu = eu.level(), lv = ev.level();
    const bool in_u = lu != Entry::kUnreached, in_v = lv != Entry::kUnreached;
    const std::int64_t diff = std::int64_t{lu} - std::int64_t{lv};
    const bool both = in_u & in_v;
    tally_.nedge(t, 0) += both;
    const bool up = both & (diff == 1) & (eu.fingerprint() == Entry::fingerprint_of(v));
    const bool down = both & (diff == -1) & (ev.fingerprint() == Entry::fingerprint_of(u));
    if (__builtin_expect(up | down, 0)) {
      if (up) confirmer_.candidate(t, 1, u, v);
      else confirmer_.candidate(t, 1, v, u);
    }
    const bool broken = (in_u != in_v) | (both & (diff * diff > 1));
    if (__builtin_expect(broken, 0)) report(t, 0, u, v, in_u, in_v, lu, lv);
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

  // The threads' counts and failures summed per search, and rule 5 for every reached vertex of
  // this rank whose tree edge no tuple confirmed.
  std::vector<std::int64_t> finish(std::span<Failure> failures) const {
    const std::vector<std::int64_t> nedge = tally_.sum(failures);
    confirmer_.first_unconfirmed(
        [&](local_t i, int s) {
          const std::uint32_t level = tree_.at(i, s).level();
          return level != Entry::kUnreached && level > 0;
        },
        [&](int s, local_t i) {
          failures[s].set(5, "vertex " + vid(part_.to_global(i)) + " has parent " + vid(parents_[s][i]) +
                                 ", which no input edge joins it to");
        });
    return nedge;
  }

  const Partition1D& part_;
  const TreeTable<Entry>& tree_;
  std::span<const SlotParents> parents_;
  int slots_, threads_;
  RoutedScan<Row, Id, false> route_;
  TreeEdgeConfirmer<Id> confirmer_;
  BatchTally tally_;
  std::vector<Padded<Lanes>> lanes_;
  Bytes lane_used_{};  // 0xff in the batch's lanes
};

// A TupleScan with tuples and candidates in 32-bit ids whenever N allows.
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
