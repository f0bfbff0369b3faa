#include "io/graph_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include <unistd.h>

#include "core/error.hpp"
#include "exchange/rounds.hpp"
#include "io/graph_parse.hpp"
#include "io/output_file.hpp"

namespace g500 {
namespace {

// What a binary weights file may hold: a non-negative finite float32 (-0 included).
bool is_weight(float w) { return w >= 0 && std::isfinite(w); }

constexpr std::int64_t kCheckpoint = std::int64_t{1} << 16;  // tuples between remembered line starts
constexpr std::int64_t kBlock = std::int64_t{1} << 22;       // bytes read at a time

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Reads a file's bytes from `at` on, line by line (a last line without '\n' included).
class LineReader {
 public:
  LineReader(const mpi::File& file, std::int64_t at, std::int64_t size) : file_(file), base_(at), next_(at), size_(size) {}

  // The next line (without '\n') and where it starts, or false at the end of the file.
  bool next(std::string_view& line, std::int64_t& start) {
    for (;;) {
      const char* begin = buffer_.data() + pos_;
      const char* end = buffer_.data() + buffer_.size();
      const char* nl = static_cast<const char*>(std::memchr(begin, '\n', end - begin));
      if (nl || (eof_ && begin < end)) {
        const char* stop = nl ? nl : end;
        line = std::string_view(begin, stop - begin);
        start = base_ + pos_;
        pos_ = (stop - buffer_.data()) + (nl ? 1 : 0);
        return true;
      }
      if (eof_) return false;
      refill();
    }
  }

 private:
  void refill() {
    // Keep the unfinished line, then append the next block.
    buffer_.erase(0, pos_);
    base_ += pos_;
    pos_ = 0;
    const std::int64_t want = std::min(kBlock, size_ - next_);
    if (want <= 0) {
      eof_ = true;
      return;
    }
    const std::size_t old = buffer_.size();
    buffer_.resize(old + want);
    std::string error;
    const std::int64_t got = file_.read_at(next_, std::as_writable_bytes(std::span(buffer_.data() + old, want)), error);
    if (got < 0) mpi::abort_job("cannot read '" + file_.path() + "': " + error);
    buffer_.resize(old + got);
    next_ += got;
    if (got < want || next_ >= size_) eof_ = true;
  }

  const mpi::File& file_;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::int64_t base_ = 0;  // file offset of buffer_[0]
  std::int64_t next_;
  std::int64_t size_;
  bool eof_ = false;
};

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

// Collective: the lowest of every rank's `index` (-1 on a rank: none there), or -1 when none has one.
std::int64_t lowest_everywhere(const mpi::Comm& comm, std::int64_t index) {
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  const std::int64_t lowest = comm.allreduce(index < 0 ? kNone : index, mpi::Op::min);
  return lowest == kNone ? -1 : lowest;
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

}  // namespace

GraphFormat graph_format(const std::string& path, const std::string& format) {
  if (format == "binary") return GraphFormat::binary;
  if (format == "edgelist") return GraphFormat::edge_list;
  if (format == "mtx") return GraphFormat::matrix_market;
  if (format != "auto") throw UserError("--format must be auto, binary, edgelist or mtx, got '" + format + "'");
  const std::string p = lower(path);
  if (ends_with(p, ".bin")) return GraphFormat::binary;
  if (ends_with(p, ".mtx")) return GraphFormat::matrix_market;
  for (const char* ext : {".txt", ".el", ".edges", ".tsv", ".csv", ".snap"})
    if (ends_with(p, ext)) return GraphFormat::edge_list;
  throw UserError("cannot tell the format of '" + path + "' from its name: give --format binary|edgelist|mtx");
}

const char* to_string(GraphFormat format) {
  switch (format) {
    case GraphFormat::binary: return "binary edge list";
    case GraphFormat::edge_list: return "text edge list";
    case GraphFormat::matrix_market: return "Matrix Market";
  }
  return "?";
}

namespace {

using Scan = FileEdgeSource::Scan;

// The opening pass over a binary edge file: this rank's share of whole tuples, every id checked.
Scan scan_binary_file(const mpi::Comm& comm, const mpi::File& file, const std::string& path) {
  const std::int64_t size = file.size();
  if (!whole_tuples(size)) {
    throw UserError("'" + path + "' is truncated: " + std::to_string(size) +
                    " bytes are not a whole number of 16-byte tuples");
  }
  const int p = comm.size(), r = comm.rank();
  Scan scan;
  const std::int64_t global = size / static_cast<std::int64_t>(sizeof(Edge));
  const std::int64_t first = slice_begin(global, r, p), count = slice_begin(global, r + 1, p) - first;
  scan.share = {global, first, count};
  std::vector<Edge> block;
  vertex_t max_id = -1;
  std::int64_t bad = -1;
  for (std::int64_t at = 0; at < count; at += kCheckpoint) {
    block.resize(std::min(kCheckpoint, count - at));
    std::string error;
    const std::int64_t want = static_cast<std::int64_t>(block.size() * sizeof(Edge));
    if (file.read_at((first + at) * static_cast<std::int64_t>(sizeof(Edge)), std::as_writable_bytes(std::span(block)),
                     error) != want) {
      mpi::abort_job("cannot read '" + path + "': " + error);
    }
    const BinaryScan found = scan_binary_tuples(reinterpret_cast<const unsigned char*>(block.data()), want);
    if (found.first_bad >= 0 && bad < 0) bad = first + at + found.first_bad;
    max_id = std::max(max_id, found.max_id);
  }
  const std::int64_t first_bad = lowest_everywhere(comm, bad);
  if (first_bad >= 0) {
    throw UserError("'" + path + "': tuple " + std::to_string(first_bad) + " has a vertex id outside 0 .. 2^42 - 1");
  }
  scan.vertices = comm.allreduce(max_id, mpi::Op::max) + 1;
  return scan;
}

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

// The opening pass over a text edge list or Matrix Market file: each rank scans the lines that
// start in its byte range, then all agree on the first bad line, the columns and the shares.
Scan scan_text_file(const mpi::Comm& comm, const mpi::File& file, const std::string& path, GraphFormat format) {
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

// Collective: a binary edge file's weights, checked to hold one non-negative float32 per tuple.
std::unique_ptr<mpi::File> open_weights(const mpi::Comm& comm, const std::string& weights,
                                        const decltype(Scan::share)& share) {
  auto weight_file = std::make_unique<mpi::File>(comm, weights, mpi::File::Mode::read);
  if (weight_file->size() != 4 * share.global) {
    throw UserError("'" + weights + "' holds " + std::to_string(weight_file->size()) + " bytes, not one float32 for " +
                    "each of the " + std::to_string(share.global) + " tuples");
  }
  std::vector<float> block;
  std::int64_t bad = -1;
  for (std::int64_t at = 0; at < share.count; at += kCheckpoint) {
    block.resize(std::min(kCheckpoint, share.count - at));
    std::string error;
    if (weight_file->read_at((share.first + at) * 4, std::as_writable_bytes(std::span(block)), error) !=
        static_cast<std::int64_t>(4 * block.size())) {
      mpi::abort_job("cannot read '" + weights + "': " + error);
    }
    for (std::size_t k = 0; k < block.size() && bad < 0; ++k)
      if (!is_weight(block[k])) bad = share.first + at + static_cast<std::int64_t>(k);
  }
  const std::int64_t first_bad = lowest_everywhere(comm, bad);
  if (first_bad >= 0) {
    throw UserError("'" + weights + "': the weight of tuple " + std::to_string(first_bad) +
                    " is not a non-negative number");
  }
  return weight_file;
}

}  // namespace

std::unique_ptr<FileEdgeSource> FileEdgeSource::open(const mpi::Comm& comm, const std::string& path,
                                                     GraphFormat format, Relabel relabel, const std::string& weights) {
  if (!weights.empty() && format != GraphFormat::binary) {
    throw UserError("--input-weights goes with a binary edge file; a text file carries its weights in a third column");
  }
  const io::FileStamp opened = io::stamp_of(path),
                      weights_opened = weights.empty() ? io::FileStamp{} : io::stamp_of(weights);
  auto file = std::make_unique<mpi::File>(comm, path, mpi::File::Mode::read);
  Scan scan = format == GraphFormat::binary ? scan_binary_file(comm, *file, path)
                                            : scan_text_file(comm, *file, path, format);
  if (scan.share.global == 0) throw UserError("'" + path + "' holds no edges");
  std::unique_ptr<mpi::File> weight_file;
  if (!weights.empty()) {
    weight_file = open_weights(comm, weights, scan.share);
    scan.weighted = true;
  }
  auto source = std::make_unique<FileEdgeSource>(std::move(file), path, format, std::move(scan));
  source->weights_ = std::move(weight_file);
  source->opened_ = opened;
  source->weights_opened_ = weights_opened;
  // auto: the tuples name at most 2M distinct ids, so an id range over 4M is less than half used,
  // known without counting (a file that uses most of its range pays no extra pass).
  if (relabel == Relabel::on || (relabel == Relabel::automatic && source->vertices_ > 4 * source->global_tuples())) {
    source->relabel_ = std::make_unique<IdRelabel>(*source, source->vertices_, comm);
    source->relabel(comm);
  }
  return source;
}

FileEdgeSource::~FileEdgeSource() {
  dense_.reset();  // deleted as it closes
  if (!dense_path_.empty()) io::forget_on_signal(dense_path_);
}

void FileEdgeSource::relabel(const mpi::Comm& comm) {
  // A staging name of io/output_file.hpp: removed on a catchable signal and on an abort, and one
  // left by a killed run is removed by the next run that relabels.
  std::string path, refusal;
  if (comm.is_root()) {
    const char* tmp = std::getenv("TMPDIR");
    const io::StagedPath scratch = io::stage(std::string(tmp && *tmp ? tmp : "/tmp") + "/g500-dense-ids.bin", getpid());
    path = scratch.write_path;
    if (scratch.in_place)
      refusal = "'" + scratch.final_path + "' is not a regular file: g500 keeps its relabelled tuples beside it";
  }
  refusal = comm.broadcast_string(refusal, 0);
  if (!refusal.empty()) throw UserError(refusal);
  path = comm.broadcast_string(path, 0);
  if (!comm.is_root()) io::remove_on_signal(path);  // this rank's open may create it
  dense_path_ = path;
  auto dense = std::make_unique<mpi::File>(comm, path, mpi::File::Mode::scratch);
  std::vector<vertex_t> ids;
  for_each_round(*this, comm, exchange::kBuildRound, [&](std::int64_t offset, std::span<const Edge> edges) {
    ids.resize(2 * edges.size());
    for (std::size_t k = 0; k < edges.size(); ++k) {
      ids[2 * k] = edges[k].u;
      ids[2 * k + 1] = edges[k].v;
    }
    relabel_->to_dense(ids);
    dense->write_at_all((first() + offset) * static_cast<std::int64_t>(sizeof(Edge)),
                        std::as_bytes(std::span(ids.data(), ids.size())));
  });
  vertices_ = relabel_->distinct();
  dense_ = std::move(dense);
}

void FileEdgeSource::to_file_ids(std::span<vertex_t> ids) const {
  if (relabel_) relabel_->to_original(ids);
  for (vertex_t& id : ids)
    if (id != kNoParent) id += id_base();
}

void FileEdgeSource::to_internal_ids(std::span<vertex_t> ids) const {
  for (vertex_t& id : ids) id = id - id_base() >= 0 && id - id_base() < kMaxFileId ? id - id_base() : kNoParent;
  if (relabel_) {
    relabel_->to_dense(ids);
  } else {
    for (vertex_t& id : ids)
      if (id >= vertices_) id = kNoParent;
  }
}

FileEdgeSource::FileEdgeSource(std::unique_ptr<mpi::File> file, std::string path, GraphFormat format, Scan scan)
    : EdgeSource(scan.share), file_(std::move(file)), path_(std::move(path)), format_(format),
      vertices_(scan.vertices), weighted_(scan.weighted), range_begin_(scan.range_begin),
      checkpoints_(std::move(scan.checkpoints)) {}

template <class Visit>
void FileEdgeSource::parse_from(std::int64_t first, std::int64_t count, Visit&& visit) const {
  if (count == 0) return;
  const std::int64_t checkpoint = first / kCheckpoint;
  LineReader reader(*file_, checkpoints_[checkpoint], file_->size());
  std::int64_t index = checkpoint * kCheckpoint;
  const vertex_t id_base = format_ == GraphFormat::matrix_market ? 1 : 0;
  std::string_view line;
  std::int64_t start = 0;
  while (index < first + count && reader.next(line, start)) {
    const ParsedLine parsed = parse_edge_line(line, id_base);
    if (parsed.kind != ParsedLine::tuple) continue;  // the opening pass saw no bad line here
    if (index >= first) visit(index - first, parsed);
    ++index;
  }
  if (index < first + count) mpi::abort_job("'" + path_ + "' changed while it was being read: it holds fewer tuples now");
}

void FileEdgeSource::check_unchanged(const std::string& path, const io::FileStamp& opened) const {
  const io::FileStamp now = io::stamp_of(path);
  if (now == opened) return;
  if (now.exists && now.bytes < opened.bytes) mpi::abort_job("cannot read '" + path + "': it is shorter now");
  mpi::abort_job("'" + path + "' changed while it was being read: it was replaced or written to since it was opened");
}

// Ids read again must lie where the opening pass found them: a file changed since could crash the
// build with any other id.
void FileEdgeSource::check_ids_again(std::span<const Edge> edges, std::int64_t offset) const {
  const vertex_t n = vertices_;
  bool bad = false;
#pragma omp parallel for schedule(static) reduction(|| : bad)
  for (std::size_t k = 0; k < edges.size(); ++k)
    bad = bad || edges[k].u < 0 || edges[k].u >= n || edges[k].v < 0 || edges[k].v >= n;
  if (bad) {
    mpi::abort_job("'" + path_ + "' changed while it was being read: tuples from " + std::to_string(first() + offset) +
                   " on name vertices it did not hold before");
  }
}

void FileEdgeSource::read(std::int64_t offset, std::span<Edge> out) const {
  if (format_ == GraphFormat::binary || dense_) {
    std::string error;
    const std::int64_t want = static_cast<std::int64_t>(out.size_bytes());
    if ((dense_ ? *dense_ : *file_).read_at((first() + offset) * static_cast<std::int64_t>(sizeof(Edge)), std::as_writable_bytes(out),
                       error) != want) {
      mpi::abort_job("cannot read '" + path_ + "': " + (error.empty() ? "it is shorter now" : error));
    }
    if (!dense_) {
      check_unchanged(path_, opened_);
      check_ids_again(out, offset);
    }
    return;
  }
  parse_from(offset, static_cast<std::int64_t>(out.size()),
             [&](std::int64_t k, const ParsedLine& t) { out[k] = Edge{t.u, t.v}; });
  check_unchanged(path_, opened_);
  check_ids_again(out, offset);
}

void FileEdgeSource::read_weights(std::int64_t offset, std::span<float> out) const {
  if (!weighted_) EdgeSource::read_weights(offset, out);
  if (weights_) {
    std::string error;
    if (weights_->read_at((first() + offset) * 4, std::as_writable_bytes(out), error) !=
        static_cast<std::int64_t>(out.size_bytes())) {
      mpi::abort_job("cannot read '" + weights_->path() + "': " + (error.empty() ? "it is shorter now" : error));
    }
    check_unchanged(weights_->path(), weights_opened_);
    bool bad = false;
#pragma omp parallel for schedule(static) reduction(|| : bad)
    for (std::size_t k = 0; k < out.size(); ++k) {
      bad = bad || !is_weight(out[k]);
      out[k] += 0.0f;  // -0 becomes +0, as for text weights
    }
    if (bad) mpi::abort_job("'" + weights_->path() + "' changed while it was being read: it holds a weight that is not a non-negative number now");
    return;
  }
  parse_from(offset, static_cast<std::int64_t>(out.size()),
             [&](std::int64_t k, const ParsedLine& t) { out[k] = t.weight; });
  check_unchanged(path_, opened_);
}

std::string FileEdgeSource::describe() const {
  return std::string(to_string(format_)) + " '" + path_ + "'" + (weighted_ ? " with weights" : "") +
         (relabel_ ? ", ids relabelled (dense tuples in a scratch file)" : "") + " (re-read on each pass)";
}

}  // namespace g500
