#pragma once
// Checks one SSSP result (kernel 3) as the Graph500 reference does, reading only the edge source
// (with its weights), the parents and the distances, with float arithmetic exactly as the search
// adds weights:
//   1. the root has distance 0 and is its own parent; every parent is a vertex id; a vertex has a
//      parent exactly when it has a finite distance;
//   3. every input edge (u, v, w) between reached vertices keeps the triangle inequality:
//      d(v) <= d(u) + w and d(u) <= d(v) + w;
//   4. no input edge joins a reached and an unreached vertex (the tree spans the component);
//   5. every reached vertex but the root is joined to its parent by an input edge that is tight:
//      d(v) == d(parent) + w.
// Distributed like the BFS validator: each tuple travels one way to its endpoints' owners with its
// weight (validate/tuple_relay.hpp); a tuple that proves its first endpoint's tree edge sends the
// owner a one-id confirmation.
#include <span>

#include "validate/bfs_validator.hpp"

namespace g500 {

// Collective; every rank gets the same result (nedge as for BFS: tuples with both ends reached).
ValidationResult validate_sssp(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                               vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist,
                               std::int64_t chunk = exchange::kValidationRound);

}  // namespace g500
