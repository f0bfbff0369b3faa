#include "app/graph_record.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "core/error.hpp"
#include "core/types.hpp"
#include "generator/kronecker.hpp"
#include "io/file_stamp.hpp"
#include "io/output_file.hpp"

namespace g500 {
namespace {

// The first line of every record; a file that starts otherwise is not g500's. The generator's name
// changes whenever the generator's output for a seed does.
constexpr const char* kRecordHeader = "g500 graph record 1";
constexpr const char* kGeneratorName = "kronecker-2";

using io::FileStamp;
using io::stamp_of;

std::int64_t tuples_of(const GraphFiles& f) { return static_cast<std::int64_t>(f.edgefactor) << f.scale; }

std::string describe(const GraphFiles& f) {
  return "SCALE " + std::to_string(f.scale) + ", edgefactor " + std::to_string(f.edgefactor) + ", seed " +
         std::to_string(f.seed) + (f.weights.empty() ? "" : ", with weights");
}

// The record's `key value` lines, or nothing when the file is not a record of g500's.
std::optional<std::map<std::string, std::string>> read_record(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line) || line != kRecordHeader) return std::nullopt;
  std::map<std::string, std::string> fields;
  while (std::getline(in, line)) {
    const std::size_t space = line.find(' ');
    if (space == std::string::npos) return std::nullopt;
    fields[line.substr(0, space)] = line.substr(space + 1);
  }
  return fields;
}

// What differs between the record and the run's graph, or between the record and the file as it
// is now; empty when nothing does.
std::string record_differs(const std::map<std::string, std::string>& r, const GraphFiles& want) {
  const auto field = [&](const char* key) {
    const auto it = r.find(key);
    return it == r.end() ? std::string("(none)") : it->second;
  };
  if (field("generator") != kGeneratorName) return "it was made by generator " + field("generator");
  const std::tuple<const char*, const char*, std::string> graph[] = {
      {"scale", "SCALE", std::to_string(want.scale)},
      {"edgefactor", "edgefactor", std::to_string(want.edgefactor)},
      {"seed", "seed", std::to_string(want.seed)}};
  for (const auto& [key, shown, value] : graph) {
    if (field(key) != value) return "it holds the graph of " + std::string(shown) + " " + field(key) + ", not " + value;
  }
  if (!want.weights.empty() && field("weights") != "1") return "it holds no weights";
  // Each file as recorded, and of this graph's size (a record could be copied beside another file).
  const std::tuple<std::string, std::string, std::int64_t> files[] = {
      {"edges", want.edges, tuples_of(want) * static_cast<std::int64_t>(sizeof(Edge))},
      {"weights", want.weights, tuples_of(want) * static_cast<std::int64_t>(sizeof(float))}};
  for (const auto& [key, path, bytes] : files) {
    if (path.empty()) continue;
    const FileStamp now = stamp_of(path);
    if (!now.exists) return "'" + path + "' is missing";
    if (field((key + "_bytes").c_str()) != std::to_string(now.bytes) ||
        field((key + "_inode").c_str()) != std::to_string(now.inode) ||
        field((key + "_mtime_ns").c_str()) != std::to_string(now.mtime_ns)) {
      return "'" + path + "' changed since it was written (its size, inode or time differ from its record)";
    }
    if (now.bytes != bytes)
      return "'" + path + "' is " + std::to_string(now.bytes) + " bytes, not " + std::to_string(bytes);
  }
  return "";
}

// Tuple indices spread over the whole list, the last one included.
std::int64_t sampled_index(std::int64_t k, std::int64_t tuples) {
  const std::int64_t count = std::min(kSampledTuples, tuples);
  return k + 1 == count ? tuples - 1 : static_cast<std::int64_t>(static_cast<__int128>(k) * tuples / count);
}

// The first sampled tuple (or weight) that is not the generator's, in words; empty when all are.
std::string content_differs(const GraphFiles& want) {
  const KroneckerGenerator gen(want.scale, want.edgefactor, want.seed);
  const std::int64_t tuples = tuples_of(want);
  std::ifstream edges(want.edges, std::ios::binary);
  std::ifstream weights;
  if (!want.weights.empty()) weights.open(want.weights, std::ios::binary);
  for (std::int64_t k = 0; k < std::min(kSampledTuples, tuples); ++k) {
    const std::int64_t i = sampled_index(k, tuples);
    Edge e{};
    edges.seekg(i * static_cast<std::int64_t>(sizeof(Edge)));
    if (!edges.read(reinterpret_cast<char*>(&e), sizeof e)) return "'" + want.edges + "' cannot be read";
    const Edge g = gen.edge(i);
    if (e.u != g.u || e.v != g.v) return "its tuple " + std::to_string(i) + " is not this graph's";
    if (want.weights.empty()) continue;
    float w = 0;
    weights.seekg(i * 4);
    if (!weights.read(reinterpret_cast<char*>(&w), sizeof w)) return "'" + want.weights + "' cannot be read";
    const float gw = gen.weight(i);
    if (std::memcmp(&w, &gw, sizeof w) != 0) return "its weight " + std::to_string(i) + " is not this graph's";
  }
  return "";
}

}  // namespace

std::string record_path(const std::string& edges) { return edges + ".g500"; }

std::string not_a_plain_file(const std::string& path) {
  struct stat st;
  if (path.empty() || lstat(path.c_str(), &st) != 0) return "";
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISLNK(st.st_mode)) return "'" + path + "' is a symbolic link";
  if (S_ISDIR(st.st_mode)) return "'" + path + "' is a directory";
  if (S_ISFIFO(st.st_mode)) return "'" + path + "' is a FIFO";
  if (S_ISSOCK(st.st_mode)) return "'" + path + "' is a socket";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "'" + path + "' is a device";
  return "'" + path + "' is not a regular file";
}

RecordCheck check_record(const GraphFiles& files) {
  using Verdict = RecordCheck::Verdict;
  const std::string record = record_path(files.edges);
  const bool edges = io::something_at(files.edges), weights = io::something_at(files.weights);
  if (!io::something_at(record)) {
    if (!edges && !weights) return {Verdict::absent, ""};
    return {Verdict::unrecorded, "it has no record of the graph it holds ('" + record + "' is missing)"};
  }
  const auto fields = read_record(record);
  if (!fields) return {Verdict::unrecorded, "'" + record + "' is not a record g500 wrote"};
  if (!edges) return {Verdict::another_graph, "'" + files.edges + "' is missing"};
  if (std::string why = record_differs(*fields, files); !why.empty()) return {Verdict::another_graph, why};
  if (std::string why = content_differs(files); !why.empty()) return {Verdict::another_graph, why};
  return {Verdict::this_graph, "its record (" + describe(files) + ") and " +
                                   std::to_string(std::min(kSampledTuples, tuples_of(files))) +
                                   " sampled tuples match this run"};
}

void write_record(const GraphFiles& files) {
  std::ostringstream out;
  out << kRecordHeader << "\ngenerator " << kGeneratorName << "\nscale " << files.scale << "\nedgefactor "
      << files.edgefactor << "\nseed " << files.seed << "\nweights " << (files.weights.empty() ? 0 : 1) << "\n";
  const std::pair<const char*, std::string> written[] = {{"edges", files.edges}, {"weights", files.weights}};
  for (const auto& [key, path] : written) {
    if (path.empty()) continue;
    const FileStamp now = stamp_of(path);
    out << key << "_bytes " << now.bytes << "\n"
        << key << "_inode " << now.inode << "\n"
        << key << "_mtime_ns " << now.mtime_ns << "\n";
  }
  io::write_text_file(record_path(files.edges), out.str());
}

}  // namespace g500
