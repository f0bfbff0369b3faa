#pragma once
// A vertex degree in one byte, order-preserving: exact below 16, then a 3-bit mantissa under a
// power of two (steps of at most 12.5%), saturating at 255 from 2^34. Kernel 1 replicates one code
// per vertex on every rank to order rows by neighbour degree: N bytes, 8 times the frontier bitmap
// a 1D bottom-up step already replicates, instead of asking an owner for every stored entry.
#include <bit>
#include <cstdint>

namespace g500 {

constexpr std::uint8_t degree_code(std::uint64_t degree) {
  if (degree < 16) return static_cast<std::uint8_t>(degree);
  const int exponent = static_cast<int>(std::bit_width(degree)) - 1;  // 4 .. 63
  const int mantissa = static_cast<int>((degree >> (exponent - 3)) & 7);
  const int code = 16 + (exponent - 4) * 8 + mantissa;
  return static_cast<std::uint8_t>(code > 255 ? 255 : code);
}

}  // namespace g500
