#pragma once
// Row offsets stored as narrow as the rank's entries allow: 32-bit while they number below 2^32
// (every rank up to SCALE 26 on two ranks), 64-bit past that, chosen once kernel 1 knows the count.
// Half the bytes of a table with an entry per row, for layouts whose rows outnumber the rank's
// vertices (a 2D rank has a row for each vertex of its processor column: C times its block).
#include <cstdint>
#include <limits>
#include <utility>

#include "core/big_vector.hpp"
#include "core/types.hpp"

namespace g500 {

class RowOffsets {
 public:
  RowOffsets() = default;
  // Takes the offsets of rows + 1 entries; narrows them when the last one fits.
  explicit RowOffsets(big_vector<edge_count_t> wide) {
    if (!wide.empty() && wide.back() <= static_cast<edge_count_t>(std::numeric_limits<std::uint32_t>::max())) {
      narrow_.resize(wide.size());
      for (std::size_t i = 0; i < wide.size(); ++i) narrow_[i] = static_cast<std::uint32_t>(wide[i]);
    } else {
      wide_ = std::move(wide);
    }
  }

  // Takes offsets already narrow.
  explicit RowOffsets(big_vector<std::uint32_t> narrow) : narrow_(std::move(narrow)) {}

  bool narrow() const { return !narrow_.empty(); }
  std::size_t size() const { return narrow() ? narrow_.size() : wide_.size(); }
  edge_count_t operator[](std::size_t i) const { return narrow() ? narrow_[i] : wide_[i]; }
  edge_count_t back() const { return (*this)[size() - 1]; }
  // The 32-bit offsets, or null when they are 64-bit: for a hot loop that tests once.
  const std::uint32_t* narrow_data() const { return narrow() ? narrow_.data() : nullptr; }

 private:
  big_vector<std::uint32_t> narrow_;
  big_vector<edge_count_t> wide_;
};

}  // namespace g500
