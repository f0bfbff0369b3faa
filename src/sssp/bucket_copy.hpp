#pragma once
// One bucket's newly settled vertices and their distances, replicated on every rank, for pulling
// heavy relaxations (Chakaravarthy et al., IPDPS 2014): a bitmap over all N ids, the number of set
// bits before each word, and the distances in id order (read off the bits, so the members may come
// in any order), so looking up u is a bit test, a popcount and a load. N/8 + N/8 bytes a rank, plus
// 4 bytes a settled vertex; the gather sends each rank's slice of the bitmap and its distances.
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

class BucketCopy {
 public:
  // Collective. `members`: this rank's settled vertices, in any order; dist_of(i) their distances.
  template <class DistOf>
  void gather(const mpi::Comm& comm, const Partition1D& part, std::span<const local_t> members, DistOf&& dist_of) {
    if (bits_.size() != part.num_vertices()) {
      bits_ = Bitmap(part.num_vertices());
      before_.assign(bits_.num_words() + 1, 0);
    }
    word_t* words = bits_.data();
    const std::int64_t first = part.first_word(part.rank());
    std::fill(words + first, words + first + part.local_words(), word_t{0});
    for (const local_t v : members) {
      const vertex_t g = part.to_global(v);
      words[g >> 6] |= word_t{1} << (g & 63);
    }
    // The distances in id order, read off this rank's slice of the bits: no sort of the members.
    std::vector<float> mine;
    mine.reserve(members.size());
    for (std::int64_t w = first; w < first + part.local_words(); ++w) {
      for (word_t bits = words[w]; bits; bits &= bits - 1) {
        const vertex_t g = w * kWordBits + std::countr_zero(bits);
        mine.push_back(dist_of(part.to_local(g)));
      }
    }
    comm.allgatherv_inplace(words, part.word_counts(), part.word_displs());
    for (std::int64_t w = 0; w < bits_.num_words(); ++w)
      before_[w + 1] = before_[w] + std::popcount(words[w]);
    const mpi::Counts counts = comm.allgather(static_cast<std::int64_t>(mine.size()));
    dist_.resize(static_cast<std::size_t>(before_.back()));
    comm.allgatherv<float>(mine, dist_.data(), counts, mpi::Comm::displacements(counts));
    lowest_ = std::numeric_limits<float>::infinity();
    for (const float d : dist_) lowest_ = std::min(lowest_, d);
  }
  bool contains(vertex_t u) const { return bits_.test(u); }
  // The distance of u, which the set contains.
  float dist(vertex_t u) const {
    const word_t below = bits_.word(u >> 6) & ((word_t{1} << (u & 63)) - 1);
    return dist_[static_cast<std::size_t>(before_[u >> 6] + std::popcount(below))];
  }
  float lowest() const { return lowest_; }  // no member's distance is below it

 private:
  Bitmap bits_;
  std::vector<std::int64_t> before_;  // set bits in the words before each word
  std::vector<float> dist_;
  float lowest_ = 0;
};

}  // namespace g500
