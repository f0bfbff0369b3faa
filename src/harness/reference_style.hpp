#pragma once
// The statistics block as Graph500 reference 3.0 prints it (`--stats-style reference`), for
// harnesses and site scripts written against the reference's output: its keys ("bfs  min_time:",
// two spaces after "bfs"; "sssp min_time:"), their order (the time blocks, then nedge, then the
// TEPS blocks, then the validation blocks), values in column 32, times and TEPS as %g, edge counts
// as %.11g, and the "!" the reference puts before the harmonic mean of TEPS.
#include <iosfwd>

#include "harness/report.hpp"

namespace g500 {

void print_reference_statistics(std::ostream& out, const RunRecord& run);

}  // namespace g500
