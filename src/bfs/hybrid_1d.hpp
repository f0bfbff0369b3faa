#pragma once
// Direction-optimizing BFS on a 1D partition (papers 000 and 002, after Beamer et al.).
// Top-down steps send (vertex, parent) pairs to the owners with one alltoallv; bottom-up steps
// allgather the frontier as a bitmap and let every unvisited local vertex look for a parent in it,
// through a summary bitmap. Switching follows Beamer's alpha/beta rule on global counts.
#include <vector>

#include "bfs/engine.hpp"
#include "core/bitmap.hpp"
#include "exchange/owner_buckets.hpp"
#include "graph/csr_1d.hpp"

namespace g500 {

class Hybrid1D : public BfsEngine {
 public:
  Hybrid1D(const BfsOptions& options, const mpi::Comm& comm, const Partition1D& part);
  std::string name() const override { return "hybrid-1d"; }
  void build(const EdgeSlice& slice) override;
  void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) override;

 private:
  // Local counts from one step, summed over ranks afterwards.
  struct StepCounts {
    std::int64_t discovered = 0;
    std::int64_t discovered_edges = 0;
    std::int64_t edges_examined = 0;
    // Adds one thread's counts into the step's (called once per thread).
    void add_atomic(const StepCounts& mine) {
#pragma omp atomic
      discovered += mine.discovered;
#pragma omp atomic
      discovered_edges += mine.discovered_edges;
#pragma omp atomic
      edges_examined += mine.edges_examined;
    }
  };
  struct Pair {
    vertex_t vertex;
    vertex_t parent;
  };

  StepCounts top_down_step(std::span<vertex_t> parents);
  StepCounts bottom_up_step(std::span<vertex_t> parents);
  // Marks local vertex v as reached from `parent` if nobody got there first (thread-safe).
  void claim(local_t v, vertex_t parent, std::span<vertex_t> parents, StepCounts& counts, std::vector<local_t>& next);
  void queue_to_bitmap();
  void bitmap_to_queue();
  void gather_frontier();

  BfsOptions options_;
  const mpi::Comm& comm_;
  Partition1D part_;
  Csr1D csr_;
  edge_count_t global_entries_ = 0;

  Bitmap isolated_;        // local block: degree 0
  Bitmap visited_;         // local block
  Bitmap frontier_local_;  // local block: the current frontier as bits
  Bitmap frontier_;        // all vertices: the gathered frontier for bottom-up steps
  SummaryBitmap summary_;
  std::vector<local_t> queue_;  // the current frontier as local indices
  std::vector<std::vector<local_t>> thread_next_;
  exchange::OwnerBuckets<Pair> buckets_;
  std::vector<Pair> arrived_;
  std::vector<int> word_counts_, word_displs_;
};

}  // namespace g500
