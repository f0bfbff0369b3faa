// Any bytes as a Matrix Market banner, as a size line, and as a whole file checked as the reader
// checks it: each either a clear refusal or a header in range; a whole file is a graph or a
// complaint, never a crash. The seeds hold the malformed files a hostile sweep found accepted
// (entries outside the declared matrix, entry counts above and below the size line's, values in a
// pattern matrix) and a file behind a byte order mark.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "io/graph_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const g500::MatrixMarketBanner banner = g500::parse_banner(text);
  if (!banner.error.empty() && banner.valued) std::abort();
  const std::optional<g500::MatrixMarketSize> n = g500::parse_size_line(text);
  if (n && (n->rows < 0 || n->cols < 0 || n->entries < 0 || n->vertices() > g500::kMaxFileId)) std::abort();
  const std::string verdict = g500::check_matrix_market_text(text);
  // A refusal names its line unless it is about the file as a whole.
  if (!verdict.empty() && verdict.rfind("line ", 0) != 0 && verdict != "the file is empty" &&
      verdict != "no size line" && verdict.find("declares") == std::string::npos) {
    std::abort();
  }
  return 0;
}
