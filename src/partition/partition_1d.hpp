#pragma once
// 1D block partition of [0, N) over P ranks, for any P. Blocks are whole 64-bit words so that each
// rank's part of a frontier bitmap is a contiguous run of words; sizes differ by at most 64 vertices.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/bitmap.hpp"
#include "core/types.hpp"

namespace g500 {

class Partition1D {
 public:
  Partition1D(vertex_t num_vertices, int num_ranks, int my_rank)
      : n_(num_vertices), p_(num_ranks), me_(my_rank), words_(words_for(num_vertices)),
        ranks_per_word_(static_cast<double>(num_ranks) / static_cast<double>(words_)),
        first_words_(num_ranks + 1) {
    for (int r = 0; r <= p_; ++r) first_words_[r] = words_ * r / p_;
    begin_ = begin_of(me_);
    end_ = begin_of(me_ + 1);
    // Equal blocks of a power-of-two size (the common case: N and P powers of two): owner by shift.
    const std::int64_t block = words_ / p_ * kWordBits;
    if (words_ % p_ == 0 && (block & (block - 1)) == 0) shift_ = __builtin_ctzll(static_cast<std::uint64_t>(block));
  }

  vertex_t num_vertices() const { return n_; }
  int num_ranks() const { return p_; }
  int rank() const { return me_; }

  // First word owned by rank r; rank r owns words [first_word(r), first_word(r + 1)).
  std::int64_t first_word(int r) const { return first_words_[r]; }
  vertex_t begin_of(int r) const { return std::min<vertex_t>(n_, first_word(r) * kWordBits); }
  vertex_t count_of(int r) const { return begin_of(r + 1) - begin_of(r); }

  // The rank whose block holds v. Hot in every exchange, so no integer division: a shift when the
  // blocks allow it, else a floating-point estimate corrected against the exact block bounds
  // (rarely more than one step).
  int owner(vertex_t v) const {
    if (shift_ >= 0) return static_cast<int>(v >> shift_);
    const std::int64_t w = v >> 6;
    int r = std::min(p_ - 1, static_cast<int>(static_cast<double>(w) * ranks_per_word_));
    while (first_words_[r] > w) --r;
    while (first_words_[r + 1] <= w) ++r;
    return r;
  }

  // Every rank's block as the counts and displacements of a collective (allgatherv), in vertices or
  // in whole words, 64-bit (mpi::Comm makes the calls in chunks where MPI's int would overflow).
  std::vector<std::int64_t> vertex_counts() const { return per_rank([&](int r) { return count_of(r); }); }
  std::vector<std::int64_t> vertex_displs() const { return per_rank([&](int r) { return begin_of(r); }); }
  std::vector<std::int64_t> word_counts() const {
    return per_rank([&](int r) { return first_word(r + 1) - first_word(r); });
  }
  std::vector<std::int64_t> word_displs() const { return per_rank([&](int r) { return first_word(r); }); }

  // This rank's block.
  vertex_t begin() const { return begin_; }
  vertex_t end() const { return end_; }
  vertex_t local_count() const { return end_ - begin_; }
  std::int64_t local_words() const { return first_word(me_ + 1) - first_word(me_); }
  bool owns(vertex_t v) const { return v >= begin_ && v < end_; }
  local_t to_local(vertex_t v) const { return v - begin_; }
  vertex_t to_global(local_t i) const { return begin_ + i; }

 private:
  template <class Of>
  std::vector<std::int64_t> per_rank(Of&& of) const {
    std::vector<std::int64_t> out(p_);
    for (int r = 0; r < p_; ++r) out[r] = of(r);
    return out;
  }

  vertex_t n_;
  int p_;
  int me_;
  std::int64_t words_;
  double ranks_per_word_;
  std::vector<std::int64_t> first_words_;
  vertex_t begin_ = 0;
  vertex_t end_ = 0;
  int shift_ = -1;  // log2 of the block size when all blocks are equal powers of two
};

}  // namespace g500
