#pragma once
// The interface every BFS technique implements. The harness calls build() once (kernel 1, timed)
// and search() once per root (kernel 2, timed). Whatever the engine's own layout, search writes
// the parents of the vertices of this rank's block of the common 1D partition, which is what the
// validator reads.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bfs/level_profile.hpp"
#include "core/types.hpp"
#include "generator/edge_slice.hpp"
#include "graph/partition_1d.hpp"
#include "mpi/comm.hpp"

namespace g500 {

struct BfsOptions {
  std::string engine = "hybrid-1d";
  double alpha = 15.0;          // top-down -> bottom-up when frontier edges > unexplored edges / alpha
  double beta = 18.0;           // bottom-up -> top-down when the frontier shrinks below N / beta
  int summary_granularity = 64; // frontier bits per summary bit in bottom-up steps
};

class BfsEngine {
 public:
  virtual ~BfsEngine() = default;
  virtual std::string name() const = 0;
  // Kernel 1: build the engine's distributed graph from this rank's slice. Collective.
  virtual void build(const EdgeSlice& slice) = 0;
  // Kernel 2: parents[i] = parent of global vertex part.to_global(i) (root -> root, unreached ->
  // -1). Appends one record per level to `profile` when it is not null. Collective.
  virtual void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) = 0;
};

// Engine names the registry knows, in the order --help lists them.
std::vector<std::string> engine_names();
// Throws UserError for an unknown name.
std::unique_ptr<BfsEngine> make_engine(const BfsOptions& options, const mpi::Comm& comm, const Partition1D& part);

}  // namespace g500
