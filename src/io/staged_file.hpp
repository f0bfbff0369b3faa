#pragma once
// An output file all ranks write (MPI-IO) that appears under its name only complete: the staging of
// io/output_file.hpp done once by rank 0 for every rank, and its outcome shared by all.
#include <unistd.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/output_file.hpp"
#include "mpi/comm.hpp"
#include "mpi/root_step.hpp"

namespace g500::io {

// Collective: where every rank writes for `path` (rank 0 picks it).
inline StagedPath stage_everywhere(const mpi::Comm& comm, const std::string& path) {
  StagedPath staged = comm.is_root() ? stage(path, static_cast<long>(getpid())) : StagedPath{path, "", false};
  staged.write_path = comm.broadcast_string(staged.write_path, 0);
  staged.in_place = comm.broadcast_string(staged.in_place ? "1" : "", 0) == "1";
  if (!comm.is_root() && !staged.in_place) remove_on_signal(staged.write_path);  // this rank's open may create it
  return staged;
}

// Collective, after a failed write: once every rank has let go of the file, rank 0 removes it.
inline void discard_everywhere(const mpi::Comm& comm, const StagedPath& staged) {
  comm.barrier();
  if (comm.is_root()) discard(staged);
  else forget_on_signal(staged.write_path);
}

// Collective, once the file is closed: rank 0 puts it in place; UserError on every rank if that failed.
inline void commit_everywhere(const mpi::Comm& comm, const StagedPath& staged) {
  if (!comm.is_root()) forget_on_signal(staged.write_path);
  mpi::on_root_for_all(comm, [&] { commit(staged); });
}

// A run's output files, each written whole under its staging name, that land together: commit()
// puts every one in place; if it is never called (an output failed, the run ended in an error),
// none is, and the destructor removes them all. Rank 0 holds them; the others hold nothing.
class PendingOutputs {
 public:
  explicit PendingOutputs(const mpi::Comm& comm) : comm_(comm) {}
  ~PendingOutputs() {
    for (const StagedPath& staged : staged_) discard(staged);
  }
  PendingOutputs(const PendingOutputs&) = delete;
  PendingOutputs& operator=(const PendingOutputs&) = delete;

  // Rank 0: one more complete file to land with the others.
  void add(const StagedPath& staged) {
    if (comm_.is_root()) staged_.push_back(staged);
  }
  // Collective: every file in place; UserError on every rank if a rename failed (the files not yet
  // in place are then removed).
  void commit() {
    mpi::on_root_for_all(comm_, [&] {
      while (!staged_.empty()) {
        const StagedPath next = staged_.front();
        staged_.erase(staged_.begin());  // a failed commit() removes the file itself
        io::commit(next);
      }
    });
  }

 private:
  const mpi::Comm& comm_;
  std::vector<StagedPath> staged_;
};

}  // namespace g500::io
