#pragma once
// MPI-IO files: each rank reads or writes its own byte range of one shared file. Every failure,
// including a short write that MPI reports as a success, becomes a UserError on every rank.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>

#include "mpi/comm.hpp"

namespace g500::mpi {

class File {
 public:
  enum class Mode { read, write, scratch };  // scratch: read and written, deleted when closed
  // Collective. Throws UserError when it cannot be opened. Errors name `shown_as` (default: the
  // path), for a file written under a temporary name.
  File(const Comm& comm, const std::string& path, Mode mode, const std::string& shown_as = "");
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  std::int64_t size() const;
  const std::string& path() const { return path_; }
  // Collective: every rank writes its bytes at its offset; throws on every rank if any rank's
  // write failed or was short.
  void write_at_all(std::int64_t offset, std::span<const std::byte> bytes);
  // Not collective: up to bytes.size() bytes at `offset` into `bytes`; returns how many were read
  // (fewer only at the end of the file) or -1, with `error` set, when the read failed.
  std::int64_t read_at(std::int64_t offset, std::span<std::byte> bytes, std::string& error) const;
  // Collective: closes (flushing) and throws on every rank if that failed anywhere.
  void close();

 private:
  const Comm& comm_;
  MPI_File file_ = MPI_FILE_NULL;
  std::string path_;
};

}  // namespace g500::mpi
