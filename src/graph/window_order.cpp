#include "graph/window_order.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "graph/degree_code.hpp"

namespace g500 {

WindowOrder window_order_by_length(std::span<const edge_count_t> offsets) {
  const local_t n = static_cast<local_t>(offsets.size()) - 1;
  const local_t windows = (n + WindowOrder::kWindow - 1) / WindowOrder::kWindow;
  WindowOrder order;
  order.to_new.resize(n);
  order.to_old.resize(n);
#pragma omp parallel for schedule(static)
  for (local_t w = 0; w < windows; ++w) {
    const local_t first = w * WindowOrder::kWindow, last = std::min(n, first + WindowOrder::kWindow);
    // A counting sort by degree class, highest first; each class keeps the old order.
    std::array<local_t, 257> start{};
    for (local_t i = first; i < last; ++i) ++start[256 - degree_code(offsets[i + 1] - offsets[i])];
    local_t at = first;
    for (int c = 0; c < 257; ++c) {
      const local_t here = start[c];
      start[c] = at;
      at += here;
    }
    for (local_t i = first; i < last; ++i) {
      const local_t now = start[256 - degree_code(offsets[i + 1] - offsets[i])]++;
      order.to_new[i] = static_cast<std::int16_t>(now - i);
      order.to_old[now] = static_cast<std::int16_t>(i - now);
    }
  }
  return order;
}

template <class Column>
void permute_rows(const WindowOrder& order, big_vector<edge_count_t>& offsets, big_vector<Column>& columns) {
  const local_t n = static_cast<local_t>(offsets.size()) - 1;
  const local_t windows = (n + WindowOrder::kWindow - 1) / WindowOrder::kWindow;
#pragma omp parallel
  {
    std::vector<Column> entries;
    std::vector<edge_count_t> old_offsets;
#pragma omp for schedule(dynamic, 4)
    for (local_t w = 0; w < windows; ++w) {
      const local_t first = w * WindowOrder::kWindow, last = std::min(n, first + WindowOrder::kWindow);
      const edge_count_t lo = offsets[first], hi = offsets[last];
      entries.assign(columns.data() + lo, columns.data() + hi);
      old_offsets.assign(offsets.data() + first, offsets.data() + last + 1);
      edge_count_t at = lo;
      for (local_t now = first; now < last; ++now) {
        const local_t old = order.old_of(now) - first;
        const edge_count_t from = old_offsets[old] - lo, length = old_offsets[old + 1] - old_offsets[old];
        std::memcpy(columns.data() + at, entries.data() + from, length * sizeof(Column));
        offsets[now] = at;
        at += length;
      }
    }
  }
}

template void permute_rows(const WindowOrder&, big_vector<edge_count_t>&, big_vector<std::uint32_t>&);
template void permute_rows(const WindowOrder&, big_vector<edge_count_t>&, big_vector<vertex_t>&);

}  // namespace g500
