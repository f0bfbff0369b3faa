#pragma once
// The tuples one rank holds: a contiguous range [first, first + size) of the global edge list, the
// type every stage after the edge source reads (kernel 1, roots, validation, files). Producers: the
// Kronecker generator (generator/generate_slice.hpp); a file reader will be another. No rank ever
// holds the whole list.
#include <cstdint>

#include "core/big_vector.hpp"
#include "core/types.hpp"

namespace g500 {

struct EdgeSlice {
  std::int64_t global_edges = 0;  // tuples in the whole list
  std::int64_t first = 0;         // global index of edges[0]
  big_vector<Edge> edges;
  big_vector<float> weights;     // empty unless asked for
};

// The index range of the global list that rank r of p holds.
inline std::int64_t slice_begin(std::int64_t total, int r, int p) {
  return static_cast<std::int64_t>(static_cast<__int128>(total) * r / p);
}

}  // namespace g500
