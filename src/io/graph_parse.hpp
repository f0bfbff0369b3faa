#pragma once
// The parsers of graph files (io/graph_file.hpp), as pure functions of their text so that each can
// be fuzzed alone (tests/fuzz/): a text edge list's line, Matrix Market's banner and size line,
// and the ids of binary tuples. No I/O, no MPI.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace g500 {

// Ids up to SCALE 42, as --scale allows.
inline constexpr vertex_t kMaxFileId = vertex_t{1} << 42;

inline bool id_in_range(vertex_t id) { return id >= 0 && id < kMaxFileId; }

// One text line's tuple: a tuple, or skipped (blank or comment), or a complaint.
struct ParsedLine {
  enum Kind { tuple, skip, bad } kind = skip;
  vertex_t u = 0, v = 0;  // from 0
  float weight = 0;
  int columns = 0;  // 2 or 3 for a tuple
  std::string why;  // for a bad line
};

// "u v" or "u v w" separated by blanks, tabs or commas; ids from id_base (0, or 1 for Matrix
// Market); '#' or '%' first: a comment.
inline ParsedLine parse_edge_line(std::string_view line, vertex_t id_base) {
  const auto bad = [](std::string why) { return ParsedLine{ParsedLine::bad, 0, 0, 0, 0, std::move(why)}; };
  constexpr std::string_view kSeparators = " \t\r,";
  std::size_t at = line.find_first_not_of(kSeparators);
  if (at == std::string_view::npos || line[at] == '#' || line[at] == '%') return {};
  std::string_view tokens[3];
  int n = 0;
  while (at != std::string_view::npos) {
    if (n == 3) return bad("more than three columns");
    const std::size_t end = std::min(line.find_first_of(kSeparators, at), line.size());
    tokens[n++] = line.substr(at, end - at);
    at = line.find_first_not_of(kSeparators, end);
  }
  if (n < 2) return bad("fewer than two columns");
  vertex_t ids[2];
  for (int k = 0; k < 2; ++k) {
    const std::string_view t = tokens[k];
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), ids[k]);
    if (ec != std::errc() || ptr != t.data() + t.size()) return bad("'" + std::string(t) + "' is not a vertex id");
    if (ids[k] < id_base || !id_in_range(ids[k] - id_base)) {
      return bad("vertex id " + std::string(t) + " is out of range (" + std::to_string(id_base) + " .. 2^42" +
                 (id_base ? "" : " - 1") + ")");
    }
  }
  ParsedLine out{ParsedLine::tuple, ids[0] - id_base, ids[1] - id_base, 0, n, ""};
  if (n == 3) {
    double w = 0;
    const std::string_view t = tokens[2];
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), w);
    if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(w) || w < 0 || w > 3.0e38) {
      return bad("'" + std::string(t) + "' is not a non-negative weight");
    }
    out.weight = static_cast<float>(w) + 0.0f;  // -0 becomes +0: weights' bits must order like weights
  }
  return out;
}

// Matrix Market's first line: whether it describes a graph, and whether entries carry values.
struct MatrixMarketBanner {
  bool valued = false;
  std::string error;  // empty when the banner is fine
};

inline MatrixMarketBanner parse_banner(std::string_view line) {
  std::string banner(line);
  for (char& c : banner) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (banner.rfind("%%matrixmarket", 0) != 0) return {false, "no %%MatrixMarket banner"};
  if (banner.find("coordinate") == std::string::npos) return {false, "only coordinate matrices are graphs"};
  if (banner.find("complex") != std::string::npos) return {false, "complex values are no weights"};
  return {banner.find("pattern") == std::string::npos, ""};
}

// Matrix Market's size line "rows cols entries": the larger of rows and cols, or nothing.
inline std::optional<vertex_t> parse_size_line(std::string_view line) {
  vertex_t numbers[3];
  std::size_t at = 0;
  for (vertex_t& x : numbers) {
    at = line.find_first_not_of(" \t\r", at);
    if (at == std::string_view::npos) return std::nullopt;
    const auto [ptr, ec] = std::from_chars(line.data() + at, line.data() + line.size(), x);
    if (ec != std::errc() || x < 0) return std::nullopt;
    at = static_cast<std::size_t>(ptr - line.data());
    if (at < line.size() && line.find_first_of(" \t\r", at) != at) return std::nullopt;
  }
  if (line.find_first_not_of(" \t\r", at) != std::string_view::npos) return std::nullopt;
  const vertex_t size = std::max(numbers[0], numbers[1]);
  if (size > kMaxFileId) return std::nullopt;
  return size;
}

// A block of binary tuples (little-endian int64 pairs): the largest id and the first tuple with
// an id out of range (-1: none). `bytes` must be whole tuples; a file that is not is truncated.
struct BinaryScan {
  vertex_t max_id = -1;
  std::int64_t first_bad = -1;
};

inline bool whole_tuples(std::int64_t bytes) { return bytes % 16 == 0; }

inline BinaryScan scan_binary_tuples(const unsigned char* bytes, std::int64_t size) {
  BinaryScan out;
  for (std::int64_t k = 0; k + 16 <= size; k += 16) {
    vertex_t ids[2];
    std::memcpy(ids, bytes + k, 16);
    if (!id_in_range(ids[0]) || !id_in_range(ids[1])) {
      if (out.first_bad < 0) out.first_bad = k / 16;
    } else {
      out.max_id = std::max({out.max_id, ids[0], ids[1]});
    }
  }
  return out;
}

}  // namespace g500
