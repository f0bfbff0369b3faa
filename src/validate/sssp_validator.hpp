#pragma once
// Checks SSSP results (kernel 3) as the Graph500 reference does, reading only the edge source
// (with its weights), the parents and the distances, with float arithmetic exactly as the search
// adds weights:
//   1. the root has distance 0 and is its own parent; every parent is a vertex id; a vertex has a
//      parent exactly when it has a finite distance;
//   3. every input edge (u, v, w) between reached vertices keeps the triangle inequality:
//      d(v) <= d(u) + w and d(u) <= d(v) + w;
//   4. no input edge joins a reached and an unreached vertex (the tree spans the component);
//   5. every reached vertex but the root is joined to its parent by an input edge that is tight:
//      d(v) == d(parent) + w.
// As for BFS, a batch of searches shares one pass over the tuples, each tuple checked as it passes
// its endpoints' owners (validate/routed_scan.hpp): each rank holds its own vertices' distances in
// each search of the batch, side by side (a tuple's endpoint is one cache miss for the whole
// batch). Tight tuples (candidate tree edges, about one a reached vertex) go on to the child's
// owner, which holds the parents.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "validate/failure.hpp"
#include "validate/search_validator.hpp"

namespace g500 {

class SsspBatchValidator {
 public:
  // `batch` >= 1 searches at a time (at most validation::kMaxBatch); `chunk` bounds the tuples
  // examined per round.
  SsspBatchValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, int batch,
                     std::int64_t chunk = exchange::kValidationRound);
  ~SsspBatchValidator();
  int batch() const;
  // Collective. Checks rule 1, copies the distances into the batch's table and keeps a copy of the
  // parents for the next check(); at most batch() - 1 searches wait.
  void wait(vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist);
  // Collective. Adds this search (its parents read in place) and checks every search of the batch
  // against the tuples; the results in the order the searches came, and the batch is empty again.
  std::vector<ValidationResult> check(vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist);
  // Bytes the validator takes per rank with `batch` searches (its vertices' distances, kept
  // parents, confirmation bitmaps, a round's tuples and candidates), for the estimate.
  static double bytes(double n, double n_local, double m_local, int ranks, int batch);
  // Of those, the bytes held while the batch's searches run (all but a round's).
  static double held_bytes(double n, double n_local, int batch);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Kernel 3's validator for the harness: an SsspBatchValidator reading each search's tree and
// distances from `parents` and `dist`.
std::unique_ptr<SearchValidator> sssp_tree_validator(const EdgeSource& source, const Partition1D& part,
                                                     const mpi::Comm& comm, int batch,
                                                     std::span<const vertex_t> parents, std::span<const float> dist);

// One search: a batch of one. Collective; every rank gets the same result (nedge as for BFS: tuples
// with both ends reached).
ValidationResult validate_sssp(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                               vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist,
                               std::int64_t chunk = exchange::kValidationRound);

}  // namespace g500
