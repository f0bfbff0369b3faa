#pragma once
// Graph500 binary edge files (docs/formats.md): the tuples as little-endian int64 pairs, in edge
// index order, no header; optional weights beside them as little-endian float32, one per tuple.
#include <string>

#include "graph/edge_slice.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective: every rank writes its slice at its place in the file.
void write_edge_file(const std::string& path, const EdgeSlice& slice, const mpi::Comm& comm);
void write_weight_file(const std::string& path, const EdgeSlice& slice, const mpi::Comm& comm);

}  // namespace g500
