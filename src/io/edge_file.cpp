#include "io/edge_file.hpp"

#include <unistd.h>

#include <bit>

#include "core/error.hpp"
#include "io/output_file.hpp"
#include "mpi/file.hpp"

namespace g500 {
namespace {

static_assert(std::endian::native == std::endian::little, "edge files are little-endian; add byte swapping here");

// Collective: every rank's bytes at its offset, in a file that appears under `path` only complete.
void write_ranges(const std::string& path, std::int64_t offset, std::span<const std::byte> bytes,
                  const mpi::Comm& comm) {
  io::StagedPath staged = comm.is_root() ? io::stage(path, static_cast<long>(getpid())) : io::StagedPath{};
  staged.final_path = path;
  staged.write_path = comm.broadcast_string(staged.write_path, 0);
  staged.in_place = staged.write_path == path;
  try {
    mpi::File file(comm, staged.write_path, mpi::File::Mode::write, path);
    file.write_at_all(offset, bytes);
    file.close();
  } catch (const UserError&) {
    comm.barrier();  // every rank has let go of the file before it is removed
    if (comm.is_root()) io::discard(staged);
    throw;
  }
  std::string failure;
  if (comm.is_root()) {
    try {
      io::commit(staged);
    } catch (const UserError& e) {
      failure = e.what();
    }
  }
  failure = comm.broadcast_string(failure, 0);
  if (!failure.empty()) throw UserError(failure);
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
