#pragma once
// Bit sets over vertex ids, 64 bits a word. Word alignment matters: every rank owns whole words,
// so a rank's slice of a bitmap is a contiguous run of words and an allgather of the slices is the
// global bitmap with no repacking.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/big_vector.hpp"

namespace g500 {

using word_t = std::uint64_t;
inline constexpr int kWordBits = 64;

inline constexpr std::int64_t words_for(std::int64_t bits) { return (bits + kWordBits - 1) / kWordBits; }
// The bits of the last word of a `bits`-bit set that belong to it.
inline constexpr word_t last_word_mask(std::int64_t bits) {
  return bits % kWordBits ? (word_t{1} << (bits % kWordBits)) - 1 : ~word_t{0};
}

class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(std::int64_t bits) : bits_(bits), words_(words_for(bits), 0) {}

  std::int64_t size() const { return bits_; }
  std::int64_t num_words() const { return static_cast<std::int64_t>(words_.size()); }
  word_t* data() { return words_.data(); }
  const word_t* data() const { return words_.data(); }
  word_t word(std::int64_t w) const { return words_[w]; }

  bool test(std::int64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void set(std::int64_t i) { words_[i >> 6] |= word_t{1} << (i & 63); }
  void reset(std::int64_t i) { words_[i >> 6] &= ~(word_t{1} << (i & 63)); }
  // Sets bit i from many threads at once; true if this call changed it.
  bool set_atomic(std::int64_t i) {
    const word_t mask = word_t{1} << (i & 63);
    std::atomic_ref<word_t> w(words_[i >> 6]);
    if (w.load(std::memory_order_relaxed) & mask) return false;
    return !(w.fetch_or(mask, std::memory_order_relaxed) & mask);
  }
  void clear() { std::fill(words_.begin(), words_.end(), word_t{0}); }
  std::int64_t count() const;

 private:
  std::int64_t bits_ = 0;
  big_vector<word_t> words_;  // huge pages past 2 MB: bits of every vertex are read at random
};

inline std::int64_t Bitmap::count() const {
  std::int64_t total = 0;
  const std::int64_t n = num_words();
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t w = 0; w < n; ++w) total += __builtin_popcountll(words_[w]);
  return total;
}

// A read-only view of bits held elsewhere (a window shared by the ranks of a node, say).
class BitsView {
 public:
  BitsView() = default;
  explicit BitsView(const word_t* words) : words_(words) {}
  bool test(std::int64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  const word_t* data() const { return words_; }

 private:
  const word_t* words_ = nullptr;
};

inline int log2_exact(int g) {
  int s = 0;
  while ((1 << s) < g) ++s;
  return s;
}

// Summary words [first, last) of `frontier` (frontier_words words), one bit per `granularity`
// frontier bits, set when any of them is. Split by ranges, several ranks can build one summary.
inline void summarize(const word_t* frontier, std::int64_t frontier_words, int granularity, word_t* summary,
                      std::int64_t first, std::int64_t last) {
  const std::int64_t groups = (frontier_words * kWordBits + granularity - 1) / granularity;
  const int words_per_group = std::max(1, granularity / kWordBits);
  const int groups_per_word = std::max(1, kWordBits / granularity);
#pragma omp parallel for schedule(static)
  for (std::int64_t ow = first; ow < last; ++ow) {
    word_t bits = 0;
    for (int b = 0; b < kWordBits; ++b) {
      const std::int64_t g = ow * kWordBits + b;
      if (g >= groups) break;
      bool any = false;
      if (groups_per_word == 1) {
        const std::int64_t w0 = g * words_per_group;
        const std::int64_t w1 = std::min(w0 + words_per_group, frontier_words);
        for (std::int64_t w = w0; w < w1 && !any; ++w) any = frontier[w] != 0;
      } else {
        const std::int64_t bit = g * granularity;
        const word_t mask = (granularity == kWordBits ? ~word_t{0} : ((word_t{1} << granularity) - 1)) << (bit & 63);
        any = (frontier[bit >> 6] & mask) != 0;
      }
      if (any) bits |= word_t{1} << b;
    }
    summary[ow] = bits;
  }
}

// Summary words needed for a frontier of `frontier_bits` bits.
inline std::int64_t summary_words(std::int64_t frontier_bits, int granularity) {
  return words_for(std::max<std::int64_t>(1, (frontier_bits + granularity - 1) / granularity));
}

// A summary read where it lies: bottom-up steps look here first, since the summary is small enough
// to stay in cache and empty stretches of the frontier then cost no memory traffic (paper 000
// compares 64 and 256 bits per summary bit).
class SummaryView {
 public:
  SummaryView() = default;
  SummaryView(const word_t* words, int granularity) : bits_(words), shift_(log2_exact(granularity)) {}
  int granularity() const { return 1 << shift_; }
  bool may_contain(std::int64_t i) const { return bits_.test(i >> shift_); }

 private:
  BitsView bits_;
  int shift_ = 6;
};

// A summary with storage of its own (one bit per `granularity` frontier bits).
class SummaryBitmap {
 public:
  SummaryBitmap() = default;
  SummaryBitmap(std::int64_t frontier_bits, int granularity)
      : granularity_(granularity), words_(summary_words(frontier_bits, granularity), 0) {}

  int granularity() const { return granularity_; }
  SummaryView view() const { return {words_.data(), granularity_}; }
  bool may_contain(std::int64_t i) const { return view().may_contain(i); }
  std::int64_t num_words() const { return static_cast<std::int64_t>(words_.size()); }
  const word_t* data() const { return words_.data(); }

  // Rebuilds the summary from the frontier it describes.
  void rebuild(const Bitmap& frontier) {
    summarize(frontier.data(), frontier.num_words(), granularity_, words_.data(), 0, num_words());
  }

 private:
  int granularity_ = 64;
  std::vector<word_t> words_;
};

}  // namespace g500
