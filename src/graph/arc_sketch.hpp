#pragma once
// Arcs per word of row ids (64 consecutive ids), counted by kernel 1's vertex count on the tuples it
// reads anyway, so that a 1D build sizes its blocks of rows without a pass of its own over the
// source (graph/row_builder.hpp, place_by_block's first pass: a whole regeneration of the tuples,
// about a tenth of kernel 1). The counts do not depend on the partition, which needs the vertex
// count: a partition's blocks are whole words, so every block's arcs are a sum of words'.
//
// 16-bit counters per thread (N/32 bytes: 128 KB, in L2, at SCALE 22; 2 MB at SCALE 26) and a list
// of the words whose counter wrapped. Ids of 2^28 and above leave the sketch unusable: its counters
// would outgrow the caches, and the build's pass counts blocks in fewer.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/bitmap.hpp"
#include "core/padded.hpp"
#include "core/types.hpp"
#include "mpi/comm.hpp"

namespace g500 {

class ArcSketch {
 public:
  static constexpr vertex_t kMaxIds = vertex_t{1} << 28;

  // Before the count: one set of counters per thread of the team that will add.
  void start(int threads) {
    threads_.assign(threads, {});
    usable_ = true;
  }

  // On thread t: a non-loop tuple's two arcs, rows u and v.
  void add(int t, vertex_t u, vertex_t v) {
    Counters& c = threads_[t].value;
    if (!c.whole) return;
    const std::uint64_t limit = static_cast<std::uint64_t>(c.words.size()) * kWordBits;  // negative ids: above
    if ((static_cast<std::uint64_t>(u) >= limit || static_cast<std::uint64_t>(v) >= limit) && !c.grow(u, v)) return;
    count(c, u / kWordBits);
    count(c, v / kWordBits);
  }

  // Collective, after the count: usable on every rank or on none.
  void finish(const mpi::Comm& comm) {
    bool whole = true;
    for (Padded<Counters>& t : threads_) {
      whole = whole && t.value.whole;
      std::sort(t.value.wrapped.begin(), t.value.wrapped.end());
    }
    usable_ = comm.allreduce<int>(whole ? 0 : 1, mpi::Op::max) == 0;
    if (!usable_) release();
  }

  bool usable() const { return usable_; }

  // This rank's arcs (of the tuples it read) whose rows lie in words [first, last).
  std::int64_t arcs_in_words(std::int64_t first, std::int64_t last) const {
    std::int64_t arcs = 0;
    for (const Padded<Counters>& t : threads_) {
      const Counters& c = t.value;
      const std::int64_t end = std::min<std::int64_t>(last, static_cast<std::int64_t>(c.words.size()));
      for (std::int64_t w = first; w < end; ++w) arcs += c.words[w];
      const auto lo = std::lower_bound(c.wrapped.begin(), c.wrapped.end(), first);
      const auto hi = std::lower_bound(lo, c.wrapped.end(), last);
      arcs += (hi - lo) * std::int64_t{65536};
    }
    return arcs;
  }

  // Once the build has its counts: the counters go before the build's peak.
  void release() {
    threads_.clear();
    threads_.shrink_to_fit();
  }

 private:
  struct Counters {
    std::vector<std::uint16_t> words;
    std::vector<std::int64_t> wrapped;  // a word each time its counter passed 65535
    bool whole = true;

    // Room for the words of u and v (doubling), or false, and the counters dropped, for an id
    // below 0 or from kMaxIds.
    bool grow(vertex_t u, vertex_t v) {
      const vertex_t id = std::max(u, v);
      if (std::min(u, v) < 0 || id >= kMaxIds) {
        whole = false;
        words = {};
        wrapped = {};
        return false;
      }
      const std::size_t need = static_cast<std::size_t>(id / kWordBits) + 1;
      words.resize(std::max(need, std::min(2 * words.size(), static_cast<std::size_t>(kMaxIds / kWordBits))), 0);
      return true;
    }
  };

  static void count(Counters& c, vertex_t word) {
    if (__builtin_expect(++c.words[word] == 0, 0)) c.wrapped.push_back(word);
  }

  std::vector<Padded<Counters>> threads_;
  bool usable_ = false;
};

}  // namespace g500
