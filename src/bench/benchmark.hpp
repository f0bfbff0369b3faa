#pragma once
// The benchmark harness: generate -> build (kernel 1) -> roots -> search + validate each root
// (kernel 2) -> statistics. Engines and the validator know nothing of each other.
#include <string>

#include "app/options.hpp"
#include "bench/report.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective. Throws UserError (on every rank) for impossible runs and failed validation.
RunRecord run_benchmark(const RunOptions& options, const mpi::Comm& comm);

// Collective: `g500 generate`.
void run_generate(const GenerateOptions& options, const mpi::Comm& comm);

}  // namespace g500
