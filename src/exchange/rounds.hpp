#pragma once
// Bounded rounds of collective work: a rank's items [0, n) are handled in pieces of at most
// `chunk`, so exchange buffers stay small. Every rank runs as many rounds as the busiest one (with
// empty pieces once its own items are done), because each round is collective.
#include <algorithm>
#include <cstdint>

#include "mpi/comm.hpp"

namespace g500::exchange {

// Round sizes, per rank, of the stages that stream the edge list; the memory estimate
// (harness/memory_check.cpp) sizes their buffers from these same constants.
// Kernel 1: tuples (or CSR entries) per round.
inline constexpr std::int64_t kBuildRound = std::int64_t{1} << 19;
// The root scan (which vertices have an edge), between kernel 1 and the searches, untimed: a round
// an eighth of the build's, so its buffers (an arc each) stay below what the graph leaves free
// (with a round as large as the build's they set each rank's peak: docs/tuning.md).
inline constexpr std::int64_t kRootScanRound = std::int64_t{1} << 16;
// Top-down BFS steps: frontier edges per exchange (pieces end at a vertex, so a hub's whole row
// may exceed it).
inline constexpr std::int64_t kTopDownRound = std::int64_t{1} << 19;
// Kernel 3: a rank's relaxation requests per exchange (pieces end at a vertex, as above).
inline constexpr std::int64_t kRelaxRound = std::int64_t{1} << 19;
// Validation: tuples per round (each asks two owners, so half the build round).
inline constexpr std::int64_t kValidationRound = std::int64_t{1} << 18;

// Calls piece(first, last) once per round.
template <class Piece>
void in_rounds(const mpi::Comm& comm, std::int64_t n, std::int64_t chunk, Piece&& piece) {
  const std::int64_t rounds = comm.allreduce<std::int64_t>((n + chunk - 1) / chunk, mpi::Op::max);
  for (std::int64_t r = 0; r < rounds; ++r) piece(std::min(n, r * chunk), std::min(n, (r + 1) * chunk));
}

}  // namespace g500::exchange
