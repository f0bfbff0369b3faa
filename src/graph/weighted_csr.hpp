#pragma once
// Kernel 1 for SSSP: the CSR rows of this rank's vertex block with a weight per entry. Each tuple
// (u, v, w) with u != v becomes u->v and v->u with weight w; of several tuples joining the same
// pair only the lightest is kept (no shortest path uses another). Each row is sorted by weight, so
// its light edges (w < delta) are a prefix for any delta. Built in the same two passes over the
// edge source as the BFS rows: nothing keeps the tuples.
#include <cstdint>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

template <class Column>
struct WeightedCsr1D {
  Partition1D part;
  big_vector<edge_count_t> offsets;  // local_count + 1 entries
  big_vector<Column> columns;        // global ids of neighbours
  big_vector<float> weights;         // beside columns; ascending within each row

  edge_count_t degree(local_t i) const { return offsets[i + 1] - offsets[i]; }
  edge_count_t local_entries() const { return offsets.back(); }
  // Where row i's entries of weight >= `delta` start (a binary search: rows are sorted by weight).
  edge_count_t light_end(local_t i, float delta) const;
};

// Collective. The source must have weights.
template <class Column>
WeightedCsr1D<Column> build_weighted_csr_1d(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                            std::int64_t round = exchange::kBuildRound);

// Peak bytes per rank of build_weighted_csr_1d: rows of ids and weights, offsets and cursors, one
// round's tuples, weights and weighted arcs (buckets, sent, received).
inline double weighted_csr_1d_build_bytes(double vertices, double tuples, int ranks, double id_bytes) {
  const double n_local = vertices / ranks + 64, m_local = tuples / ranks + 1;
  const double round = m_local < exchange::kBuildRound ? m_local : static_cast<double>(exchange::kBuildRound);
  return (id_bytes + 4) * 2 * m_local + 2 * 8 * n_local + 20 * round + 3 * 2 * (2 * id_bytes + 4) * round;
}

}  // namespace g500
