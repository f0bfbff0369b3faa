#pragma once
// Vertex and edge types shared by every stage.
#include <cstdint>

namespace g500 {

// The largest SCALE g500 takes. The specification sets none (the list has run SCALE 43); ids stay
// below 2^62, where kernel 3 marks a flat parent (sssp/labels.hpp), and a run's tuples must number
// below 2^63 (checked with the edgefactor).
inline constexpr int kMaxScale = 62;
// Global vertex ids are 64-bit: SCALE goes up to kMaxScale.
using vertex_t = std::int64_t;
// Index of a vertex inside the block its rank owns.
using local_t = std::int64_t;
// Edge counts and CSR offsets.
using edge_count_t = std::int64_t;

inline constexpr vertex_t kNoParent = -1;

// True when every vertex id of an N-vertex graph fits 32 bits, so stored ids can be narrow.
inline constexpr bool fits_32_bit(vertex_t num_vertices) { return num_vertices <= (vertex_t{1} << 32); }

// One generated tuple; the on-disk layout of an edge file is exactly this (two little-endian int64).
struct Edge {
  vertex_t u;
  vertex_t v;
};
static_assert(sizeof(Edge) == 16);

}  // namespace g500
