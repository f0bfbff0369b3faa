#include "app/graph_through_file.hpp"

#include <cstdio>
#include <filesystem>
#include <span>
#include <system_error>

#include "core/error.hpp"
#include "harness/benchmark.hpp"

namespace g500 {
namespace {

namespace fs = std::filesystem;

// The file's size, or -1 when there is none.
double size_of(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  return ec ? -1.0 : static_cast<double>(size);
}

}  // namespace

GraphThroughFile::GraphThroughFile(const ReferenceForm& form, RunOptions& run) : reuse_(form.reuse_file) {
  generate_.scale = run.scale;
  generate_.edgefactor = run.edgefactor;
  generate_.seed = run.seed;
  generate_.output = form.edge_file;
  generate_.weights_output = form.weight_file;
  generate_.quiet = run.quiet;
  run.input_path = form.edge_file;
  run.input_format = "binary";
  run.input_weights = form.weight_file;
}

void GraphThroughFile::prepare(const mpi::Comm& comm) {
  // Rank 0 looks (the ranks may not share a view of a local disk), and every rank learns its verdict.
  int verdict = 0;  // 0: write, 1: reuse, 2: refuse
  if (comm.is_root()) {
    const double tuples = static_cast<double>(generate_.edgefactor) * static_cast<double>(std::int64_t{1} << generate_.scale);
    const double edges = size_of(generate_.output);
    const double weights = generate_.weights_output.empty() ? -1 : size_of(generate_.weights_output);
    const bool weights_fit = generate_.weights_output.empty() || weights == 4 * tuples;
    if (!reuse_ && (edges >= 0 || weights >= 0)) verdict = 2;
    else if (reuse_ && edges == 16 * tuples && weights_fit) verdict = 1;
  }
  comm.broadcast(std::span<int>(&verdict, 1), 0);
  if (verdict == 2) {
    const std::string there = generate_.weights_output.empty() ? "'" + generate_.output + "'"
                                                                : "'" + generate_.output + "' or its weights";
    throw UserError("TMPFILE " + there + " is there already: set REUSEFILE to read it, or remove it " +
                    "(the reference refuses it too)");
  }
  if (verdict == 1) {
    if (comm.is_root() && !generate_.quiet)
      std::fprintf(stderr, "g500: REUSEFILE: reading the graph from '%s', written by an earlier run\n", generate_.output.c_str());
    return;
  }
  remover_ = !reuse_ && comm.is_root();
  run_generate(generate_, comm);
}

GraphThroughFile::~GraphThroughFile() {
  if (!remover_) return;
  std::error_code ignored;
  fs::remove(generate_.output, ignored);
  if (!generate_.weights_output.empty()) fs::remove(generate_.weights_output, ignored);
}

}  // namespace g500
