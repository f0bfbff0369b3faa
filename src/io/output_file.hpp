#pragma once
// Output files that are either complete or absent: the content is written under a temporary name
// beside the target and renamed into place only once every byte is known to be written, so a run
// that fails, fills the disk or is killed never leaves a short file with the final name, and never
// destroys what the path held before. A target that exists and is not a regular file (/dev/null, a
// pipe) is written in place, since it cannot be renamed over; its writes are checked all the same.
#include <string>
#include <vector>

namespace g500::io {

// Throws UserError unless `path` can be written: its folder takes new files (or the target is an
// existing non-regular file open for writing). Touches nothing at `path`.
void check_writable(const std::string& path);

// A path a run reads or writes, with the option that named it (for messages).
struct NamedPath {
  const char* option;
  std::string path;
};
// Throws UserError when an output is an input or another output: the same file through any link
// (or the same path, for files not made yet). Touches nothing.
void check_distinct(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

// Where to write for `path` (a temporary name, or `path` itself for a non-regular file), and the
// step that puts it in place afterwards. A symbolic link is written through: the staged file goes
// beside the link's target and replaces the target, leaving the link as it was. The temporary name is PATH.g500-partial-HOST-PID; stage()
// first removes such files of this host whose process is gone (a run killed with SIGKILL), saying
// so on stderr.
struct StagedPath {
  std::string final_path;
  std::string write_path;
  bool in_place = false;
};
StagedPath stage(const std::string& path, long unique);
// Renames the staged file into place; throws UserError when that fails.
void commit(const StagedPath& staged);
// Removes a staged temporary file after a failure (never the target).
void discard(const StagedPath& staged) noexcept;

// Removes `path` should a catchable signal (SIGINT, SIGTERM, SIGHUP: what mpirun forwards when it
// is interrupted) end the process before forget_on_signal(path). stage() and commit()/discard() do
// it for the staging file; every other rank that may create the same file (an MPI-IO open does)
// must do it too, or the last rank to open it could leave it behind.
void remove_on_signal(const std::string& path);
void forget_on_signal(const std::string& path);

// One process writes a whole text file this way. Throws UserError for any failed or short write.
void write_text_file(const std::string& path, const std::string& content);
// The same, left under its staging name for the caller to commit() (with other outputs, so that a
// run's outputs land together) or discard().
StagedPath write_text_staged(const std::string& path, const std::string& content);

}  // namespace g500::io
