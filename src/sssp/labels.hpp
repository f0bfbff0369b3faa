#pragma once
// A vertex's label during a search: its tentative distance and the parent that offered it, lowered
// by any thread with one atomic step so the two always agree (a distance with another offer's
// parent fails validation). offer() answers true (kLowered or kReached) only when the distance
// itself dropped, the one case whose edges need relaxing again, and kReached when it was the
// vertex's first finite distance: the reached vertices, unlike the times a distance dropped, do
// not depend on the order offers arrive in, so rules counted on them agree at any rank count.
//
// Ties. An offer is flat when its weight added nothing (a zero weight, or one below half a unit in
// the last place of the parent's distance), so parent and child share a distance. Among offers of
// equal distance a steep one (the parent strictly nearer) beats a flat one, and steep ones keep the
// lowest parent, whatever the thread or rank count. A flat offer never wins a tie: it sets a parent
// only by lowering the distance, after the parent had that distance itself, so following flat
// parents runs back in time and cannot close a cycle; the root, at 0 from the start, keeps itself.
// A vertex reached only by flat offers keeps the first that lowered it, which depends on arrival
// order; finish() lists them for sssp/flat_parents.hpp, which makes their parents deterministic.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <span>
#include <vector>

#include "core/padded.hpp"
#include "core/types.hpp"

namespace g500 {

// Whether an offer of `d` from a parent at `du` is flat (d == du: the weight added nothing).
inline bool is_flat(float du, float d) { return d == du; }

// A relaxation's distance with its flatness in the sign bit (distances are never negative), so a
// request sent to another rank carries it at no cost.
inline float with_flat_bit(float d, bool flat) { return flat ? -d : d; }
inline bool flat_bit(float sent) { return std::signbit(sent); }
inline float without_flat_bit(float sent) { return std::fabs(sent); }

// The indices i < n for which listed(i) holds, ascending, into `out`; listed(i) may also rewrite
// entry i, and runs on all threads.
template <class Listed>
void list_where(std::size_t n, Listed&& listed, std::vector<local_t>& out) {
  out.clear();
#pragma omp parallel
  {
    std::vector<local_t> mine;
#pragma omp for schedule(static) nowait
    for (std::size_t i = 0; i < n; ++i)
      if (listed(i)) mine.push_back(static_cast<local_t>(i));
    if (!mine.empty()) {
#pragma omp critical(g500_list_where)
      out.insert(out.end(), mine.begin(), mine.end());
    }
  }
  std::sort(out.begin(), out.end());
}

// What an offer did (true when the distance dropped).
enum Offered : int { kRefused = 0, kLowered = 1, kReached = 2 };

template <class Column>
class Labels;

// 32-bit ids: one 64-bit word a vertex, (float bits << 1 | flat) << 32 | parent, kept in the
// caller's parents array (a search needs no memory of its own for them). Non-negative floats order
// as their bits do, so the words order as (distance, flat, parent).
template <>
class Labels<std::uint32_t> {
 public:
  void reset(std::span<vertex_t> parents, std::span<float>) {
    cells_ = std::span(reinterpret_cast<std::uint64_t*>(parents.data()), parents.size());
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < cells_.size(); ++i) cells_[i] = kEmpty;
  }
  float dist(local_t v) const { return unpack_dist(std::atomic_ref<std::uint64_t>(cells_[v]).load(std::memory_order_relaxed)); }
  const void* address(local_t v) const { return cells_.data() + v; }  // to prefetch v's label
  // An offer of +infinity (a sum past the largest float) is kept like any other, below the empty
  // label, but never lowers a distance: finish() tells it from unreached.
  Offered offer(local_t v, float d, std::uint32_t parent, bool flat) {
    const std::uint64_t want = pack(d, flat, parent);
    std::atomic_ref<std::uint64_t> cell(cells_[v]);
    std::uint64_t now = cell.load(std::memory_order_relaxed);
    while (want < now) {
      if (flat && (want >> 33) == (now >> 33)) return kRefused;  // a tie: flat offers never win one
      if (cell.compare_exchange_weak(now, want, std::memory_order_relaxed)) {
        const float was = unpack_dist(now);
        return d < was ? (was == kInf ? kReached : kLowered) : kRefused;
      }
    }
    return kRefused;
  }
  // Into the caller's arrays (the parents array holds the labels, each read before it is written):
  // parents (unreached: kNoParent) and distances (unreached: +inf); the vertices whose label is
  // flat into flat(), and whether any offer overflowed into overflowed().
  void finish(std::span<vertex_t> parents, std::span<float> dist) {
    bool overflowed = false;
    list_where(
        cells_.size(),
        [&](std::size_t i) {
          const std::uint64_t c = cells_[i];
          dist[i] = unpack_dist(c);
          const bool reached = dist[i] != kInf;
          if (!reached && c != kEmpty) std::atomic_ref<bool>(overflowed).store(true, std::memory_order_relaxed);
          parents[i] = reached ? static_cast<vertex_t>(static_cast<std::uint32_t>(c)) : kNoParent;
          return reached && (c >> 32 & 1);
        },
        flat_);
    overflowed_ = overflowed;
  }
  // Whether some offer's distance overflowed a float (+infinity) in the search finish() ended.
  bool overflowed() const { return overflowed_; }
  // This rank's reached vertices whose label was flat at finish(), ascending.
  std::span<const local_t> flat() const { return flat_; }

 private:
  static constexpr float kInf = std::numeric_limits<float>::infinity();
  static std::uint64_t pack(float d, bool flat, std::uint32_t p) {
    return (std::uint64_t{std::bit_cast<std::uint32_t>(d)} << 1 | std::uint64_t{flat}) << 32 | p;
  }
  static float unpack_dist(std::uint64_t c) { return std::bit_cast<float>(static_cast<std::uint32_t>(c >> 33)); }
  // pack(+inf, flat, ~0): above every offer.
  static constexpr std::uint64_t kEmpty = (std::uint64_t{0x7f800000} << 1 | 1) << 32 | 0xffffffffu;
  std::span<std::uint64_t> cells_;
  bool overflowed_ = false;
  std::vector<local_t> flat_;
};

// 64-bit ids (N > 2^32, or --ids 64): the caller's two arrays, each change under one of a set of
// striped locks; reads of the distance alone need none. A flat parent carries kFlatParent while
// the search runs (ids stay below 2^42), cleared by finish().
template <>
class Labels<vertex_t> {
 public:
  void reset(std::span<vertex_t> parents, std::span<float> dist) {
    parents_ = parents;
    dist_ = dist;
    std::fill(parents.begin(), parents.end(), kNoParent);
    std::fill(dist.begin(), dist.end(), kInf);
  }
  float dist(local_t v) const { return std::atomic_ref<float>(dist_[v]).load(std::memory_order_relaxed); }
  const void* address(local_t v) const { return dist_.data() + v; }
  // An offer of +infinity sets the parent of a vertex still unreached (the tie below: kNoParent
  // carries kFlatParent), never its distance: finish() tells it from unreached.
  Offered offer(local_t v, float d, vertex_t parent, bool flat) {
    if (d > dist(v)) return kRefused;
    const std::lock_guard<std::mutex> hold(locks_[static_cast<std::size_t>(v) % kStripes].value);
    std::atomic_ref<float> cell(dist_[v]);
    const float now = cell.load(std::memory_order_relaxed);
    if (d < now) {
      cell.store(d, std::memory_order_relaxed);
      parents_[v] = flat ? parent | kFlatParent : parent;
      return now == kInf ? kReached : kLowered;
    }
    // A tie (the parent set, since now is finite): a steep offer beats a flat parent or a higher one.
    if (d == now && !flat && ((parents_[v] & kFlatParent) != 0 || parent < parents_[v])) parents_[v] = parent;
    return kRefused;
  }
  void finish(std::span<vertex_t>, std::span<float>) {
    bool overflowed = false;
    list_where(
        parents_.size(),
        [&](std::size_t i) {
          if (parents_[i] == kNoParent) return false;
          if (dist_[i] == kInf) {  // an overflowed offer's parent
            std::atomic_ref<bool>(overflowed).store(true, std::memory_order_relaxed);
            parents_[i] = kNoParent;
            return false;
          }
          const bool flat = (parents_[i] & kFlatParent) != 0;
          parents_[i] &= ~kFlatParent;
          return flat;
        },
        flat_);
    overflowed_ = overflowed;
  }
  bool overflowed() const { return overflowed_; }
  std::span<const local_t> flat() const { return flat_; }

 private:
  static constexpr float kInf = std::numeric_limits<float>::infinity();
  static constexpr vertex_t kFlatParent = vertex_t{1} << 62;
  static constexpr std::size_t kStripes = 256;
  std::span<vertex_t> parents_;
  std::span<float> dist_;
  bool overflowed_ = false;
  std::vector<local_t> flat_;
  std::vector<Padded<std::mutex>> locks_ = std::vector<Padded<std::mutex>>(kStripes);
};

}  // namespace g500
