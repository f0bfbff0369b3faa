#pragma once
// Degree order within windows (hybrid-1d's --degree-order): each rank's block is cut into windows
// of 32768 vertices, and inside each window the vertices are renumbered by decreasing degree class
// (graph/degree_code.hpp; ties keep their order). Ownership does not change, and a vertex moves at
// most 32767 places (a 2-byte delta), so:
//   - a bottom-up step walks each window's hubs first and its low-degree vertices together, whose
//     short rows then lie side by side;
//   - a search can write each parent straight at its vertex's original place, which lies in the
//     same window, in cache (256 KB of parents): a sort of the whole block would scatter those
//     writes over the block, and a pass over the parents at the end, even window by window, is
//     memory traffic of its own.
// The window sizes measured against each other, and against one sort of the whole block:
// docs/tuning.md.
// The maps are deltas (new position - old position and back), 2 bytes a vertex.
#include <cstdint>
#include <span>

#include "core/big_vector.hpp"
#include "core/types.hpp"

namespace g500 {

struct WindowOrder {
  static constexpr int kWindowBits = 15;  // smaller windows search slower (docs/tuning.md)
  static constexpr local_t kWindow = local_t{1} << kWindowBits;

  big_vector<std::int16_t> to_new;  // by old local index: new index - old index
  big_vector<std::int16_t> to_old;  // by new local index: old index - new index

  local_t new_of(local_t old) const { return old + to_new[old]; }
  local_t old_of(local_t now) const { return now + to_old[now]; }
};

// The order of a block whose row i (old numbering) holds offsets[i + 1] - offsets[i] arcs.
WindowOrder window_order_by_length(std::span<const edge_count_t> offsets);

// Moves the rows into the new order, window by window (each window's entries stay where they
// were as a whole, so offsets at window bounds do not change). Scratch: one window's entries per
// thread.
template <class Column>
void permute_rows(const WindowOrder& order, big_vector<edge_count_t>& offsets, big_vector<Column>& columns);

}  // namespace g500
