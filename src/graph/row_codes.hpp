#pragma once
// What the adjacency would take stored compressed, coded as paper 004 codes its fold on the wire:
// each row sorted by id, its first entry as the zigzag gap from the row's own vertex and every
// other as the gap from the one before, each gap in 7-bit byte codes (VLQ). Measured, not stored:
// the figure says how much further a compressed store would take the largest SCALE a node holds.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace g500 {

struct RowCodeSize {
  std::int64_t entries = 0;  // adjacency entries (arcs, duplicates dropped)
  std::int64_t bytes = 0;    // their codes
};

// Bytes of x in 7-bit groups, the last with its top bit clear.
constexpr std::int64_t vlq_bytes(std::uint64_t x) { return x < 128 ? 1 : (std::bit_width(x) + 6) / 7; }

// This rank's rows: row i (vertex first_row + i) holds columns[offsets[i] .. offsets[i + 1]).
template <class Column, class Offsets>
RowCodeSize measure_row_codes(const Offsets& offsets, const Column* columns, local_t rows, vertex_t first_row) {
  RowCodeSize size;
  std::int64_t bytes = 0;
#pragma omp parallel reduction(+ : bytes)
  {
    std::vector<Column> row;
#pragma omp for schedule(dynamic, 1024)
    for (local_t i = 0; i < rows; ++i) {
      row.assign(columns + offsets[i], columns + offsets[i + 1]);
      if (row.empty()) continue;
      std::sort(row.begin(), row.end());
      const std::int64_t from_row = static_cast<std::int64_t>(row[0]) - (first_row + i);
      bytes += vlq_bytes(from_row >= 0 ? 2 * static_cast<std::uint64_t>(from_row) : 2 * static_cast<std::uint64_t>(-from_row) - 1);
      for (std::size_t k = 1; k < row.size(); ++k) bytes += vlq_bytes(static_cast<std::uint64_t>(row[k] - row[k - 1]));
    }
  }
  size.entries = static_cast<std::int64_t>(offsets[rows]);
  size.bytes = bytes;
  return size;
}

}  // namespace g500
