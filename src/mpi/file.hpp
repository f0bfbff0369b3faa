#pragma once
// MPI-IO files: each rank reads or writes its own byte range of one shared file.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>

#include "mpi/comm.hpp"

namespace g500::mpi {

class File {
 public:
  enum class Mode { read, write };
  // Collective. Throws UserError naming the path when it cannot be opened.
  File(const Comm& comm, const std::string& path, Mode mode);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  std::int64_t size() const;
  // Collective: every rank writes its bytes at its offset.
  void write_at_all(std::int64_t offset, std::span<const std::byte> bytes);

 private:
  MPI_Comm comm_;
  MPI_File file_ = MPI_FILE_NULL;
  std::string path_;
};

}  // namespace g500::mpi
