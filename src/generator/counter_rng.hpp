#pragma once
// Counter-based random numbers: the value at (key, counter) is a pure function of both, so any
// rank or thread can produce any edge without generating the ones before it.
#include <cstdint>

namespace g500 {

// A bijective 64-bit mixer (the SplitMix64 finalizer); consecutive inputs give unrelated outputs.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

class CounterRng {
 public:
  explicit constexpr CounterRng(std::uint64_t seed) : key_(mix64(seed ^ 0x6a09e667f3bcc909ULL)) {}
  // The stream for one item (an edge, a root draw): a 64-bit value derived from the key.
  constexpr std::uint64_t stream(std::uint64_t item) const { return mix64(key_ + item * 0x9e3779b97f4a7c15ULL); }
  // The k-th 64-bit value of a stream.
  static constexpr std::uint64_t at(std::uint64_t stream, std::uint64_t k) {
    return mix64(stream + (k + 1) * 0xd1b54a32d192ed03ULL);
  }
  constexpr std::uint64_t key() const { return key_; }

 private:
  std::uint64_t key_;
};

}  // namespace g500
