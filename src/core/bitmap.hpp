#pragma once
// Bit sets over vertex ids, 64 bits a word. Word alignment matters: every rank owns whole words,
// so a rank's slice of a bitmap is a contiguous run of words and an allgather of the slices is the
// global bitmap with no repacking.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

namespace g500 {

using word_t = std::uint64_t;
inline constexpr int kWordBits = 64;

inline constexpr std::int64_t words_for(std::int64_t bits) { return (bits + kWordBits - 1) / kWordBits; }

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
  std::vector<word_t> words_;
};

inline std::int64_t Bitmap::count() const {
  std::int64_t total = 0;
  const std::int64_t n = num_words();
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t w = 0; w < n; ++w) total += __builtin_popcountll(words_[w]);
  return total;
}

// One bit per `granularity` bits of a frontier bitmap, set when any of them is. Bottom-up steps
// look here first: the summary is small enough to stay in cache, so empty stretches of the
// frontier cost no memory traffic (paper 000 compares 64 and 256 bits per summary bit).
class SummaryBitmap {
 public:
  SummaryBitmap() = default;
  SummaryBitmap(std::int64_t frontier_bits, int granularity)
      : shift_(log2_exact(granularity)),
        summary_(std::max<std::int64_t>(1, (frontier_bits + granularity - 1) / granularity)) {}

  int granularity() const { return 1 << shift_; }
  bool may_contain(std::int64_t i) const { return summary_.test(i >> shift_); }

  // Rebuilds the summary from the frontier it describes.
  void rebuild(const Bitmap& frontier) {
    const std::int64_t groups = summary_.size();
    const int words_per_group = std::max(1, granularity() / kWordBits);
    const int groups_per_word = std::max(1, kWordBits / granularity());
    word_t* out = summary_.data();
    const std::int64_t out_words = summary_.num_words();
#pragma omp parallel for schedule(static)
    for (std::int64_t ow = 0; ow < out_words; ++ow) {
      word_t bits = 0;
      for (int b = 0; b < kWordBits; ++b) {
        const std::int64_t g = ow * kWordBits + b;
        if (g >= groups) break;
        bool any = false;
        if (groups_per_word == 1) {
          const std::int64_t first = g * words_per_group;
          const std::int64_t last = std::min(first + words_per_group, frontier.num_words());
          for (std::int64_t w = first; w < last && !any; ++w) any = frontier.word(w) != 0;
        } else {
          const int span = granularity();
          const std::int64_t bit = g * span;
          const word_t mask = (span == kWordBits ? ~word_t{0} : ((word_t{1} << span) - 1)) << (bit & 63);
          if ((bit >> 6) < frontier.num_words()) any = (frontier.word(bit >> 6) & mask) != 0;
        }
        if (any) bits |= word_t{1} << b;
      }
      out[ow] = bits;
    }
  }

  static int log2_exact(int g) {
    int s = 0;
    while ((1 << s) < g) ++s;
    return s;
  }

 private:
  int shift_ = 6;
  Bitmap summary_;
};

}  // namespace g500
