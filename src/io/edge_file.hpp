#pragma once
// Graph500 binary edge files (docs/formats.md): the tuples as little-endian int64 pairs, in edge
// index order, no header; optional weights beside them as little-endian float32, one per tuple.
#include <string>

#include "graph/edge_slice.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective: every rank writes its slice at its place in the edge file and, unless
// `weights_path` is empty, its weights in the weight file. The files appear under their names only
// once both are complete: a failure leaves neither (and whatever the paths held before).
void write_edge_files(const std::string& path, const std::string& weights_path, const EdgeSlice& slice,
                      const mpi::Comm& comm);

}  // namespace g500
