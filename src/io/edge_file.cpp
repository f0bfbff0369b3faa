#include "io/edge_file.hpp"

#include <bit>

#include "core/error.hpp"
#include "io/staged_file.hpp"
#include "mpi/file.hpp"

namespace g500 {
namespace {

static_assert(std::endian::native == std::endian::little, "edge files are little-endian; add byte swapping here");

// Collective: every rank's bytes at its offset, into the staged file.
void write_staged(const io::StagedPath& staged, std::int64_t offset, std::span<const std::byte> bytes,
                  const mpi::Comm& comm) {
  mpi::File file(comm, staged.write_path, mpi::File::Mode::write, staged.final_path);
  file.write_at_all(offset, bytes);
  file.close();
}

}  // namespace

void write_edge_files(const std::string& path, const std::string& weights_path, const EdgeSlice& slice,
                      const mpi::Comm& comm) {
  const io::StagedPath edges = io::stage_everywhere(comm, path);
  io::StagedPath weights;
  try {
    write_staged(edges, slice.first * static_cast<std::int64_t>(sizeof(Edge)), std::as_bytes(std::span(slice.edges)), comm);
    if (!weights_path.empty()) {
      weights = io::stage_everywhere(comm, weights_path);
      write_staged(weights, slice.first * static_cast<std::int64_t>(sizeof(float)),
                   std::as_bytes(std::span(slice.weights)), comm);
    }
  } catch (const UserError&) {
    io::discard_everywhere(comm, edges);
    if (!weights.write_path.empty()) io::discard_everywhere(comm, weights);
    throw;
  }
  if (!weights_path.empty()) io::commit_everywhere(comm, weights);
  io::commit_everywhere(comm, edges);
}

}  // namespace g500
