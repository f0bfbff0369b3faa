#pragma once
// Dense vertex ids for a graph file whose ids are not 0..N-1 (sparse, or from any range): the
// distinct ids of all tuples, numbered in increasing order, so the numbering depends on the file
// alone, not on the rank count. Rank r keeps the distinct ids of its slice of the id range; a
// translation either way is one owner query (alltoallv) per call, so callers translate in bulk.
#include <span>
#include <vector>

#include "core/types.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"

namespace g500 {

class IdRelabel {
 public:
  // Collective: the distinct ids among the tuples of `source` (all in [0, id_limit)).
  IdRelabel(const EdgeSource& source, vertex_t id_limit, const mpi::Comm& comm);

  vertex_t distinct() const { return first_dense_.back(); }
  // Collective: each id replaced by its dense number, or -1 when no tuple has it.
  void to_dense(std::span<vertex_t> ids) const;
  // Collective: each dense number (0 .. distinct() - 1) replaced by its id; -1 stays -1.
  void to_original(std::span<vertex_t> ids) const;

 private:
  const mpi::Comm& comm_;
  std::vector<vertex_t> bounds_;       // rank r keeps the ids in [bounds_[r], bounds_[r + 1])
  std::vector<vertex_t> mine_;         // this rank's distinct ids, ascending
  std::vector<vertex_t> first_dense_;  // the dense number of each rank's first id (ranks + 1)
};

}  // namespace g500
