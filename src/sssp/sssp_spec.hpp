#pragma once
// Kernel 3's row, of the same type as each BFS engine's (graph/kernel_spec.hpp): its name, how to
// make it, its memory estimate, and its options in one group (registration, checks and JSON in one
// place), so that a new --sssp-* option touches src/sssp/ only. Kernel 3 has one engine,
// delta-stepping.
#include "graph/kernel_spec.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/sssp_options.hpp"

namespace g500 {

// What a kernel 3 engine is made from (its options settled: harness/resolve.hpp).
struct SsspContext {
  const mpi::Comm& comm;
  const Partition1D& part;
  const SsspOptions& options;
};

using SsspSpec = KernelSpec<SsspEngine, SsspContext, SsspOptions>;

const SsspSpec& sssp_engine();

}  // namespace g500
