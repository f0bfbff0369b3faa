#include "io/text_graph_file.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "io/graph_parse.hpp"

namespace g500::text_file {

std::int64_t lowest_everywhere(const mpi::Comm& comm, std::int64_t index) {
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  const std::int64_t lowest = comm.allreduce(index < 0 ? kNone : index, mpi::Op::min);
  return lowest == kNone ? -1 : lowest;
}

namespace {

using Scan = FileEdgeSource::Scan;

// Where a text file's lines start: after the header of a Matrix Market file (its banner and size
// line, read by rank 0), or after a UTF-8 byte order mark. For Matrix Market, whether entries carry
// values and the size line.
struct TextHeader {
  std::int64_t data_start = 0;
  std::int64_t lines_before = 0;
  bool matrix_market = false;
  bool valued = false;
  MatrixMarketSize size;
  std::int64_t size_line = 0;
  std::string error;
};

TextHeader read_matrix_market_header(const mpi::File& file, std::int64_t size) {
  TextHeader h;
  h.matrix_market = true;
  LineReader reader(file, 0, size);
  std::string_view line;
  std::int64_t start = 0;
  const auto failed = [](std::string why) {
    TextHeader bad;
    bad.error = std::move(why);
    return bad;
  };
  if (!reader.next(line, start)) return failed("the file is empty");
  const MatrixMarketBanner banner = parse_banner(line);
  if (!banner.error.empty()) return failed("line 1: " + banner.error);
  h.valued = banner.valued;
  h.lines_before = 1;
  while (reader.next(line, start)) {
    ++h.lines_before;
    const std::size_t at = line.find_first_not_of(" \t\r");
    if (at == std::string_view::npos || line[at] == '%') continue;
    const std::optional<MatrixMarketSize> size_line = parse_size_line(line);
    if (!size_line) {
      return failed("line " + std::to_string(h.lines_before) + ": expected the size line 'rows cols entries'");
    }
    h.size = *size_line;
    h.size_line = h.lines_before;
    h.data_start = std::min(size, start + static_cast<std::int64_t>(line.size()) + 1);  // the next line
    return h;
  }
  return failed("no size line");
}

// An edge list's header: nothing, or a byte order mark to skip.
TextHeader read_edge_list_header(const mpi::File& file) {
  TextHeader h;
  char first[3] = {};
  std::string error;
  if (file.size() >= 3 && file.read_at(0, std::as_writable_bytes(std::span(first)), error) == 3 &&
      std::string_view(first, 3) == kUtf8Bom) {
    h.data_start = 3;
  }
  return h;
}

// The opening pass over this rank's lines of a text file.
struct TextScan {
  std::int64_t tuples = 0, lines_in_range = 0;
  vertex_t max_id = -1;
  int columns = 0;  // 2 or 3 once seen; -1 when lines disagree
  std::vector<std::int64_t> checkpoints;
  std::int64_t bad_at = -1;  // byte where the first bad line starts
  std::string why;
};

// Collective: a text file's header, read by rank 0 and known to all (UserError on every rank when
// it is malformed).
TextHeader shared_header(const mpi::Comm& comm, const mpi::File& file, const std::string& path, GraphFormat format) {
  TextHeader h;
  if (comm.is_root()) {
    h = format == GraphFormat::matrix_market ? read_matrix_market_header(file, file.size()) : read_edge_list_header(file);
  }
  std::int64_t fields[8] = {h.data_start, h.lines_before, h.matrix_market, h.valued, h.size.rows, h.size.cols,
                            h.size.entries, h.size_line};
  comm.broadcast(std::span<std::int64_t>(fields, 8), 0);
  h.error = comm.broadcast_string(h.error, 0);
  if (!h.error.empty()) throw UserError("'" + path + "': " + h.error);
  h.data_start = fields[0];
  h.lines_before = fields[1];
  h.matrix_market = fields[2] != 0;
  h.valued = fields[3] != 0;
  h.size = {fields[4], fields[5], fields[6]};
  h.size_line = fields[7];
  return h;
}

// This rank's lines of a text file: those that start in [lo, hi), each parsed once; stops at the
// first bad one.
TextScan scan_lines(const mpi::File& file, std::int64_t lo, std::int64_t hi, const TextHeader& header,
                    std::int64_t& range_begin) {
  const std::int64_t data = header.data_start;
  const vertex_t id_base = header.matrix_market ? 1 : 0;
  const std::int64_t size = file.size();
  TextScan t;
  // This rank's first line: the one starting at lo, or the first after a '\n' at or beyond lo - 1.
  std::int64_t begin = lo;
  if (lo > data && lo < size) {
    LineReader probe(file, lo - 1, size);
    std::string_view line;
    std::int64_t start = 0;
    probe.next(line, start);
    begin = lo - 1 + static_cast<std::int64_t>(line.size()) + 1;
  }
  range_begin = begin;
  LineReader reader(file, begin, size);
  std::string_view line;
  std::int64_t start = 0;
  while (begin < hi && reader.next(line, start) && start < hi) {
    ++t.lines_in_range;
    const ParsedLine parsed = parse_edge_line(line, id_base);
    if (parsed.kind == ParsedLine::skip) continue;
    std::string why = parsed.kind == ParsedLine::bad ? parsed.why
                      : header.matrix_market         ? check_entry(parsed, header.size, header.valued)
                      : t.columns && parsed.columns != t.columns ? "some lines have weights and some do not"
                                                                 : "";
    if (!why.empty()) {
      t.bad_at = start;
      t.why = std::move(why);
      t.lines_in_range -= 1;  // lines before this one in the range, for the line number
      break;
    }
    t.columns = parsed.columns;
    if (t.tuples % kCheckpoint == 0) t.checkpoints.push_back(start);
    ++t.tuples;
    t.max_id = std::max({t.max_id, parsed.u, parsed.v});
  }
  return t;
}

// Collective: a Matrix Market file holds as many entries as its size line declares; UserError on
// every rank naming the first entry too many, or the size line when there are too few. Entry
// `declared` (from 0) is this rank's when it lies in [first, first + count): its line is found by
// reading the rank's lines again, from `range_begin`, where lines_before lines precede them.
void check_entry_count(const mpi::Comm& comm, const mpi::File& file, const std::string& path, const TextHeader& header,
                       std::int64_t global, std::int64_t first, std::int64_t count, std::int64_t lines_before,
                       std::int64_t range_begin) {
  const std::int64_t declared = header.size.entries;
  if (global < declared) throw UserError("'" + path + "': " + fewer_entries(header.size, header.size_line, global));
  if (global == declared) return;
  std::int64_t line_no = -1;
  if (declared >= first && declared < first + count) {
    LineReader reader(file, range_begin, file.size());
    std::string_view line;
    std::int64_t start = 0, entry = first;
    for (line_no = lines_before + 1; reader.next(line, start); ++line_no) {
      if (parse_edge_line(line, 1).kind != ParsedLine::tuple) continue;
      if (entry++ == declared) break;
    }
  }
  line_no = comm.allreduce(line_no, mpi::Op::max);
  throw UserError("'" + path + "' line " + std::to_string(line_no) + ": " + more_entries(header.size, header.size_line));
}

}  // namespace

FileEdgeSource::Scan scan(const mpi::Comm& comm, const mpi::File& file, const std::string& path, GraphFormat format) {
  const int p = comm.size(), r = comm.rank();
  const TextHeader header = shared_header(comm, file, path, format);
  const std::int64_t data = header.data_start, bytes = file.size() - data;
  Scan scan;
  const TextScan t = scan_lines(file, data + bytes * r / p, data + bytes * (r + 1) / p, header, scan.range_begin);
  // The first bad line anywhere: its rank reports the line number from the lines before it.
  const std::vector<std::int64_t> lines = comm.allgather(t.lines_in_range);
  std::int64_t lines_before = header.lines_before;
  for (int k = 0; k < r; ++k) lines_before += lines[k];
  const int bad_rank = comm.allreduce(t.bad_at >= 0 ? r : p, mpi::Op::min);
  if (bad_rank < p) {
    throw UserError(comm.broadcast_string(
        "'" + path + "' line " + std::to_string(lines_before + t.lines_in_range + 1) + ": " + t.why, bad_rank));
  }
  // Every rank must agree on the columns: all two, or all three (with weights).
  const int most = comm.allreduce(t.columns, mpi::Op::max);
  const int least = comm.allreduce(t.columns ? t.columns : most, mpi::Op::min);
  if (most != least) throw UserError("'" + path + "': some lines have weights and some do not");
  const std::vector<std::int64_t> tuples = comm.allgather(t.tuples);
  std::int64_t first = 0, global = 0;
  for (int k = 0; k < p; ++k) {
    if (k < r) first += tuples[k];
    global += tuples[k];
  }
  if (header.matrix_market) check_entry_count(comm, file, path, header, global, first, t.tuples, lines_before, scan.range_begin);
  scan.share = {global, first, t.tuples};
  scan.weighted = most == 3;
  scan.checkpoints = t.checkpoints;
  scan.data_start = data;
  scan.vertices = std::max<vertex_t>(comm.allreduce(t.max_id, mpi::Op::max) + 1, header.size.vertices());
  return scan;
}

}  // namespace g500::text_file
