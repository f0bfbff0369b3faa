#include "app/graph_through_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <span>

#include "core/error.hpp"
#include "harness/benchmark.hpp"
#include "io/file_stamp.hpp"
#include "mpi/root_step.hpp"

namespace g500 {
GraphThroughFile::GraphThroughFile(const ReferenceForm& form, RunOptions& run)
    : run_(run), reuse_(form.reuse_file), quiet_(run.quiet) {
  files_.scale = run.scale;
  files_.edgefactor = run.edgefactor;
  files_.seed = run.seed;
  files_.edges = form.edge_file;
  files_.weights = form.weight_file;
  run.input_path = form.edge_file;
  run.input_format = "binary";
  run.input_weights = form.weight_file;
}

// Rank 0 looks (the ranks may not share a view of a local disk); `message` is the refusal or the
// line to say.
GraphThroughFile::Verdict GraphThroughFile::decide(std::string& message) const {
  for (const std::string& path : {files_.edges, files_.weights, reuse_ ? record_path(files_.edges) : std::string()}) {
    if (const std::string why = not_a_plain_file(path); !why.empty()) {
      message = "TMPFILE: " + why + ": it must name a regular file or nothing; it was left as it is";
      return Verdict::refuse;
    }
  }
  if (!reuse_) {
    if (!io::something_at(files_.edges) && !io::something_at(files_.weights)) return Verdict::write_own;
    const std::string there =
        files_.weights.empty() ? "'" + files_.edges + "'" : "'" + files_.edges + "' or its weights";
    message =
        "TMPFILE " + there + " is there already: set REUSEFILE to read it, or remove it (the reference refuses it too)";
    return Verdict::refuse;
  }
  const RecordCheck check = check_record(files_);
  switch (check.verdict) {
    case RecordCheck::Verdict::absent:
      message = "REUSEFILE: writing the graph to '" + files_.edges + "', with its record, for later runs";
      return Verdict::write_kept;
    case RecordCheck::Verdict::this_graph:
      message = "REUSEFILE: reading the graph from '" + files_.edges + "', written by an earlier run: " + check.why;
      return Verdict::reuse;
    case RecordCheck::Verdict::another_graph:
      message = "REUSEFILE: writing the graph to '" + files_.edges + "' again: " + check.why;
      return Verdict::write_kept;
    case RecordCheck::Verdict::unrecorded:
      message = "TMPFILE '" + files_.edges + "' is there, but " + check.why +
                ": g500 neither reads it as this graph nor replaces it; remove it or set TMPFILE to another path";
      return Verdict::refuse;
  }
  return Verdict::refuse;
}

// Without REUSEFILE: the files go under names of this run's own, beside TMPFILE.
void GraphThroughFile::write_own_files(const mpi::Comm& comm) {
  if (comm.is_root()) {
    own_edges_ = io::stage(files_.edges, static_cast<long>(getpid()));
    if (!files_.weights.empty()) own_weights_ = io::stage(files_.weights, static_cast<long>(getpid()));
  }
  const std::string edges = comm.broadcast_string(own_edges_.write_path, 0);
  const std::string weights = comm.broadcast_string(own_weights_.write_path, 0);
  GenerateOptions generate{files_.scale, files_.edgefactor, files_.seed, edges, weights, quiet_};
  run_generate(generate, comm);
  run_.input_path = edges;
  run_.input_weights = weights;
}

void GraphThroughFile::prepare(const mpi::Comm& comm) {
  std::string message;
  int verdict = 0;
  if (comm.is_root()) verdict = static_cast<int>(decide(message));
  comm.broadcast(std::span<int>(&verdict, 1), 0);
  message = comm.broadcast_string(message, 0);
  switch (static_cast<Verdict>(verdict)) {
    case Verdict::refuse:
      throw UserError(message);
    case Verdict::write_own:
      write_own_files(comm);
      return;
    case Verdict::reuse:
      if (comm.is_root() && !quiet_) std::fprintf(stderr, "g500: %s\n", message.c_str());
      return;
    case Verdict::write_kept: {
      if (comm.is_root() && !quiet_) std::fprintf(stderr, "g500: %s\n", message.c_str());
      // The old record goes first: files half rewritten must never pass for a recorded graph.
      if (comm.is_root()) std::remove(record_path(files_.edges).c_str());
      comm.barrier();
      run_generate({files_.scale, files_.edgefactor, files_.seed, files_.edges, files_.weights, quiet_}, comm);
      mpi::on_root_for_all(comm, [&] { write_record(files_); });
      return;
    }
  }
}

GraphThroughFile::~GraphThroughFile() {
  if (!own_edges_.write_path.empty()) io::discard(own_edges_);
  if (!own_weights_.write_path.empty()) io::discard(own_weights_);
}

}  // namespace g500
