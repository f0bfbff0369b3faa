#pragma once
// Unsigned integers of a fixed width (1 to 57 bits) packed end to end in 64-bit words: an array
// of N-vertex ids in bit_width(N) bits instead of 32 or 64. Entries 64k .. 64k + 63 fill whole
// words (bits words of them), so threads that write disjoint runs of 64 entries never share a word.
#include <atomic>
#include <cstdint>
#include <cstring>

#include "core/big_vector.hpp"

namespace g500 {

// Entry i of `bits`-wide entries laid end to end from bit 0 of `words` (bits <= 57): one unaligned
// 8-byte load, so the words must run at least 8 bytes past the entry's first byte.
inline std::uint64_t packed_entry(const std::uint64_t* words, std::int64_t i, int bits) {
  const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits;
  std::uint64_t w;
  std::memcpy(&w, reinterpret_cast<const unsigned char*>(words) + bit / 8, sizeof w);
  return (w >> (bit % 8)) & ((std::uint64_t{1} << bits) - 1);
}

class PackedInts {
 public:
  static constexpr int kMaxBits = 57;  // a read is one unaligned 64-bit load
  PackedInts() = default;
  PackedInts(std::int64_t count, int bits)
      : bits_(bits), mask_((std::uint64_t{1} << bits) - 1), words_(static_cast<std::size_t>((count + 63) / 64 * bits + 1), 0) {}

  // Room for `count` entries left unset (no page touched): each entry must be set before it is read.
  static PackedInts for_overwrite(std::int64_t count, int bits) {
    PackedInts p;
    p.bits_ = bits;
    p.mask_ = (std::uint64_t{1} << bits) - 1;
    p.words_.resize(static_cast<std::size_t>((count + 63) / 64 * bits + 1));
    return p;
  }
  bool empty() const { return words_.empty(); }

  int bits() const { return bits_; }
  std::int64_t bytes() const { return static_cast<std::int64_t>(words_.size() * sizeof(std::uint64_t)); }

  std::uint64_t get(std::int64_t i) const { return packed_entry(words_.data(), i, bits_); }
  const std::uint64_t* words() const { return words_.data(); }  // for packed_entry in a hot loop
  // Not thread-safe within a run of 64 entries (see above). value < 2^bits.
  void set(std::int64_t i, std::uint64_t value) {
    const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits_;
    const std::size_t word = bit / 64;
    const int shift = static_cast<int>(bit % 64);
    words_[word] = (words_[word] & ~(mask_ << shift)) | (value << shift);
    if (shift + bits_ > 64) {
      const int high = 64 - shift;
      words_[word + 1] = (words_[word + 1] & ~(mask_ >> high)) | (value >> high);
    }
  }
  // The same, beside other threads' set_shared and get_shared calls on other entries (the words
  // are changed and read atomically), as when threads rewrite disjoint runs that share words.
  void set_shared(std::int64_t i, std::uint64_t value) {
    const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits_;
    const std::size_t word = bit / 64;
    const int shift = static_cast<int>(bit % 64);
    std::atomic_ref<std::uint64_t> low(words_[word]);
    low.fetch_and(~(mask_ << shift), std::memory_order_relaxed);
    low.fetch_or(value << shift, std::memory_order_relaxed);
    if (shift + bits_ > 64) {
      const int high = 64 - shift;
      std::atomic_ref<std::uint64_t> next(words_[word + 1]);
      next.fetch_and(~(mask_ >> high), std::memory_order_relaxed);
      next.fetch_or(value >> high, std::memory_order_relaxed);
    }
  }
  std::uint64_t get_shared(std::int64_t i) const {
    const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits_;
    const std::size_t word = bit / 64;
    const int shift = static_cast<int>(bit % 64);
    auto& words = const_cast<big_vector<std::uint64_t>&>(words_);  // atomic_ref needs a mutable object
    std::uint64_t entry = std::atomic_ref<std::uint64_t>(words[word]).load(std::memory_order_relaxed) >> shift;
    if (shift + bits_ > 64)
      entry |= std::atomic_ref<std::uint64_t>(words[word + 1]).load(std::memory_order_relaxed) << (64 - shift);
    return entry & mask_;
  }
  // Entry i set to 0 if it equals `value` (!= 0), whether it did. Shared: safe beside other
  // threads' calls (the words are read and cleared atomically), not beside set() or get(); without
  // it, for one thread alone, the clear is a plain store, which lets the misses around it overlap.
  template <bool Shared = true>
  bool clear_if_equal(std::int64_t i, std::uint64_t value) {
    if constexpr (!Shared) {
      if (get(i) != value) return false;
      set(i, 0);
      return true;
    }
    const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits_;
    const std::size_t word = bit / 64;
    const int shift = static_cast<int>(bit % 64);
    const bool spans = shift + bits_ > 64;
    std::atomic_ref<std::uint64_t> low(words_[word]);
    std::uint64_t entry = low.load(std::memory_order_relaxed) >> shift;
    if (spans) entry |= std::atomic_ref<std::uint64_t>(words_[word + 1]).load(std::memory_order_relaxed) << (64 - shift);
    if ((entry & mask_) != value) return false;
    low.fetch_and(~(mask_ << shift), std::memory_order_relaxed);
    if (spans) std::atomic_ref<std::uint64_t>(words_[word + 1]).fetch_and(~(mask_ >> (64 - shift)), std::memory_order_relaxed);
    return true;
  }
  const void* address(std::int64_t i) const {
    return reinterpret_cast<const unsigned char*>(words_.data()) + static_cast<std::uint64_t>(i) * bits_ / 8;
  }

 private:
  int bits_ = 1;
  std::uint64_t mask_ = 1;
  big_vector<std::uint64_t> words_;  // one word more, so the last entry's 8-byte load stays inside
};

}  // namespace g500
