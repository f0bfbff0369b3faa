#pragma once
// Kernel 1 for 1D engines: the CSR rows of this rank's vertex block, built from the edge slices of
// all ranks. Each tuple (u, v) with u != v becomes u->v and v->u; rows are sorted and duplicates
// and self-loops are dropped (they never change a BFS tree).
#include <cstdint>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "graph/edge_slice.hpp"
#include "partition/partition_1d.hpp"
#include "exchange/rounds.hpp"
#include "mpi/comm.hpp"

namespace g500 {

struct Csr1D {
  Partition1D part;
  big_vector<edge_count_t> offsets;  // local_count + 1 entries
  big_vector<vertex_t> columns;      // global ids of neighbours

  edge_count_t degree(local_t i) const { return offsets[i + 1] - offsets[i]; }
  const vertex_t* begin(local_t i) const { return columns.data() + offsets[i]; }
  const vertex_t* end(local_t i) const { return columns.data() + offsets[i + 1]; }
  edge_count_t local_entries() const { return offsets.back(); }
};

// Collective. Tuples travel in rounds of at most `chunk` per rank to bound the buffers.
Csr1D build_csr_1d(const EdgeSlice& slice, const Partition1D& part, const mpi::Comm& comm,
                   std::int64_t chunk = exchange::kBuildRound);

// Reorders every row by the degree of its neighbours, highest first (ties by id), asking the owners
// for the degrees in rounds of at most `chunk` entries. A bottom-up step stops at the first
// neighbour in the frontier, and the frontier fills with high-degree vertices first, so this cuts
// the entries it examines. Collective; the result does not depend on rank or thread counts.
void order_rows_by_degree(Csr1D& csr, const mpi::Comm& comm, std::int64_t chunk = exchange::kBuildRound);

}  // namespace g500
