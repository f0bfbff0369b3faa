#pragma once
// The sort-unique BFS (`--bfs sort-unique`): the GPU BFS of paper 003 on a 1D partition, one rank
// per GPU. Each level: (1) the frontier's degrees and their prefix sum; (2) one work item per
// frontier edge finds its vertex by binary search and writes the neighbour to a contiguous array;
// (3) sort + unique, and removal of vertices known visited or sent before; (4) the candidates,
// grouped by owner, are exchanged with one alltoallv and the owners update parents and build the
// next frontier. This host half holds MPI; the device half (device.hpp) holds the graph and the
// steps, built for CUDA or, from the same source, for the CPU. Options: groups "device", "ids".
#include <memory>
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/engine_spec.hpp"
#include "bfs/engines/sort_unique/device.hpp"

namespace g500 {

// Its registry row (bfs/registry.cpp); built when Thrust was found, with the device half linked
// in separately, for the CPU (g500) or CUDA (g500-cuda).
EngineSpec sort_unique_engine();

template <class Column>
class SortUnique : public BfsEngine {
 public:
  explicit SortUnique(const EngineContext& context);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) override;

 private:
  using Candidate = sort_unique::Candidate<Column>;
  // Step 4 through host memory; returns how many candidates this rank received.
  std::int64_t exchange_staged(std::int64_t candidates, mpi::Counts& send_counts);

  BfsOptions options_;
  const mpi::Comm& comm_;
  Partition1D part_;
  bool staged_ = true;  // exchanges copied through host memory
  std::unique_ptr<sort_unique::Device<Column>> device_;
  std::vector<Candidate> host_send_, host_received_;  // the staging buffers
};

}  // namespace g500
