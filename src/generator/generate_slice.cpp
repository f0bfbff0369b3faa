#include "generator/generate_slice.hpp"

namespace g500 {

EdgeSlice generate_slice(const KroneckerGenerator& gen, const mpi::Comm& comm, bool with_weights) {
  EdgeSlice slice;
  slice.global_edges = gen.num_edges();
  slice.first = slice_begin(slice.global_edges, comm.rank(), comm.size());
  const std::int64_t count = slice_begin(slice.global_edges, comm.rank() + 1, comm.size()) - slice.first;
  slice.edges.resize(count);
  if (with_weights) slice.weights.resize(count);
  gen.edges(slice.first, slice.edges);
  if (with_weights) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) slice.weights[i] = gen.weight(slice.first + i);
  }
  return slice;
}

}  // namespace g500
