#pragma once
// BFS roots: distinct vertices with at least one neighbour other than themselves, drawn from the
// seed so every rank count picks the same ones.
#include <cstdint>
#include <vector>

#include "core/bitmap.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Bits of this rank's block: vertex has a non-loop tuple. Collective.
Bitmap connected_vertices(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm);

// Up to `count` roots (fewer when fewer vertices qualify), identical on every rank. Collective.
std::vector<vertex_t> choose_roots(const Bitmap& connected, const Partition1D& part, const mpi::Comm& comm, int count,
                                   std::uint64_t seed);

}  // namespace g500
