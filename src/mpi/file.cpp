#include "mpi/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>

#include "core/error.hpp"

namespace g500::mpi {
namespace {

std::string error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, length);
}

// Why this process cannot read `path` ("no such file or directory", "permission denied", "it is a
// directory"), or "" when it can: said in the system's words, where MPI would say MPI_ERR_ACCESS.
std::string unreadable(const std::string& path) {
  const auto said = [] {
    std::string why = std::strerror(errno);
    if (!why.empty()) why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
    return why;
  };
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return said();
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  // A pipe or a device: opening a pipe with no writer waits forever, and neither can be read at
  // each rank's own offset.
  if (!S_ISREG(st.st_mode)) return "it is not a regular file";
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return said();
  close(fd);
  return "";
}

// MPI counts are ints: move big ranges in pieces; every rank makes the same number of calls.
constexpr std::int64_t kPiece = std::int64_t{1} << 30;

}  // namespace

File::File(const Comm& comm, const std::string& path, Mode mode, const std::string& shown_as)
    : comm_(comm), path_(shown_as.empty() ? path : shown_as) {
  if (mode == Mode::read) {
    // The first rank that cannot read the file says why, for every rank.
    const std::string why = unreadable(path);
    const int first = comm.allreduce(why.empty() ? comm.size() : comm.rank(), Op::min);
    if (first < comm.size()) throw UserError("cannot read '" + path_ + "': " + comm.broadcast_string(why, first));
  }
  const int amode = mode == Mode::read    ? MPI_MODE_RDONLY
                    : mode == Mode::write ? (MPI_MODE_WRONLY | MPI_MODE_CREATE)
                                          : (MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE);
  const int rc = MPI_File_open(comm.raw(), path.c_str(), amode, MPI_INFO_NULL, &file_);
  // Errors are returned, never fatal, on this file from now on.
  if (rc == MPI_SUCCESS) MPI_File_set_errhandler(file_, MPI_ERRORS_RETURN);
  const int worst = comm.allreduce(rc == MPI_SUCCESS ? 0 : 1, Op::max);
  if (worst) {
    if (rc == MPI_SUCCESS) MPI_File_close(&file_);
    throw UserError("cannot open '" + path_ + "' for " + (mode == Mode::read ? "reading" : "writing") +
                    (rc != MPI_SUCCESS ? ": " + error_text(rc) : ""));
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
  const std::int64_t pieces = comm_.allreduce<std::int64_t>((n + kPiece - 1) / kPiece, Op::max);
  std::string failure;
  for (std::int64_t k = 0; k < pieces; ++k) {
    // After a failure this rank still takes part in every collective call, writing nothing.
    const std::int64_t first = std::min(n, k * kPiece);
    const std::int64_t len = failure.empty() ? std::min(n, (k + 1) * kPiece) - first : 0;
    MPI_Status status;
    const int rc = MPI_File_write_at_all(file_, offset + first, bytes.data() + first, static_cast<int>(len), MPI_BYTE,
                                         &status);
    int written = 0;
    if (rc == MPI_SUCCESS) MPI_Get_count(&status, MPI_BYTE, &written);
    if (rc != MPI_SUCCESS) failure = error_text(rc);
    else if (written != len) failure = "wrote " + std::to_string(written) + " of " + std::to_string(len) + " bytes";
  }
  const int failed_rank = comm_.allreduce(failure.empty() ? INT_MAX : comm_.rank(), Op::min);
  if (failed_rank != INT_MAX) {
    throw UserError("cannot write '" + path_ + "': " + comm_.broadcast_string(failure, failed_rank));
  }
}

std::int64_t File::read_at(std::int64_t offset, std::span<std::byte> bytes, std::string& error) const {
  std::int64_t done = 0;
  const std::int64_t n = static_cast<std::int64_t>(bytes.size());
  while (done < n) {
    const int len = static_cast<int>(std::min(n - done, kPiece));
    MPI_Status status;
    const int rc = MPI_File_read_at(file_, offset + done, bytes.data() + done, len, MPI_BYTE, &status);
    if (rc != MPI_SUCCESS) {
      error = error_text(rc);
      return -1;
    }
    int got = 0;
    MPI_Get_count(&status, MPI_BYTE, &got);
    done += got;
    if (got < len) break;  // the end of the file
  }
  return done;
}

void File::close() {
  const int rc = MPI_File_close(&file_);
  file_ = MPI_FILE_NULL;
  const int failed_rank = comm_.allreduce(rc == MPI_SUCCESS ? INT_MAX : comm_.rank(), Op::min);
  if (failed_rank != INT_MAX) {
    throw UserError("cannot write '" + path_ + "': " +
                    comm_.broadcast_string(rc == MPI_SUCCESS ? "" : error_text(rc), failed_rank));
  }
}

}  // namespace g500::mpi
