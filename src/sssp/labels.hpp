#pragma once
// A vertex's label during a search: its tentative distance and the parent that offered it, lowered
// by any thread with one atomic step so the two always agree (a distance with another offer's
// parent fails validation). Offers compare (distance, parent), so equal distances keep the lowest
// parent whatever the thread count; offer() answers true only when the distance itself dropped,
// the one case whose edges need relaxing again.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <mutex>
#include <span>
#include <vector>

#include "core/padded.hpp"
#include "core/types.hpp"

namespace g500 {

template <class Column>
class Labels;

// 32-bit ids: float bits << 32 | parent, one int64 a vertex, kept in the caller's parents array
// (a search needs no memory of its own for them). Non-negative floats order as their bits do.
template <>
class Labels<std::uint32_t> {
 public:
  void reset(std::span<vertex_t> parents, std::span<float>) {
    cells_ = parents;
    const std::int64_t empty = pack(kInf, ~std::uint32_t{0});
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < cells_.size(); ++i) cells_[i] = empty;
  }
  float dist(local_t v) const { return unpack_dist(std::atomic_ref<vertex_t>(cells_[v]).load(std::memory_order_relaxed)); }
  const void* address(local_t v) const { return cells_.data() + v; }  // to prefetch v's label
  bool offer(local_t v, float d, std::uint32_t parent) {
    const std::int64_t want = pack(d, parent);
    std::atomic_ref<vertex_t> cell(cells_[v]);
    std::int64_t now = cell.load(std::memory_order_relaxed);
    while (want < now) {
      if (cell.compare_exchange_weak(now, want, std::memory_order_relaxed)) return d < unpack_dist(now);
    }
    return false;
  }
  // Into the caller's arrays: parents (unreached: kNoParent) and distances (unreached: +inf).
  void finish(std::span<vertex_t> parents, std::span<float> dist) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      const std::int64_t c = cells_[i];
      dist[i] = unpack_dist(c);
      parents[i] = dist[i] == kInf ? kNoParent : static_cast<vertex_t>(static_cast<std::uint32_t>(c));
    }
  }

 private:
  static constexpr float kInf = std::numeric_limits<float>::infinity();
  static std::int64_t pack(float d, std::uint32_t p) {
    return static_cast<std::int64_t>(std::uint64_t{std::bit_cast<std::uint32_t>(d)} << 32 | p);
  }
  static float unpack_dist(std::int64_t c) { return std::bit_cast<float>(static_cast<std::uint32_t>(c >> 32)); }
  std::span<vertex_t> cells_;
};

// 64-bit ids (N > 2^32, or --ids 64): the caller's two arrays, each change under one of a set of
// striped locks; reads of the distance alone need none.
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
  bool offer(local_t v, float d, vertex_t parent) {
    if (d > dist(v)) return false;
    const std::lock_guard<std::mutex> hold(locks_[static_cast<std::size_t>(v) % kStripes].value);
    std::atomic_ref<float> cell(dist_[v]);
    const float now = cell.load(std::memory_order_relaxed);
    if (d < now || (d == now && parent < parents_[v])) {
      cell.store(d, std::memory_order_relaxed);
      parents_[v] = parent;
      return d < now;
    }
    return false;
  }
  void finish(std::span<vertex_t>, std::span<float>) {}

 private:
  static constexpr float kInf = std::numeric_limits<float>::infinity();
  static constexpr std::size_t kStripes = 256;
  std::span<vertex_t> parents_;
  std::span<float> dist_;
  std::vector<Padded<std::mutex>> locks_ = std::vector<Padded<std::mutex>>(kStripes);
};

}  // namespace g500
