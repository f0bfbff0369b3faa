#pragma once
// Graph500 Kronecker (R-MAT) edge generator: N = 2^SCALE vertices, M = edgefactor * N tuples,
// initiator A=0.57, B=0.19, C=0.19, D=0.05. Self-loops and duplicates stay in the list. Edge i is a
// pure function of (seed, SCALE, i); vertex labels then go through a seeded bijection of [0, N).
#include <cstdint>
#include <span>

#include "core/types.hpp"
#include "generator/counter_rng.hpp"

namespace g500 {

class VertexScrambler {
 public:
  VertexScrambler(int scale, std::uint64_t seed);
  // Inline, so that the generator runs it in vector lanes.
  vertex_t operator()(vertex_t v) const {
    // Each step is a bijection of [0, 2^SCALE): affine maps with odd multipliers, a bit reversal
    // (moves high bits, where Kronecker structure lives, to low bits), and an xorshift.
    std::uint64_t x = static_cast<std::uint64_t>(v);
    x = (x * mul_[0] + add_[0]) & mask_;
    x = reverse_bits(x) >> (64 - scale_);
    x = (x * mul_[1] + add_[1]) & mask_;
    x ^= x >> ((scale_ + 1) / 2);
    x = (x * mul_[2] + add_[2]) & mask_;
    return static_cast<vertex_t>(x);
  }

 private:
  static std::uint64_t reverse_bits(std::uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return __builtin_bswap64(x);
  }

  int scale_;
  std::uint64_t mask_;
  std::uint64_t mul_[3];
  std::uint64_t add_[3];
};

class KroneckerGenerator {
 public:
  KroneckerGenerator(int scale, int edgefactor, std::uint64_t seed);

  int scale() const { return scale_; }
  vertex_t num_vertices() const { return vertex_t{1} << scale_; }
  std::int64_t num_edges() const { return num_vertices() * edgefactor_; }

  Edge edge(std::int64_t i) const;
  // Tuples first, first + 1, ... into `out` with the OpenMP team: the same as edge(i), made 32 at a
  // time so the per-level draws of 32 edges run side by side in vector lanes.
  void edges(std::int64_t first, std::span<Edge> out) const;
  // Weight of edge i in [0, 1), for SSSP.
  float weight(std::int64_t i) const;

 private:
  int scale_;
  int edgefactor_;
  CounterRng rng_;
  VertexScrambler scramble_;
};

}  // namespace g500
