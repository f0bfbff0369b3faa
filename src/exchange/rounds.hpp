#pragma once
// Bounded rounds of collective work: a rank's items [0, n) are handled in pieces of at most
// `chunk`, so exchange buffers stay small. Every rank runs as many rounds as the busiest one (with
// empty pieces once its own items are done), because each round is collective.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "mpi/comm.hpp"

namespace g500::exchange {

// Round sizes, per rank, of the stages that stream the edge list; the memory estimate
// (harness/memory_check.cpp) sizes their buffers from these same constants.
// Kernel 1: tuples (or CSR entries) per round.
inline constexpr std::int64_t kBuildRound = std::int64_t{1} << 19;
// Kernel 1's round for kernel 3's rows, where the build's round buffers set the peak: its arcs pass
// through buckets, a send buffer with the share bound for other ranks (1 - 1/P) and a receive
// buffer, and a round holds as many tuples as keep those three the size kBuildRound tuples make at
// two ranks. A rank's round buffers then stay one size at any rank count.
inline std::int64_t build_round(int ranks) {
  const double at_two = 2.5, here = 2.0 + (1.0 - 1.0 / std::max(ranks, 1));
  return std::min(kBuildRound, static_cast<std::int64_t>(static_cast<double>(kBuildRound) * at_two / here));
}
// The root scan (which vertices have an edge), between kernel 1 and the searches, untimed: a round
// an eighth of the build's, so its buffers (an arc each) stay below what the graph leaves free
// (with a round as large as the build's they set each rank's peak: docs/tuning.md).
inline constexpr std::int64_t kRootScanRound = std::int64_t{1} << 16;
// Top-down BFS steps: frontier edges per exchange (pieces end at a vertex, so a hub's whole row
// may exceed it).
inline constexpr std::int64_t kTopDownRound = std::int64_t{1} << 19;
// Kernel 3: a rank's relaxation requests per exchange (pieces end at a vertex, as above).
inline constexpr std::int64_t kRelaxRound = std::int64_t{1} << 19;
// Validation: the bytes a rank's round buffers take. Each tuple of a round travels to its
// endpoints' owners with a row of the batch (up to 76 bytes with SSSP distances), through buckets,
// a send buffer and a receive buffer; a round holds as many tuples as fit this budget
// (validation_round), so its buffers are the same size at any rank count and batch. Larger rounds
// pay: fewer exchanges, and the ranks' uneven shares of a round even out.
inline constexpr double kValidationRoundBytes = 24 << 20;
// A validator's `chunk` when the budget is to size its rounds.
inline constexpr std::int64_t kValidationRound = 0;
// A round holds at most this share of a rank's tuples, so where ranks hold few tuples each (many
// ranks a node, or the scale lab's simulated ranks, all in one process) the round buffers stay a
// fraction of the graph's bytes instead of the whole budget. Where a rank holds four budgets'
// worth of tuples or more, the budget binds and this changes nothing.
inline constexpr double kValidationRoundTuplesShare = 1.0 / 4;
// Tuples a round holds: `chunk` when one is given (> 0), else as many as the budget holds when each
// takes `bytes_per_tuple` of the round's buffers, at most the share above of `tuples_per_rank` (a
// rank's mean, so every rank picks the same), and at least a piece's worth.
inline std::int64_t validation_round(std::int64_t chunk, double bytes_per_tuple, double tuples_per_rank) {
  if (chunk > 0) return chunk;
  const double budget = std::min(kValidationRoundBytes / bytes_per_tuple, kValidationRoundTuplesShare * tuples_per_rank);
  return std::max<std::int64_t>(std::int64_t{1} << 12, static_cast<std::int64_t>(budget));
}

// A list of `items` split into pieces of about `round` entries (entries_of(i): item i's), each
// ending at an item, so one item's entries may exceed it: each piece's end into `ends`.
template <class EntriesOf>
void piece_ends(std::size_t items, EntriesOf&& entries_of, std::int64_t round, std::vector<std::size_t>& ends) {
  ends.clear();
  std::int64_t in_piece = 0;
  for (std::size_t i = 0; i < items; ++i) {
    in_piece += entries_of(i);
    if (in_piece >= round) {
      ends.push_back(i + 1);
      in_piece = 0;
    }
  }
  if (ends.empty() ? items > 0 : ends.back() < items) ends.push_back(items);
}

// Piece p of piece_ends's `ends` as [first, last); empty past this rank's last piece, as every rank
// runs as many pieces as the busiest.
inline std::pair<std::size_t, std::size_t> piece_range(const std::vector<std::size_t>& ends, std::int64_t p) {
  const std::size_t k = static_cast<std::size_t>(p), items = ends.empty() ? 0 : ends.back();
  return {k == 0 ? 0 : k <= ends.size() ? ends[k - 1] : items, k < ends.size() ? ends[k] : items};
}

// Calls piece(first, last) once per round.
template <class Piece>
void in_rounds(const mpi::Comm& comm, std::int64_t n, std::int64_t chunk, Piece&& piece) {
  const std::int64_t rounds = comm.allreduce<std::int64_t>((n + chunk - 1) / chunk, mpi::Op::max);
  for (std::int64_t r = 0; r < rounds; ++r) piece(std::min(n, r * chunk), std::min(n, (r + 1) * chunk));
}

}  // namespace g500::exchange
