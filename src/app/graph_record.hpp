#pragma once
// The record a REUSEFILE edge file keeps beside it (TMPFILE.g500), and the checks that show a file
// holds this run's graph before a run reads it: the record names the graph (generator, SCALE,
// edgefactor, seed, weights or not) and each file's size and modification time, and a sample of the
// file's tuples (and weights) is compared with what the generator makes at the same indices, so a
// same-size file of another graph, or one changed since it was written, is never read as this one.
// Rank 0's work only: nothing here is collective.
#include <cstdint>
#include <optional>
#include <string>

namespace g500 {

// The graph a run asks for, and where its files go.
struct GraphFiles {
  int scale = 0;
  int edgefactor = 0;
  std::uint64_t seed = 0;
  std::string edges;
  std::string weights;  // empty: the run needs no weights
};

// Where the record of `edges` lives.
std::string record_path(const std::string& edges);

// A reason to refuse `path` before anything is written: it exists and is not a regular file (a
// directory, a device, a FIFO, a socket) or is a symbolic link. Empty when it is absent or regular.
std::string not_a_plain_file(const std::string& path);

// What the files at `files` hold.
struct RecordCheck {
  enum class Verdict { absent, this_graph, another_graph, unrecorded } verdict = Verdict::absent;
  std::string why;  // for another_graph and unrecorded: what differs, in words
};
// absent: neither file is there; this_graph: the record and the sampled content match; another_graph:
// a record of g500's is there but the files hold another graph or changed since (written again);
// unrecorded: a file is there with no record, or the record is not g500's (refused).
RecordCheck check_record(const GraphFiles& files);

// Writes the record of the files just written (their sizes and times as they are now). Throws
// UserError when it cannot be written.
void write_record(const GraphFiles& files);

// How many tuples check_record compares with the generator.
inline constexpr std::int64_t kSampledTuples = 4096;

}  // namespace g500
