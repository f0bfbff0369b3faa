#pragma once
// The host side every GPU engine shares: one GPU a rank, picked by its node-local rank; how its
// exchanges reach device memory (--staging); and refusing, on every rank alike, a rank without a
// GPU or a graph that does not fit one.
#include <cstdint>
#include <string>

#include "bfs/bfs_options.hpp"
#include "bfs/engines/device_common.hpp"
#include "core/error.hpp"
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

// After every rank tried to upload its graph (`too_big` empty where it fit): collective.
inline void check_uploaded(const mpi::Comm& comm, const std::string& too_big, const std::string& engine) {
  if (comm.allreduce<std::int32_t>(too_big.empty() ? 0 : 1, mpi::Op::max)) {
    throw UserError(too_big.empty() ? engine + ": the graph does not fit another rank's GPU" : too_big);
  }
}

}  // namespace g500::device
