#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"

namespace g500::io {
namespace {

bool exists_not_regular(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

std::string reason() { return std::strerror(errno); }

}  // namespace

StagedPath stage(const std::string& path, long unique) {
  if (exists_not_regular(path)) return {path, path, true};
  return {path, path + ".g500-partial-" + std::to_string(unique), false};
}

void check_writable(const std::string& path) {
  if (exists_not_regular(path)) {
    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd < 0) throw UserError("cannot write '" + path + "': " + reason());
    close(fd);
    return;
  }
  // A probe file beside the target: the folder must take new files, and the target stays as it is.
  const std::string probe = stage(path, static_cast<long>(getpid())).write_path;
  const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw UserError("cannot write '" + path + "': " + reason());
  close(fd);
  unlink(probe.c_str());
}

void commit(const StagedPath& staged) {
  if (staged.in_place) return;
  if (std::rename(staged.write_path.c_str(), staged.final_path.c_str()) != 0) {
    const std::string why = reason();
    discard(staged);
    throw UserError("cannot write '" + staged.final_path + "': " + why);
  }
}

void discard(const StagedPath& staged) noexcept {
  if (!staged.in_place) unlink(staged.write_path.c_str());
}

void write_text_file(const std::string& path, const std::string& content) {
  const StagedPath staged = stage(path, static_cast<long>(getpid()));
  const int fd = staged.in_place ? open(staged.write_path.c_str(), O_WRONLY)
                                 : open(staged.write_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw UserError("cannot write '" + path + "': " + reason());
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? reason() : "short write";
      close(fd);
      discard(staged);
      throw UserError("cannot write '" + path + "': " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  // A full disk can surface only at fsync or close (delayed allocation, network filesystems).
  const bool synced = staged.in_place || fsync(fd) == 0;
  const std::string sync_error = synced ? "" : reason();
  const bool closed = close(fd) == 0;
  if (!synced || !closed) {
    const std::string why = synced ? reason() : sync_error;
    discard(staged);
    throw UserError("cannot write '" + path + "': " + why);
  }
  commit(staged);
}

}  // namespace g500::io
