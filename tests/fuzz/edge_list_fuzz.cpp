// Any bytes, line by line, through the text edge list parser (ids from 0 and from 1): it never
// reads past a line, and what it calls a tuple holds ids in range and a non-negative weight.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "io/graph_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // As the reader does: a byte order mark before the first line is skipped.
  const std::string_view text = g500::without_bom(std::string_view(reinterpret_cast<const char*>(data), size));
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    for (g500::vertex_t base : {0, 1}) {
      const g500::ParsedLine p = g500::parse_edge_line(text.substr(at, end - at), base);
      if (p.kind == g500::ParsedLine::tuple) {
        if (!g500::id_in_range(p.u) || !g500::id_in_range(p.v)) std::abort();
        if (p.columns != 2 && p.columns != 3) std::abort();
        if (!(p.weight >= 0) || p.weight > 3.5e38f || std::signbit(p.weight)) std::abort();
      } else if (p.kind == g500::ParsedLine::bad && p.why.empty()) {
        std::abort();
      }
    }
    at = end + 1;
  }
  return 0;
}
