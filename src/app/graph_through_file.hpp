#pragma once
// TMPFILE (app/reference_form.hpp): the run's graph goes through an edge file, as the reference's
// does, written by `g500 generate`'s code and read back as --input. A run removes only what it
// wrote, and writes only where nothing it did not make would be lost:
//  - a TMPFILE (or its weights, or its record) that is a directory, device, FIFO, socket or symbolic
//    link is refused before anything is written, and left as it is;
//  - without REUSEFILE the files live under a name of this run's own (TMPFILE.g500-partial-HOST-PID,
//    removed at the end, on a catchable signal and on an abort; one left by a killed run is removed
//    by the next), and a file already at TMPFILE is refused, as the reference refuses it;
//  - with REUSEFILE the files stay at TMPFILE with a record beside them (app/graph_record.hpp); a
//    later run reads them only when the record and a sample of their content show this graph, writes
//    them again when the record shows another, and refuses files that have no record of g500's. One
//    line on stderr says which.
#include <string>

#include "app/graph_record.hpp"
#include "app/reference_form.hpp"
#include "harness/run_options.hpp"
#include "io/output_file.hpp"
#include "mpi/comm.hpp"

namespace g500 {

class GraphThroughFile {
 public:
  // Points `run` at the file (--input, --format binary, --input-weights), before the run's outputs
  // are checked against its inputs; keeps what is needed to write it.
  GraphThroughFile(const ReferenceForm& form, RunOptions& run);
  // Collective: settles where the graph is read from (see above), writes it there if need be, and
  // points the run at it.
  void prepare(const mpi::Comm& comm);
  // Rank 0 removes this run's own files, whether the run ended well or not.
  ~GraphThroughFile();
  GraphThroughFile(const GraphThroughFile&) = delete;
  GraphThroughFile& operator=(const GraphThroughFile&) = delete;

 private:
  enum class Verdict : int { write_own = 0, write_kept = 1, reuse = 2, refuse = 3 };
  Verdict decide(std::string& message) const;
  void write_own_files(const mpi::Comm& comm);

  RunOptions& run_;
  GraphFiles files_;
  bool reuse_;
  bool quiet_;
  io::StagedPath own_edges_, own_weights_;  // rank 0: this run's own files, removed at the end
};

}  // namespace g500
