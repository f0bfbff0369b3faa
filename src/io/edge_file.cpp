#include "io/edge_file.hpp"

#include <bit>

#include "core/error.hpp"
#include "io/staged_file.hpp"
#include "mpi/file.hpp"

namespace g500 {
namespace {

static_assert(std::endian::native == std::endian::little, "edge files are little-endian; add byte swapping here");

// Collective: every rank's bytes at its offset, in a file that appears under `path` only complete.
void write_ranges(const std::string& path, std::int64_t offset, std::span<const std::byte> bytes,
                  const mpi::Comm& comm) {
  const io::StagedPath staged = io::stage_everywhere(comm, path);
  try {
    mpi::File file(comm, staged.write_path, mpi::File::Mode::write, path);
    file.write_at_all(offset, bytes);
    file.close();
  } catch (const UserError&) {
    io::discard_everywhere(comm, staged);
    throw;
  }
  io::commit_everywhere(comm, staged);
}

}  // namespace

void write_edge_file(const std::string& path, const EdgeSlice& slice, const mpi::Comm& comm) {
  write_ranges(path, slice.first * static_cast<std::int64_t>(sizeof(Edge)), std::as_bytes(std::span(slice.edges)), comm);
}

void write_weight_file(const std::string& path, const EdgeSlice& slice, const mpi::Comm& comm) {
  write_ranges(path, slice.first * static_cast<std::int64_t>(sizeof(float)), std::as_bytes(std::span(slice.weights)),
               comm);
}

}  // namespace g500
