#pragma once
// The tuples one rank holds: a contiguous range [first, first + size) of the global edge list.
// No rank ever holds the whole list.
#include <cstdint>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "generator/kronecker.hpp"
#include "mpi/comm.hpp"

namespace g500 {

struct EdgeSlice {
  vertex_t num_vertices = 0;
  std::int64_t global_edges = 0;  // tuples in the whole list
  std::int64_t first = 0;         // global index of edges[0]
  big_vector<Edge> edges;
  big_vector<float> weights;     // empty unless asked for
};

// The index range of the global list that rank r of p holds.
inline std::int64_t slice_begin(std::int64_t total, int r, int p) {
  return static_cast<std::int64_t>(static_cast<__int128>(total) * r / p);
}

// Generates this rank's slice with OpenMP; the result does not depend on the thread count.
EdgeSlice generate_slice(const KroneckerGenerator& gen, const mpi::Comm& comm, bool with_weights);

}  // namespace g500
