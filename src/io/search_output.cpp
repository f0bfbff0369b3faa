#include "io/search_output.hpp"

#include <cstdio>
#include <cstring>

#include "core/error.hpp"
#include "io/staged_file.hpp"

namespace g500 {

SearchOutput::SearchOutput(const mpi::Comm& comm, const std::string& path, bool binary, const EdgeSource& ids)
    : comm_(comm), binary_(binary), ids_(ids) {
  staged_ = io::stage_everywhere(comm, path);
  file_ = std::make_unique<mpi::File>(comm, staged_.write_path, mpi::File::Mode::write, path);
}

SearchOutput::~SearchOutput() {
  if (file_ && comm_.is_root()) io::discard(staged_);  // never closed: a failed run leaves nothing
  else if (file_) io::forget_on_signal(staged_.write_path);
}

void SearchOutput::append(std::string& out, bool sssp, vertex_t root, vertex_t v, vertex_t parent,
                          double value) const {
  if (binary_) {
    const std::int64_t record[4] = {sssp ? 1 : 0, root, v, parent};
    char bytes[40];
    std::memcpy(bytes, record, 32);
    std::memcpy(bytes + 32, &value, 8);
    out.append(bytes, 40);
    return;
  }
  char line[128];
  const int n = sssp ? std::snprintf(line, sizeof line, "sssp %lld %lld %lld %.9g\n", static_cast<long long>(root),
                                     static_cast<long long>(v), static_cast<long long>(parent), value)
                     : std::snprintf(line, sizeof line, "bfs %lld %lld %lld %lld\n", static_cast<long long>(root),
                                     static_cast<long long>(v), static_cast<long long>(parent),
                                     static_cast<long long>(value));
  out.append(line, static_cast<std::size_t>(n));
}

void SearchOutput::write_bytes(const std::string& bytes) {
  const std::vector<std::int64_t> sizes = comm_.allgather(static_cast<std::int64_t>(bytes.size()));
  std::int64_t offset = written_;
  for (int r = 0; r < comm_.rank(); ++r) offset += sizes[r];
  file_->write_at_all(offset, std::as_bytes(std::span(bytes.data(), bytes.size())));
  for (std::int64_t s : sizes) written_ += s;
}

void SearchOutput::close(io::PendingOutputs& pending) {
  try {
    file_->close();
  } catch (const UserError&) {
    io::discard_everywhere(comm_, staged_);
    file_.reset();
    throw;
  }
  file_.reset();
  if (!comm_.is_root()) io::forget_on_signal(staged_.write_path);  // rank 0 holds it from here
  pending.add(staged_);
}

}  // namespace g500
