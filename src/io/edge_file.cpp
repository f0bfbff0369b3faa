#include "io/edge_file.hpp"

#include <bit>

#include "mpi/file.hpp"

namespace g500 {

static_assert(std::endian::native == std::endian::little, "edge files are little-endian; add byte swapping here");

void write_edge_file(const std::string& path, const EdgeSlice& slice, const mpi::Comm& comm) {
  mpi::File file(comm, path, mpi::File::Mode::write);
  file.write_at_all(slice.first * static_cast<std::int64_t>(sizeof(Edge)), std::as_bytes(std::span(slice.edges)));
}

void write_weight_file(const std::string& path, const EdgeSlice& slice, const mpi::Comm& comm) {
  mpi::File file(comm, path, mpi::File::Mode::write);
  file.write_at_all(slice.first * static_cast<std::int64_t>(sizeof(float)), std::as_bytes(std::span(slice.weights)));
}

}  // namespace g500
