#include "mpi/file.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>

#include "core/error.hpp"

namespace g500::mpi {
namespace {

std::string error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, length);
}

// MPI counts are ints: move big ranges in pieces; every rank makes the same number of calls.
constexpr std::int64_t kPiece = std::int64_t{1} << 30;

}  // namespace

File::File(const Comm& comm, const std::string& path, Mode mode) : comm_(comm.raw()), path_(path) {
  const int amode = mode == Mode::read ? MPI_MODE_RDONLY : (MPI_MODE_WRONLY | MPI_MODE_CREATE);
  const int rc = MPI_File_open(comm.raw(), path.c_str(), amode, MPI_INFO_NULL, &file_);
  const int worst = comm.allreduce(rc == MPI_SUCCESS ? 0 : 1, Op::max);
  if (worst) {
    if (rc == MPI_SUCCESS) MPI_File_close(&file_);
    throw UserError("cannot open '" + path + "' for " + (mode == Mode::read ? "reading" : "writing") +
                    (rc != MPI_SUCCESS ? ": " + error_text(rc) : ""));
  }
  // Truncate what a regular file held before; devices and pipes (/dev/null) have no size to set.
  if (mode == Mode::write) {
    int regular = comm.is_root() ? std::filesystem::is_regular_file(path) : 0;
    MPI_Bcast(&regular, 1, MPI_INT, 0, comm_);
    if (regular) MPI_File_set_size(file_, 0);
  }
}

File::~File() {
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
}

std::int64_t File::size() const {
  MPI_Offset size = 0;
  MPI_File_get_size(file_, &size);
  return size;
}

void File::write_at_all(std::int64_t offset, std::span<const std::byte> bytes) {
  const std::int64_t n = static_cast<std::int64_t>(bytes.size());
  std::int64_t pieces = (n + kPiece - 1) / kPiece;
  MPI_Allreduce(MPI_IN_PLACE, &pieces, 1, MPI_INT64_T, MPI_MAX, comm_);
  for (std::int64_t k = 0; k < pieces; ++k) {
    const std::int64_t first = std::min(n, k * kPiece), len = std::min(n, (k + 1) * kPiece) - first;
    const int rc = MPI_File_write_at_all(file_, offset + first, bytes.data() + first, static_cast<int>(len), MPI_BYTE,
                                         MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) throw UserError("cannot write '" + path_ + "': " + error_text(rc));
  }
}

}  // namespace g500::mpi
