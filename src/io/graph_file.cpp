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
#include "io/text_graph_file.hpp"

namespace g500 {
namespace {

using text_file::kCheckpoint;
using text_file::LineReader;
using text_file::lowest_everywhere;

// What a binary weights file may hold: a non-negative finite float32 (-0 included).
bool is_weight(float w) { return w >= 0 && std::isfinite(w); }


std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}


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
    throw UserError("'" + path + "': tuple " + std::to_string(first_bad) + " has a vertex id outside 0 .. 2^" +
                    std::to_string(kMaxScale) + " - 1");
  }
  scan.vertices = comm.allreduce(max_id, mpi::Op::max) + 1;
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
                                            : text_file::scan(comm, *file, path, format);
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
