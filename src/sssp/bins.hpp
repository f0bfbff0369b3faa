#pragma once
// Delta-stepping's buckets on one rank: vertices waiting in bucket b, pushed by any thread to its
// own lists without locks. The next kWindow buckets from a base have a list each; later ones share
// one far list, sorted into the window when the search reaches it (a tiny delta makes bucket
// numbers astronomically large, so they cannot index an array). Entries may be stale: a vertex
// whose distance dropped since is also in a lower bucket, and is skipped when its old one is taken.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/big_vector.hpp"
#include "core/padded.hpp"
#include "core/types.hpp"

namespace g500 {

class Bins {
 public:
  static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  static constexpr std::int64_t kWindow = 64;

  explicit Bins(int threads) : near_(threads), far_(threads) {
    for (auto& t : near_) t.value.resize(kWindow);
  }

  void clear(std::int64_t base) {
    base_ = base;
    for (auto& t : near_)
      for (auto& list : t.value) list.clear();
    for (auto& t : far_) t.value.clear();
  }
  void push(int thread, std::int64_t bucket, local_t v) {
    const std::int64_t rel = bucket - base_;
    if (rel < kWindow) near_[thread].value[rel].push_back(v);
    else far_[thread].value.push_back(v);
  }
  // Frees the lists' capacity (clear keeps it).
  void release() {
    for (auto& t : near_)
      for (auto& list : t.value) release_storage(list);
    for (auto& t : far_) release_storage(t.value);
  }
  // Moves bucket b's entries (b inside the window) that keep(v) accepts to `out`: keep drops those
  // whose bucket is no longer b and those already taken. Called by every thread of a parallel
  // region, each with its own `out`: a thread takes a contiguous share of each thread's list, so
  // the outs joined in thread order hold the entries in list order. keep(v) must be safe against
  // the other threads' calls. Entries lie anywhere in the rank's vertices, so ahead(v) is shown
  // each one kAhead entries early, to ask for what keep will read. The lists are left to drop().
  template <class Keep, class Ahead>
  void take_share(std::int64_t b, Keep&& keep, Ahead&& ahead, std::vector<local_t>& out) {
    constexpr std::size_t kAhead = 16;
    for (auto& t : near_) {
      const std::vector<local_t>& list = t.value[b - base_];
#pragma omp for schedule(static) nowait
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (i + kAhead < list.size()) ahead(list[i + kAhead]);
        if (keep(list[i])) out.push_back(list[i]);
      }
    }
  }
  // Empties bucket b's lists once take_share is done with them.
  void drop(std::int64_t b) {
    for (auto& t : near_) t.value[b - base_].clear();
  }
  bool holds(std::int64_t b) const {
    for (const auto& t : near_)
      if (!t.value[b - base_].empty()) return true;
    return false;
  }
  // The lowest bucket after b holding a live entry, or kNone.
  template <class BucketOf>
  std::int64_t next_after(std::int64_t b, BucketOf&& bucket_of) const {
    for (std::int64_t rel = b - base_ + 1; rel < kWindow; ++rel)
      for (const auto& t : near_)
        for (const local_t v : t.value[rel])
          if (bucket_of(v) == base_ + rel) return base_ + rel;
    std::int64_t best = kNone;
    for (const auto& t : far_)
      for (const local_t v : t.value) {
        const std::int64_t at = bucket_of(v);
        if (at > b) best = std::min(best, at);  // not yet settled in a lower bucket
      }
    return best;
  }
  // Makes b, the lowest live bucket anywhere and past the window, the window's first: what the
  // window still holds is stale, and far entries that now fall inside move in.
  template <class BucketOf>
  void advance_to(std::int64_t b, BucketOf&& bucket_of) {
    base_ = b;
    for (std::size_t t = 0; t < far_.size(); ++t) {
      for (auto& list : near_[t].value) list.clear();
      std::vector<local_t> keep;
      for (const local_t v : far_[t].value) {
        const std::int64_t rel = bucket_of(v) - base_;
        if (rel < 0) continue;  // stale
        if (rel < kWindow) near_[t].value[rel].push_back(v);
        else keep.push_back(v);
      }
      far_[t].value.swap(keep);
    }
  }
  // Every entry, of the window and beyond, into the list of bucket b, which becomes the base: the
  // search's tail, where all the distances still open share one last bucket.
  void collapse_to(std::int64_t b) {
    base_ = b;
    for (std::size_t t = 0; t < far_.size(); ++t) {
      std::vector<local_t> all;
      for (auto& list : near_[t].value) {
        all.insert(all.end(), list.begin(), list.end());
        list.clear();
      }
      all.insert(all.end(), far_[t].value.begin(), far_[t].value.end());
      far_[t].value.clear();
      near_[t].value[0].swap(all);
    }
  }
  // Entries held, stale ones included.
  std::int64_t size() const {
    std::int64_t n = 0;
    for (std::size_t t = 0; t < far_.size(); ++t) {
      for (const auto& list : near_[t].value) n += static_cast<std::int64_t>(list.size());
      n += static_cast<std::int64_t>(far_[t].value.size());
    }
    return n;
  }
  std::int64_t base() const { return base_; }

 private:
  std::int64_t base_ = 0;
  std::vector<Padded<std::vector<std::vector<local_t>>>> near_;
  std::vector<Padded<std::vector<local_t>>> far_;
};

}  // namespace g500
