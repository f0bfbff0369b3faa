#pragma once
// This rank's slice of the Kronecker tuple list, held in memory (for `g500 generate`, which writes it;
// the benchmark itself reads the generator through KroneckerSource and keeps no list).
#include "generator/kronecker.hpp"
#include "graph/edge_slice.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Generates this rank's slice with OpenMP; the result does not depend on the thread count.
EdgeSlice generate_slice(const KroneckerGenerator& gen, const mpi::Comm& comm, bool with_weights);

}  // namespace g500
