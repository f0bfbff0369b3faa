// Any bytes as a Matrix Market banner and as a size line: either a clear refusal or a size in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "io/graph_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const g500::MatrixMarketBanner banner = g500::parse_banner(text);
  if (!banner.error.empty() && banner.valued) std::abort();
  const std::optional<g500::vertex_t> n = g500::parse_size_line(text);
  if (n && (*n < 0 || *n > g500::kMaxFileId)) std::abort();
  return 0;
}
