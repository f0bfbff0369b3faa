#pragma once
// What a file is at one moment (size, inode, modification time), to tell later whether it was
// replaced or rewritten since: a graph file read in several passes, a REUSEFILE edge file.
#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace g500::io {

struct FileStamp {
  bool exists = false;
  std::int64_t bytes = 0;
  std::int64_t inode = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

inline FileStamp stamp_of(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return {};
  return {true, static_cast<std::int64_t>(st.st_size), static_cast<std::int64_t>(st.st_ino),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

// Whether anything is at `path` (a dangling link too: lstat, not stat).
inline bool something_at(const std::string& path) {
  struct stat st;
  return !path.empty() && lstat(path.c_str(), &st) == 0;
}

}  // namespace g500::io
