#pragma once
// The width of stored vertex ids (--ids), one for both searching kernels' graphs: 32-bit whenever
// N <= 2^32 unless told otherwise. A run settles it once (harness/resolve.hpp); engines read only
// a settled width.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/types.hpp"

namespace g500 {

enum class IdWidth { automatic, bits32, bits64 };

// --ids made concrete for an N-vertex graph: 32-bit whenever N <= 2^32 unless 64 was asked for.
// Throws UserError when 32 bits were asked for and N does not fit.
inline IdWidth settle_ids(IdWidth asked, std::int64_t num_vertices) {
  const bool fits = fits_32_bit(num_vertices);
  if (asked == IdWidth::bits32 && !fits) {
    throw UserError("--ids 32 cannot hold " + std::to_string(num_vertices) + " vertices (more than 2^32)");
  }
  if (asked != IdWidth::automatic) return asked;
  return fits ? IdWidth::bits32 : IdWidth::bits64;
}

// --grid-positions made concrete: a 2D engine's stored row-range positions, below `widest_range`
// (the most any processor row holds), no wider than the settled ids and 32-bit whenever the range
// fits unless 64 was asked for. Throws UserError for a width that cannot be.
inline IdWidth settle_positions(IdWidth asked, IdWidth ids, std::int64_t widest_range) {
  const bool fits = ids == IdWidth::bits32 || fits_32_bit(widest_range);
  if (asked == IdWidth::bits32 && !fits) {
    throw UserError("--grid-positions 32 cannot hold a processor row's " + std::to_string(widest_range) +
                    " positions (more than 2^32): use more grid rows or 64");
  }
  if (asked == IdWidth::bits64 && ids == IdWidth::bits32) {
    throw UserError("--grid-positions 64 needs --ids 64 (positions are no wider than ids)");
  }
  if (asked != IdWidth::automatic) return asked;
  return fits ? IdWidth::bits32 : IdWidth::bits64;
}

// Whether a settled width is 32 bits (std::logic_error when it was never settled).
inline bool is_32_bit(IdWidth ids) {
  if (ids == IdWidth::automatic) throw std::logic_error("--ids was not settled (harness/resolve.hpp)");
  return ids == IdWidth::bits32;
}

}  // namespace g500
