// Any bytes as a binary edge file (16-byte tuples, as g500 generate writes them): truncation is
// exactly a partial last tuple, the first bad tuple is the first with an id out of range, and the
// largest id counts only tuples in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "io/graph_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::int64_t n = static_cast<std::int64_t>(size);
  if (g500::whole_tuples(n) != (size % 16 == 0)) std::abort();
  const std::int64_t whole = n / 16 * 16;
  const g500::BinaryScan scan = g500::scan_binary_tuples(data, whole);
  std::int64_t first_bad = -1;
  g500::vertex_t max_id = -1;
  for (std::int64_t k = 0; k < whole / 16; ++k) {
    g500::vertex_t ids[2];
    std::memcpy(ids, data + 16 * k, 16);
    const bool ok = ids[0] >= 0 && ids[1] >= 0 && ids[0] < g500::kMaxFileId && ids[1] < g500::kMaxFileId;
    if (!ok && first_bad < 0) first_bad = k;
    if (ok) max_id = std::max({max_id, ids[0], ids[1]});
  }
  if (scan.first_bad != first_bad || scan.max_id != max_id) std::abort();
  return 0;
}
