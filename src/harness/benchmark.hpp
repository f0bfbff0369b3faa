#pragma once
// The benchmark harness: generate -> kernel 1 (vertex count, engine build) -> roots -> per root:
// search (kernel 2, timed) + validate -> statistics. Engines and the validator know nothing of
// each other; the harness reads engines only through the registry.
#include "harness/report.hpp"
#include "harness/run_options.hpp"
#include "io/staged_file.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective. Throws UserError (on every rank) for impossible runs and failed validation. The
// trees of --output join `outputs`, to land with the run's other outputs (io/staged_file.hpp).
RunRecord run_benchmark(const RunOptions& options, const mpi::Comm& comm, io::PendingOutputs& outputs);
// Collective: the same, with --output put in place at the end.
RunRecord run_benchmark(const RunOptions& options, const mpi::Comm& comm);

// Collective: `g500 generate`.
void run_generate(const GenerateOptions& options, const mpi::Comm& comm);

}  // namespace g500
