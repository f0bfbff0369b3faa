#pragma once
// Text graph files (edge lists, Matrix Market; docs/formats.md), for FileEdgeSource
// (io/graph_file.hpp): the opening pass over each rank's lines, and the reader that finds a rank's
// lines again from a remembered line start on every later pass.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "io/graph_file.hpp"
#include "mpi/comm.hpp"
#include "mpi/file.hpp"

namespace g500::text_file {

constexpr std::int64_t kCheckpoint = std::int64_t{1} << 16;  // tuples between remembered line starts
constexpr std::int64_t kBlock = std::int64_t{1} << 22;       // bytes read at a time

// Reads a file's bytes from `at` on, line by line (a last line without '\n' included).
class LineReader {
 public:
  LineReader(const mpi::File& file, std::int64_t at, std::int64_t size) : file_(file), base_(at), next_(at), size_(size) {}

  // The next line (without '\n') and where it starts, or false at the end of the file.
  bool next(std::string_view& line, std::int64_t& start) {
    for (;;) {
      const char* begin = buffer_.data() + pos_;
      const char* end = buffer_.data() + buffer_.size();
      const char* nl = static_cast<const char*>(std::memchr(begin, '\n', end - begin));
      if (nl || (eof_ && begin < end)) {
        const char* stop = nl ? nl : end;
        line = std::string_view(begin, stop - begin);
        start = base_ + pos_;
        pos_ = (stop - buffer_.data()) + (nl ? 1 : 0);
        return true;
      }
      if (eof_) return false;
      refill();
    }
  }

 private:
  void refill() {
    // Keep the unfinished line, then append the next block.
    buffer_.erase(0, pos_);
    base_ += pos_;
    pos_ = 0;
    const std::int64_t want = std::min(kBlock, size_ - next_);
    if (want <= 0) {
      eof_ = true;
      return;
    }
    const std::size_t old = buffer_.size();
    buffer_.resize(old + want);
    std::string error;
    const std::int64_t got = file_.read_at(next_, std::as_writable_bytes(std::span(buffer_.data() + old, want)), error);
    if (got < 0) mpi::abort_job("cannot read '" + file_.path() + "': " + error);
    buffer_.resize(old + got);
    next_ += got;
    if (got < want || next_ >= size_) eof_ = true;
  }

  const mpi::File& file_;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::int64_t base_ = 0;  // file offset of buffer_[0]
  std::int64_t next_;
  std::int64_t size_;
  bool eof_ = false;
};

// Collective: the lowest of every rank's `index` (-1 on a rank: none there), or -1 when none has one.
std::int64_t lowest_everywhere(const mpi::Comm& comm, std::int64_t index);

// Collective. The opening pass over a text edge list or Matrix Market file: each rank scans the
// lines that start in its byte range, then all agree on the first bad line (UserError on every
// rank naming it), the columns and the shares.
FileEdgeSource::Scan scan(const mpi::Comm& comm, const mpi::File& file, const std::string& path, GraphFormat format);

}  // namespace g500::text_file
