#pragma once
// A fixed set of global ids, each with its place in the list it was built from: open addressing
// with linear probing in a table of twice as many slots as ids (an id and its place in 12 bytes),
// so a lookup is one hash and mostly one cache line, after a one-bit filter that turns most ids
// outside the set away. For what every rank keeps about a bounded set of vertices, such as the
// hubs, where a bitmap of all N ids would grow with the graph.
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace g500 {

class IdIndex {
 public:
  IdIndex() = default;
  // `ids`: distinct, at most 2^32 of them.
  explicit IdIndex(std::span<const vertex_t> ids) : count_(static_cast<std::int64_t>(ids.size())) {
    slots_.assign(2 * ids.size() + 1, Slot{kEmpty, 0});
    filter_bits_ = 64;
    while (filter_bits_ < kFilterBitsAnId * ids.size()) filter_bits_ *= 2;
    filter_.assign(filter_bits_ / 64, 0);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::uint64_t f = filter_bit(ids[i]);
      filter_[f / 64] |= std::uint64_t{1} << (f % 64);
      std::size_t s = home(ids[i]);
      while (slots_[s].id != kEmpty) s = next(s);
      slots_[s] = {ids[i], static_cast<std::uint32_t>(i)};
    }
  }

  std::int64_t size() const { return count_; }
  // The place of `id` in the list, or -1 when it is not in the set.
  std::int64_t find(vertex_t id) const {
    if (count_ == 0) return -1;
    const std::uint64_t f = filter_bit(id);
    if (!((filter_[f / 64] >> (f % 64)) & 1)) return -1;  // most ids asked for are not in the set
    for (std::size_t s = home(id);; s = next(s)) {
      if (slots_[s].id == id) return slots_[s].place;
      if (slots_[s].id == kEmpty) return -1;
    }
  }
  // Bytes the index holds for `ids` ids.
  static double bytes(double ids) { return sizeof(Slot) * (2 * ids + 1) + 2 * kFilterBitsAnId * ids / 8; }

 private:
  static constexpr vertex_t kEmpty = -1;
  struct [[gnu::packed]] Slot {
    vertex_t id;
    std::uint32_t place;
  };
  // A multiplicative hash mapped onto the table by its high bits times the size (no power of two).
  std::size_t home(vertex_t id) const {
    const std::uint64_t h = static_cast<std::uint64_t>(id) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>((static_cast<unsigned __int128>(h) * slots_.size()) >> 64);
  }
  std::size_t next(std::size_t s) const { return s + 1 == slots_.size() ? 0 : s + 1; }
  // A bit for each id in a filter of at least kFilterBitsAnId bits an id, a power of two: a lookup
  // of an id not in the set mostly ends at one bit, in a table small enough for the cache.
  static constexpr std::size_t kFilterBitsAnId = 16;
  std::uint64_t filter_bit(vertex_t id) const {
    return (static_cast<std::uint64_t>(id) * 0xD6E8FEB86659FD93ull) >> 32 & (filter_bits_ - 1);
  }

  std::int64_t count_ = 0;
  std::vector<Slot> slots_;
  std::size_t filter_bits_ = 64;
  std::vector<std::uint64_t> filter_;
};

}  // namespace g500
