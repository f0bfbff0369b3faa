#pragma once
// One column of a row-major table replicated on every rank (a validation batch's trees or
// distances: row v holds vertex v's entry of each search), gathered in place: rank r's rows
// [displs[r], displs[r] + counts[r]) hold its own entries, and afterwards every rank holds them all.
//
// The entries travel contiguous, in rounds of a bounded size, and each rank writes the received
// ones into their rows on all its threads: a strided MPI datatype packs and unpacks them one element
// at a time on one thread, and touches the whole table to do it.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mpi/comm.hpp"

namespace g500::exchange {

inline constexpr std::int64_t kColumnRound = std::int64_t{1} << 22;  // entries received per round

// Collective. column[v * stride] is row v's entry; `round` bounds the entries a round receives.
template <class T>
void gather_column_inplace(const mpi::Comm& comm, T* column, std::int64_t stride, const std::vector<int>& counts,
                           const std::vector<int>& displs, std::int64_t round = kColumnRound) {
  const int ranks = comm.size(), me = comm.rank();
  const std::int64_t per_rank = std::max<std::int64_t>(1, round / ranks);
  const std::int64_t longest = *std::max_element(counts.begin(), counts.end());
  std::vector<T> send, received;
  std::vector<int> round_counts(ranks), round_displs(ranks);
  for (std::int64_t first = 0; first < longest; first += per_rank) {
    std::int64_t total = 0;
    for (int r = 0; r < ranks; ++r) {
      round_counts[r] = static_cast<int>(std::clamp<std::int64_t>(counts[r] - first, 0, per_rank));
      round_displs[r] = static_cast<int>(total);
      total += round_counts[r];
    }
    send.resize(round_counts[me]);
    const std::int64_t mine = displs[me] + first;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < round_counts[me]; ++k) send[k] = column[(mine + k) * stride];
    received.resize(total);
    comm.allgatherv<T>(send, received.data(), round_counts, round_displs);
    // One team a round (not one a rank: with many ranks a round brings a few entries from each).
#pragma omp parallel
    for (int r = 0; r < ranks; ++r) {
      if (r == me) continue;
      const std::int64_t row = displs[r] + first;
      const T* from = received.data() + round_displs[r];
#pragma omp for schedule(static) nowait
      for (int k = 0; k < round_counts[r]; ++k) column[(row + k) * stride] = from[k];
    }
  }
}

}  // namespace g500::exchange
