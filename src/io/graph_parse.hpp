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
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace g500 {

// Ids up to SCALE kMaxScale, as --scale allows.
inline constexpr vertex_t kMaxFileId = vertex_t{1} << kMaxScale;

inline bool id_in_range(vertex_t id) { return id >= 0 && id < kMaxFileId; }

// A file's text as a message shows it: printable ASCII as it is, any other byte as \xNN (a NUL
// must not end the message), at most 40 characters with "..." after.
inline std::string shown_text(std::string_view text) {
  constexpr std::size_t kWidth = 40;
  std::string out;
  for (const char c : text) {
    if (out.size() >= kWidth) return out + "...";
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// What every editor may put before a text file's first byte: UTF-8's byte order mark.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
inline std::string_view without_bom(std::string_view text) {
  return text.substr(0, kUtf8Bom.size()) == kUtf8Bom ? text.substr(kUtf8Bom.size()) : text;
}

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
  const auto quoted = [](std::string_view t) {
    std::string q(1, '\'');  // appended, not "'" + text: GCC 12 warns falsely (-Wrestrict) on that form
    q += shown_text(t);
    return q += '\'';
  };
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
    if (ec != std::errc() || ptr != t.data() + t.size()) return bad(quoted(t) + " is not a vertex id");
    if (ids[k] < id_base || !id_in_range(ids[k] - id_base)) {
      return bad("vertex id " + shown_text(t) + " is out of range (" + std::to_string(id_base) + " .. 2^" +
                 std::to_string(kMaxScale) + (id_base ? "" : " - 1") + ")");
    }
  }
  ParsedLine out{ParsedLine::tuple, ids[0] - id_base, ids[1] - id_base, 0, n, ""};
  if (n == 3) {
    double w = 0;
    const std::string_view t = tokens[2];
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), w);
    if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(w) || w < 0) {
      return bad(quoted(t) + " is not a non-negative weight");
    }
    // Weights are float32, as in a binary weights file: up to its largest value, and no further.
    if (w > std::numeric_limits<float>::max())
      return bad(quoted(t) + " is above the largest float32 weight (3.4028235e38)");
    out.weight = static_cast<float>(w) + 0.0f;  // -0 becomes +0: weights' bits must order like weights
  }
  return out;
}

// Matrix Market's first line: whether it describes a graph, and whether entries carry values.
struct MatrixMarketBanner {
  bool valued = false;
  std::string error;  // empty when the banner is fine
};

// "%%MatrixMarket matrix coordinate <field> <symmetry>", case aside: the field real, double, integer
// or pattern, the symmetry general or symmetric. Anything else g500 would read unfaithfully (a
// skew-symmetric matrix's negated entries, a hermitian or complex one's values, a word it does not
// know) is refused.
inline MatrixMarketBanner parse_banner(std::string_view line) {
  std::string banner(without_bom(line));
  for (char& c : banner) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> words;
  for (std::size_t at = banner.find_first_not_of(" \t\r"); at != std::string::npos;) {
    const std::size_t end = banner.find_first_of(" \t\r", at);
    words.push_back(banner.substr(at, end - at));
    at = end == std::string::npos ? end : banner.find_first_not_of(" \t\r", end);
  }
  if (words.empty() || words[0] != "%%matrixmarket") return {false, "no %%MatrixMarket banner"};
  if (words.size() < 2 || words[1] != "matrix") return {false, "the banner's object must be 'matrix'"};
  if (words.size() < 3 || words[2] != "coordinate") return {false, "only coordinate matrices are graphs"};
  if (words.size() < 4) return {false, "the banner names no field (real, integer or pattern)"};
  if (words[3] == "complex") return {false, "complex values are no weights"};
  if (words[3] != "real" && words[3] != "double" && words[3] != "integer" && words[3] != "pattern") {
    return {false, "the field '" + words[3] + "' is none of real, integer or pattern"};
  }
  if (words.size() < 5) return {false, "the banner names no symmetry (general or symmetric)"};
  if (words[4] == "skew-symmetric" || words[4] == "hermitian") {
    return {false, "a " + words[4] + " matrix is no undirected graph with non-negative weights"};
  }
  if (words[4] != "general" && words[4] != "symmetric") {
    return {false, "the symmetry '" + words[4] + "' is neither general nor symmetric"};
  }
  if (words.size() > 5) return {false, "the banner has a word too many: '" + words[5] + "'"};
  return {words[3] != "pattern", ""};
}

// Matrix Market's size line "rows cols entries".
struct MatrixMarketSize {
  vertex_t rows = 0, cols = 0;
  std::int64_t entries = 0;
  vertex_t vertices() const { return std::max(rows, cols); }
};

// The size line, or nothing when it is not three whole numbers with rows and cols in range.
inline std::optional<MatrixMarketSize> parse_size_line(std::string_view line) {
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
  if (std::max(numbers[0], numbers[1]) > kMaxFileId) return std::nullopt;
  return MatrixMarketSize{numbers[0], numbers[1], numbers[2]};
}

// A Matrix Market entry (parsed from 1, so u and v from 0) against the header: values exactly
// when the banner is not "pattern", and inside the rows x cols the size line declares. Empty
// when it is fine.
inline std::string check_entry(const ParsedLine& entry, const MatrixMarketSize& size, bool valued) {
  if (!valued && entry.columns == 3) return "a pattern matrix's entries carry no value, and this one has one";
  if (valued && entry.columns == 2) return "the banner gives entries a value, and this one has none";
  if (entry.u >= size.rows || entry.v >= size.cols) {
    return "entry (" + std::to_string(entry.u + 1) + ", " + std::to_string(entry.v + 1) + ") lies outside the " +
           std::to_string(size.rows) + " x " + std::to_string(size.cols) + " matrix the size line declares";
  }
  return "";
}

// The entry-count verdicts, worded once for the parallel reader and the whole-text check.
inline std::string more_entries(const MatrixMarketSize& size, std::int64_t size_line) {
  return "more entries than the " + std::to_string(size.entries) + " the size line (line " +
         std::to_string(size_line) + ") declares";
}
inline std::string fewer_entries(const MatrixMarketSize& size, std::int64_t size_line, std::int64_t found) {
  return "the size line (line " + std::to_string(size_line) + ") declares " + std::to_string(size.entries) +
         " entries, and the file holds " + std::to_string(found);
}

// A whole Matrix Market text checked as the parallel reader checks it, line by line: "" when it is
// a graph, else "line N: why" (or why, for the file as a whole). For the fuzzer and the tests.
inline std::string check_matrix_market_text(std::string_view text) {
  std::int64_t line_no = 0, entries = 0, size_line = 0;
  std::optional<MatrixMarketSize> size;
  bool valued = false;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const std::string where = "line " + std::to_string(++line_no) + ": ";
    if (line_no == 1) {
      const MatrixMarketBanner banner = parse_banner(line);
      if (!banner.error.empty()) return where + banner.error;
      valued = banner.valued;
      continue;
    }
    if (!size) {
      const std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos || line[first] == '%') continue;
      size = parse_size_line(line);
      if (!size) return where + "expected the size line 'rows cols entries'";
      size_line = line_no;
      continue;
    }
    const ParsedLine entry = parse_edge_line(line, 1);
    if (entry.kind == ParsedLine::skip) continue;
    if (entry.kind == ParsedLine::bad) return where + entry.why;
    if (const std::string why = check_entry(entry, *size, valued); !why.empty()) return where + why;
    if (++entries > size->entries) return where + more_entries(*size, size_line);
  }
  if (line_no == 0) return "the file is empty";
  if (!size) return "no size line";
  if (entries < size->entries) return fewer_entries(*size, size_line, entries);
  return "";
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
