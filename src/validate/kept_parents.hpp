#pragma once
// The parents of the searches that wait for their batch's pass over the tuples (BFS and SSSP
// validation): the engine's parent array is overwritten by the next search, so each waiting search
// keeps a copy on its owner, each parent + 1 in bit_width(N) bits (0: none), or whole vertex_t when
// ids are too wide to pack.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "core/big_vector.hpp"
#include "core/packed_ints.hpp"
#include "core/types.hpp"
#include "validate/tree_table.hpp"

namespace g500::validation {

class KeptParents {
 public:
  // Room for `slots` waiting searches of `local_count` vertices each, made at the first keep().
  KeptParents(vertex_t n, local_t local_count, int slots) : local_count_(local_count), slots_(slots), bits_(bits_for(n)) {}

  void keep(int slot, std::span<const vertex_t> parents) {
    if (bits_ > 0) {
      // Made at a slot's first keep, which writes every entry: no page is touched twice.
      if (packed_.empty()) packed_.resize(slots_);
      PackedInts& kept = packed_[slot];
      if (kept.empty()) kept = PackedInts::for_overwrite(local_count_, bits_);
      // Runs of 64 entries fill whole words: one thread each.
#pragma omp parallel for schedule(static)
      for (local_t run = 0; run < (local_count_ + 63) / 64; ++run)
        for (local_t i = run * 64; i < std::min(local_count_, run * 64 + 64); ++i)
          kept.set(i, static_cast<std::uint64_t>(parents[i] + 1));
    } else {
      if (wide_.empty()) wide_.resize(static_cast<std::size_t>(slots_) * local_count_);
      std::copy(parents.begin(), parents.end(), wide_.begin() + static_cast<std::ptrdiff_t>(slot) * local_count_);
    }
  }

  SlotParents operator[](int slot) {
    if (bits_ > 0) return {nullptr, &packed_[slot]};
    return {wide_.data() + static_cast<std::size_t>(slot) * local_count_, nullptr};
  }

  // What a batch's check reads (and spends: tree_table.hpp) for slots 0 .. used - 1: the kept
  // copies, and for the last slot, when the search just ended took it, that search's parents in place.
  std::vector<SlotParents> for_check(int used, bool last_in_place, std::span<const vertex_t> in_place) {
    std::vector<SlotParents> slots;
    for (int s = 0; s < used; ++s)
      slots.push_back(last_in_place && s == used - 1 ? SlotParents{in_place.data(), nullptr} : (*this)[s]);
    return slots;
  }

  // Bytes a kept copy takes per vertex of its owner.
  static double bytes_per_vertex(vertex_t n) {
    const int bits = bits_for(n);
    return bits > 0 ? bits / 8.0 : 8.0;
  }

 private:
  // The width of parent + 1 (up to N), or 0 when only whole vertex_t will do.
  static int bits_for(vertex_t n) {
    const int bits = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
    return bits <= PackedInts::kMaxBits ? bits : 0;
  }

  local_t local_count_;
  int slots_, bits_;
  std::vector<PackedInts> packed_;  // by slot
  big_vector<vertex_t> wide_;       // slot s at s * local_count
};

}  // namespace g500::validation
