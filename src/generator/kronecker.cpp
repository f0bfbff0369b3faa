#include "generator/kronecker.hpp"

#include "core/kronecker_initiator.hpp"

namespace g500 {
namespace {

// Initiator probabilities as 16-bit thresholds, so choices are exact integer comparisons (each
// within 2^-16 of the initiator's). One 64-bit draw serves two levels, a 16-bit row draw and a
// 16-bit column draw each: half the mixing of a draw per level. It gains less than half the time:
// the per-level compares, shifts and the u, v updates cost about as much as the mixing
// (docs/tuning.md).
constexpr std::uint64_t threshold(double p) { return static_cast<std::uint64_t>(p * 65536.0 + 0.5); }
// Row bit is 1 with probability C + D; then the column bit is 1 with probability B/(A+B) in the
// top half and D/(C+D) in the bottom half.
constexpr std::uint64_t kRowOne = threshold(kA + kB);
constexpr std::uint64_t kColOneTop = threshold(kA / (kA + kB));
constexpr std::uint64_t kColOneBottom = threshold(kC / (kC + kD));
// The same thresholds at the top of a 64-bit word: the word's top 16 bits are >= t exactly when the
// word is >= t << 48, whatever the bits below.
constexpr std::uint64_t kRowOneTop = kRowOne << 48;
constexpr std::uint64_t kColOneTopTop = kColOneTop << 48;
constexpr std::uint64_t kColOneStep = (kColOneBottom - kColOneTop) << 48;  // the bottom half's is higher
static_assert(kColOneBottom > kColOneTop);

// One level's row and column bits from 32 random bits (row draw above, column draw below),
// appended to u and v.
inline void descend(std::uint64_t bits32, std::uint64_t& u, std::uint64_t& v) {
  const std::uint64_t row = ((bits32 >> 16) & 0xffff) >= kRowOne;
  const std::uint64_t col = (bits32 & 0xffff) >= (row ? kColOneBottom : kColOneTop);
  u = (u << 1) | row;
  v = (v << 1) | col;
}

}  // namespace

VertexScrambler::VertexScrambler(int scale, std::uint64_t seed)
    : scale_(scale), mask_(scale >= 64 ? ~0ULL : (std::uint64_t{1} << scale) - 1) {
  CounterRng rng(seed ^ 0x5c4a3b2c1d0e0f00ULL);
  const std::uint64_t s = rng.stream(0);
  for (int k = 0; k < 3; ++k) {
    mul_[k] = CounterRng::at(s, 2 * k) | 1;  // odd: a bijection modulo 2^SCALE
    add_[k] = CounterRng::at(s, 2 * k + 1);
  }
}

KroneckerGenerator::KroneckerGenerator(int scale, int edgefactor, std::uint64_t seed)
    : scale_(scale), edgefactor_(edgefactor), rng_(seed), scramble_(scale, seed) {}

Edge KroneckerGenerator::edge(std::int64_t i) const {
  const std::uint64_t s = rng_.stream(static_cast<std::uint64_t>(i));
  std::uint64_t u = 0, v = 0;
  for (int level = 0; level < scale_; level += 2) {  // levels 2k and 2k + 1 from draw k
    const std::uint64_t r = CounterRng::at(s, static_cast<std::uint64_t>(level / 2));
    descend(r >> 32, u, v);
    if (level + 1 < scale_) descend(r, u, v);
  }
  return {scramble_(static_cast<vertex_t>(u)), scramble_(static_cast<vertex_t>(v))};
}

void KroneckerGenerator::edges(std::int64_t first, std::span<Edge> out) const {
  // 32 tuples at a time: four vectors of eight, whose independent multiply chains keep the vector
  // units busy (8 and 16 lanes measured slower: docs/tuning.md).
  constexpr int kLanes = 32;
  const std::int64_t n = static_cast<std::int64_t>(out.size());
  const std::int64_t blocks = (n + kLanes - 1) / kLanes;
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    std::uint64_t s[kLanes], u[kLanes] = {}, v[kLanes] = {};
    for (int l = 0; l < kLanes; ++l) s[l] = rng_.stream(static_cast<std::uint64_t>(first + b * kLanes + l));
    // The same draws and thresholds as edge(i), lane by lane, each 16-bit field compared where a
    // shift left puts it, at the top of the word (no shift right, no mask), and both levels' bits
    // added at once (faster than a level at a time: docs/tuning.md).
    for (int level = 0; level + 1 < scale_; level += 2) {
#pragma omp simd
      for (int l = 0; l < kLanes; ++l) {
        const std::uint64_t r = CounterRng::at(s[l], static_cast<std::uint64_t>(level / 2));
        const std::uint64_t row_a = r >= kRowOneTop, row_b = (r << 32) >= kRowOneTop;
        const std::uint64_t col_a = (r << 16) >= kColOneTopTop + ((0 - row_a) & kColOneStep);
        const std::uint64_t col_b = (r << 48) >= kColOneTopTop + ((0 - row_b) & kColOneStep);
        u[l] = (u[l] << 2) | (row_a << 1) | row_b;
        v[l] = (v[l] << 2) | (col_a << 1) | col_b;
      }
    }
    if (scale_ % 2) {
#pragma omp simd
      for (int l = 0; l < kLanes; ++l) descend(CounterRng::at(s[l], static_cast<std::uint64_t>(scale_ / 2)) >> 32, u[l], v[l]);
    }
#pragma omp simd
    for (int l = 0; l < kLanes; ++l) {
      u[l] = static_cast<std::uint64_t>(scramble_(static_cast<vertex_t>(u[l])));
      v[l] = static_cast<std::uint64_t>(scramble_(static_cast<vertex_t>(v[l])));
    }
    for (int l = 0; l < kLanes; ++l) {
      const std::int64_t i = b * kLanes + l;
      if (i < n) out[i] = {static_cast<vertex_t>(u[l]), static_cast<vertex_t>(v[l])};
    }
  }
}

float KroneckerGenerator::weight(std::int64_t i) const {
  const std::uint64_t r = CounterRng::at(rng_.stream(static_cast<std::uint64_t>(i)), 64);
  return static_cast<float>(r >> 40) * (1.0f / 16777216.0f);  // 24 random bits: exactly < 1
}

}  // namespace g500
