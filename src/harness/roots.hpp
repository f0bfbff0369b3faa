#pragma once
// BFS roots: distinct vertices with at least one neighbour other than themselves, drawn from the
// seed so every rank count picks the same ones.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/bitmap.hpp"
#include "graph/edge_source.hpp"
#include "partition/partition_1d.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Bits of this rank's block: vertex has a non-loop tuple. Collective.
Bitmap connected_vertices(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm);

// The same marks taken on the way, by a pass that reads every tuple anyway (the generation pass):
// each rank marks the ids of its own tuples in a bitmap of all ids (N/8 bytes), and once the
// partition is known each rank's block is the OR of every rank's marks, with no pass of its own.
class ConnectedMarks {
 public:
  // Ids [0, vertices) can be marked; an id past them makes the marks unusable.
  explicit ConnectedMarks(std::int64_t vertices) : marks_(vertices) {}
  // Marks the endpoints of the non-loop tuples, on the OpenMP team.
  void mark(std::span<const Edge> tuples);
  // Collective: this rank's block of everyone's marks, as connected_vertices gives it, or nullopt
  // on every rank when some rank met an id it could not mark. Frees the marks.
  std::optional<Bitmap> local_block(const Partition1D& part, const mpi::Comm& comm);

 private:
  Bitmap marks_;
  bool outside_ = false;
};

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
