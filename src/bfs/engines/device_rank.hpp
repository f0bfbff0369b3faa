#pragma once
// The host side every GPU engine shares: one GPU a rank, picked by its node-local rank; how its
// exchanges reach device memory (--staging); and refusing, on every rank alike, a rank without a
// GPU or a graph that does not fit one.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bfs/bfs_options.hpp"
#include "bfs/engines/device_common.hpp"
#include "core/error.hpp"
#include "graph/csr_1d.hpp"
#include "mpi/comm.hpp"

namespace g500::device {

// Picks this rank's GPU (collective). Returns whether exchanges are staged through host memory:
// device buffers go straight to MPI only when MPI can read them (CUDA-aware, or the CPU build's
// device memory, which is host memory). The CPU build stages by default too, so that the tests
// run the path a GPU without a CUDA-aware MPI takes.
inline bool open_device(const mpi::Comm& comm, Staging staging, const std::string& engine) {
  const std::string problem = select_device(comm.split_shared().rank());
  if (comm.allreduce<std::int32_t>(problem.empty() ? 0 : 1, mpi::Op::max)) {
    throw UserError(engine + ": " + (problem.empty() ? "another rank has no usable GPU" : problem));
  }
  const bool direct_possible = memory_is_host() || mpi::cuda_aware();
  switch (staging) {
    case Staging::on:
      return true;
    case Staging::off:
      if (!direct_possible) throw UserError("--staging off needs a CUDA-aware MPI, and this MPI does not report one");
      return false;
    case Staging::automatic:
      break;
  }
  return !(direct_possible && !memory_is_host());
}

// Every rank's first vertex, and the vertex count last (ranks + 1 entries): how the device halves
// find an offer's owner.
inline std::vector<std::int64_t> block_starts(const Partition1D& part) {
  std::vector<std::int64_t> starts(part.num_ranks() + 1);
  for (int r = 0; r <= part.num_ranks(); ++r) starts[r] = part.begin_of(r);
  return starts;
}

// Kernel 1's rows, built on the host, as the device halves take them for the upload.
template <class Column>
HostGraph<Column> host_graph(const Csr1D<Column>& csr, std::span<const std::int64_t> starts, int rank) {
  return {std::span<const std::int64_t>(csr.offsets.data(), csr.offsets.size()),
          std::span<const Column>(csr.columns.data(), static_cast<std::size_t>(csr.local_entries())), starts, rank};
}

// After every rank tried to upload its graph (`too_big` empty where it fit): collective.
inline void check_uploaded(const mpi::Comm& comm, const std::string& too_big, const std::string& engine) {
  if (comm.allreduce<std::int32_t>(too_big.empty() ? 0 : 1, mpi::Op::max)) {
    throw UserError(too_big.empty() ? engine + ": the graph does not fit another rank's GPU" : too_big);
  }
}

}  // namespace g500::device
