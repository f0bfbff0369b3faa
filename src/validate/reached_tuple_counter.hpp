#pragma once
// The TEPS edge counts alone, for runs with --skip-validation: the input tuples whose endpoints a
// search both reached, counted a batch of searches per pass over the tuples. Each tuple is counted
// as it passes its endpoints' owners (validate/routed_scan.hpp), so each rank holds its own
// vertices' marks only.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "validate/search_validator.hpp"

namespace g500 {

// Each rank holds, per vertex of its own, a bit per search of the batch (reached or not).
class ReachedTupleCounter {
 public:
  static constexpr int kMaxBatch = 16;
  ReachedTupleCounter(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, int batch,
                      std::int64_t chunk = exchange::kValidationRound);
  int batch() const { return batch_; }
  // Collective. Notes which vertices this search reached, for the next count(); at most batch() - 1
  // searches wait.
  void wait(std::span<const vertex_t> parents);
  // Collective. Adds this search and counts, for each search of the batch in order, the tuples
  // whose endpoints it both reached; the batch is empty again.
  std::vector<std::int64_t> count(std::span<const vertex_t> parents);

 private:
  void add(std::span<const vertex_t> parents);

  const EdgeSource& source_;
  const Partition1D& part_;
  const mpi::Comm& comm_;
  int batch_;
  std::int64_t chunk_;
  int used_ = 0;
  big_vector<std::uint16_t> reached_;  // bit s of local vertex i: search s reached it
};

// --skip-validation's stand-in for either kernel's validator: every result ok, with its edge count
// (each search's reached vertices read from `parents`).
std::unique_ptr<SearchValidator> reached_tuple_validator(const EdgeSource& source, const Partition1D& part,
                                                         const mpi::Comm& comm, int batch,
                                                         std::span<const vertex_t> parents);

// One search's count: a batch of one. Collective.
std::int64_t count_reached_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                  std::span<const vertex_t> parents, std::int64_t chunk = exchange::kValidationRound);

}  // namespace g500
