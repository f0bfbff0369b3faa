#pragma once
// Checks one BFS result against the Graph500 rules, reading only the edge source and the
// parents (never an engine's internals), so one validator judges every engine. Distributed: what
// it keeps of a vertex stays with the vertex's owner, O((N + M) / P) a rank plus bounded rounds.
//
// Rules, numbered as the spec lists them:
//   1. the parents form a tree rooted at the root: no cycles, root is its own parent, ids in range;
//   2. each tree edge joins vertices whose levels differ by exactly one;
//   3. every input edge joins vertices whose levels differ by at most one, or two unreached ones;
//   4. the tree spans the root's whole component: no input edge joins a reached and an unreached
//      vertex;
//   5. every vertex and its parent are joined by an input edge.
// Levels are depths in the given tree, so rule 2 can only fail through a cycle or a broken chain,
// which rule 1 reports first; a tree that skips a level breaks rule 3 on the edge it skipped.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "graph/edge_source.hpp"
#include "graph/kernel_spec.hpp"
#include "partition/partition_1d.hpp"
#include "exchange/rounds.hpp"
#include "mpi/comm.hpp"
#include "validate/failure.hpp"
#include "validate/search_validator.hpp"

namespace g500 {

// Validates a batch of searches with one pass over the edge source: each rank regenerates its
// tuples once, and each tuple is checked against every tree of the batch as it passes its
// endpoints' owners (validate/routed_scan.hpp), whose entries for a vertex sit side by side so one
// cache miss per endpoint serves them all. Regenerating the tuples is most of a validation's time;
// a batch of k searches costs, per vertex and on its owner only, a byte a search for the trees (a
// tree deeper than 14 levels is validated alone, with wider entries) and a copy of the parents of
// each search that waits (bit_width(N) bits each).
class BfsBatchValidator {
 public:
  // `batch` >= 1 searches at a time; `chunk` bounds the tuples examined per round.
  BfsBatchValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, int batch,
                    std::int64_t chunk = exchange::kValidationRound);
  ~BfsBatchValidator();
  int batch() const;
  // Searches added since the last check.
  int waiting() const;
  // Collective. Checks the tree's ids, finds its levels (rule 1) and keeps a copy of its parents
  // for the next check(); at most batch() - 1 searches wait.
  void wait(vertex_t root, std::span<const vertex_t> parents);
  // Collective. Adds this search (its parents read in place) and checks every tree of the batch
  // against the tuples; the results in the order the searches came, and the batch is empty again.
  std::vector<ValidationResult> check(vertex_t root, std::span<const vertex_t> parents);
  // Bytes the validator takes per rank with `batch` searches at its peak, for the estimate; and the
  // same, structure by structure (`g500 plan`).
  static double bytes(double n, double n_local, double m_local, int ranks, int batch);
  static std::vector<MemoryPart> parts(double n, double n_local, double m_local, int ranks, int batch);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Kernel 2's validator for the harness: a BfsBatchValidator reading each search's tree from `parents`.
std::unique_ptr<SearchValidator> bfs_tree_validator(const EdgeSource& source, const Partition1D& part,
                                                    const mpi::Comm& comm, int batch,
                                                    std::span<const vertex_t> parents);

// One search: a batch of one. Collective; every rank gets the same result.
ValidationResult validate_bfs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                              std::span<const vertex_t> parents, std::int64_t chunk = exchange::kValidationRound);

// The depth of each of this rank's vertices in the tree `parents` describes (-1: unreached, or not
// joined to the root), for --output. Collective.
std::vector<std::int32_t> tree_depths(const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                                      std::span<const vertex_t> parents);

}  // namespace g500
