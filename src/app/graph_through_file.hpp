#pragma once
// TMPFILE (app/reference_form.hpp): the run's graph goes through an edge file, as the reference's
// does. The file is written by `g500 generate`'s code, unless REUSEFILE is set and the file (and
// with kernel 3 its weights) already holds this graph, and the run reads it back as --input. So
// a site can generate once and search many times.
#include <string>

#include "app/reference_form.hpp"
#include "harness/run_options.hpp"
#include "mpi/comm.hpp"

namespace g500 {

class GraphThroughFile {
 public:
  // Points `run` at the file (--input, --format binary, --input-weights), before the run's outputs
  // are checked against its inputs; keeps what is needed to write it.
  GraphThroughFile(const ReferenceForm& form, RunOptions& run);
  // Collective: refuses a file that is there without REUSEFILE (the reference refuses it too),
  // reuses one that holds this graph with it, and otherwise writes the file(s).
  void prepare(const mpi::Comm& comm);
  // Without REUSEFILE, rank 0 removes what prepare() wrote, whether the run ended well or not.
  ~GraphThroughFile();
  GraphThroughFile(const GraphThroughFile&) = delete;
  GraphThroughFile& operator=(const GraphThroughFile&) = delete;

 private:
  GenerateOptions generate_;
  bool reuse_;
  bool remover_ = false;  // prepare() wrote the files, and this rank removes them
};

}  // namespace g500
