#pragma once
// BFS roots: distinct vertices with at least one neighbour other than themselves, drawn from the
// seed so every rank count picks the same ones.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bitmap.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Bits of this rank's block: vertex has a non-loop tuple. Collective: a pass over the tuples that
// sends each endpoint to its owner, so that no rank holds a mark of every id.
Bitmap connected_vertices(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm);

// Up to `count` roots (fewer when fewer vertices qualify), identical on every rank. Collective.
std::vector<vertex_t> choose_roots(const Bitmap& connected, const Partition1D& part, const mpi::Comm& comm, int count,
                                   std::uint64_t seed);

// The roots a user named (`--root`, `--roots-file`) as the graph names them, turned into internal
// ids by the edge source and checked to be vertices with an edge (UserError naming the first that
// is not, as the user wrote it). Collective.
std::vector<vertex_t> given_roots(const std::vector<vertex_t>& ids, const EdgeSource& source, const Bitmap& connected,
                                  const Partition1D& part, const mpi::Comm& comm);

// The ids in a roots file, one a line ('#' comments and blank lines skipped), read by rank 0 and
// shared; UserError naming the file and line for anything else. Collective.
std::vector<vertex_t> read_roots_file(const std::string& path, const mpi::Comm& comm);

}  // namespace g500
