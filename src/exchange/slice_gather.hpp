#pragma once
// Bitmap slices gathered into one bitmap over a communicator (2D expand within a processor column,
// the bottom-up frontier within a processor row), either as the slices' words or, when the caller
// says the bitmap is sparse, as the positions of their set bits: a frontier of a handful of
// vertices then costs a few bytes instead of N/C bits. Slices are whole words, laid end to end.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

// Rank r of the communicator owns words [word_displs[r], word_displs[r] + word_counts[r]).
struct SliceLayout {
  mpi::Counts word_counts, word_displs;
};

class SliceGather {
 public:
  SliceGather(const mpi::Comm& comm, SliceLayout layout)
      : comm_(comm), word_counts_(std::move(layout.word_counts)), word_displs_(std::move(layout.word_displs)) {}

  // Rank r's slice: its words and where they start in the whole.
  const mpi::Counts& word_counts() const { return word_counts_; }
  const mpi::Counts& word_displs() const { return word_displs_; }

  // Collective: `out` (the whole length's words) = every rank's `mine`. `sparse` must be the same
  // on every rank (decide it from a global count).
  void gather(const Bitmap& mine, std::span<word_t> out, bool sparse) {
    if (!sparse) {
      comm_.allgatherv<word_t>({mine.data(), static_cast<std::size_t>(mine.num_words())}, out.data(), word_counts_,
                               word_displs_);
      return;
    }
    gather_positions(mine);
    std::fill(out.begin(), out.end(), word_t{0});
    for (int r = 0; r < comm_.size(); ++r) {
      const std::int64_t base = first_bit(r);
      for (std::int64_t k = position_starts_[r]; k < position_starts_[r + 1]; ++k) {
        const std::int64_t bit = base + gathered_[static_cast<std::size_t>(k)];
        out[static_cast<std::size_t>(bit / kWordBits)] |= word_t{1} << (bit % kWordBits);
      }
    }
  }
  // Collective: gather()'s sparse half, for a caller that walks the set bits rather than tests
  // them: every rank's set bits as positions in its slice, rising, rank after rank (positions()),
  // rank r's at [position_starts()[r], position_starts()[r + 1]).
  void gather_positions(const Bitmap& mine) {
    positions_.clear();
    for (std::int64_t w = 0; w < mine.num_words(); ++w)
      for (word_t bits = mine.word(w); bits; bits &= bits - 1)
        positions_.push_back(static_cast<std::uint32_t>(w * kWordBits + __builtin_ctzll(bits)));
    const mpi::Counts counts = comm_.allgather(static_cast<std::int64_t>(positions_.size()));
    const mpi::Counts displs = mpi::Comm::displacements(counts);
    gathered_.resize(static_cast<std::size_t>(displs.back() + counts.back()));
    comm_.allgatherv<std::uint32_t>(positions_, gathered_.data(), counts, displs);
    position_starts_.assign(displs.begin(), displs.end());
    position_starts_.push_back(displs.back() + counts.back());
  }
  std::span<const std::uint32_t> positions() const { return gathered_; }
  const std::vector<std::int64_t>& position_starts() const { return position_starts_; }
  // Rank r's first bit in the whole.
  std::int64_t first_bit(int r) const { return static_cast<std::int64_t>(word_displs_[r]) * kWordBits; }

  // Whether a slice's set-bit positions fit 32 bits (else only dense gathers are allowed).
  static bool positions_fit(std::int64_t slice_bits) { return slice_bits <= (std::int64_t{1} << 32); }

 private:
  const mpi::Comm& comm_;
  mpi::Counts word_counts_, word_displs_;
  std::vector<std::uint32_t> positions_, gathered_;
  std::vector<std::int64_t> position_starts_;  // of each rank's positions in gathered_, then their count
};

}  // namespace g500::exchange
