#pragma once
// The interface every BFS technique implements. The harness calls build() once (kernel 1, timed)
// and search() once per root (kernel 2, timed). Whatever the engine's own layout, search writes
// the parents of the vertices of this rank's block of the common 1D partition, which is what the
// validator reads. Engines are made through the registry (bfs/registry.hpp).
#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "bfs/bfs_options.hpp"
#include "bfs/level_profile.hpp"
#include "core/types.hpp"
#include "graph/arc_sketch.hpp"
#include "graph/edge_source.hpp"
#include "graph/row_codes.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

// What an engine is made from. The references outlive the engine.
struct EngineContext {
  const mpi::Comm& comm;
  const Partition1D& part;  // the common 1D partition the parents are written in
  const BfsOptions& options;
  // Arcs per word of rows, counted with the vertex count (graph/arc_sketch.hpp), for a 1D build in
  // place of its first pass; null, or valid until build() returns.
  ArcSketch* arc_sketch = nullptr;
};

// Throws unless `parents` is this rank's block of the common partition (an engine's search takes
// whatever the caller hands it; a wrong length is a programming error, not a user's).
inline void check_parents(std::span<const vertex_t> parents, const Partition1D& part, const char* engine) {
  if (static_cast<local_t>(parents.size()) != part.local_count()) {
    throw std::invalid_argument(std::string(engine) + ": the parent array does not match this rank's block");
  }
}

// check_parents, then every vertex unreached: where each search of a host engine starts.
inline void start_parents(std::span<vertex_t> parents, const Partition1D& part, const char* engine) {
  check_parents(parents, part, engine);
  const std::int64_t n = static_cast<std::int64_t>(parents.size());
#pragma omp parallel for schedule(static)  // inside the timed search: every thread's bandwidth
  for (std::int64_t i = 0; i < n; ++i) parents[i] = kNoParent;
}

class BfsEngine {
 public:
  virtual ~BfsEngine() = default;
  // Kernel 1: build the engine's distributed graph from the edge source, reading it as often as
  // it needs (each read makes or fetches the tuples again; nothing keeps them). Collective.
  virtual void build(const EdgeSource& source) = 0;
  // Kernel 2: parents[i] = parent of global vertex part.to_global(i) (root -> root, unreached ->
  // -1). Appends one record per level to `profile` when it is not null. Collective.
  virtual void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) = 0;
  // How the engine laid the graph out, for the report when it is not the 1D blocks (a 2D grid's
  // shape, for example); empty otherwise.
  virtual std::string layout() const { return {}; }
  // This rank's rows as a compressed store would code them (graph/row_codes.hpp), for
  // --measure-row-codes; nullopt from engines without 1D rows. Untimed; nothing is stored.
  virtual std::optional<RowCodeSize> row_codes() const { return std::nullopt; }
};

}  // namespace g500
