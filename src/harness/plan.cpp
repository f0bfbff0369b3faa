#include "harness/plan.hpp"

#include <omp.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "bfs/engine_choice.hpp"
#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "core/types.hpp"
#include "harness/memory_check.hpp"
#include "harness/resolve.hpp"

namespace g500 {
namespace {

std::string bytes_text(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 6) {
    bytes /= 1024;
    ++unit;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return buf;
}

struct Machine {
  double ranks, memory_per_rank;
  double gpu_memory = 0;  // a rank's GPU; 0 without
};

// The run a plan stands for: its engine and kernels, every search validated, the default 64 roots.
RunOptions plan_run(const PlanOptions& plan) {
  RunOptions run;
  run.bfs = plan.bfs;
  run.kernels = plan.kernels;
  run.roots = 64;
  return run;
}

// SCALE's phases with the largest batch up to the asked one that fits (or batch 1's, fitting or not).
struct ScaleFit {
  PhaseBytes phases;
  int batch = 1;
  bool fits = false;
  bool enough_vertices = true;  // a run needs at least a vertex a rank
  double device = 0;            // a GPU engine's device memory a rank (one rank a GPU)
  bool device_binds = false;    // the host fits and the GPU does not
};

ScaleFit fit_scale(const PlanOptions& plan, const Machine& m, int scale) {
  ScaleFit fit;
  const ProblemSize size{std::ldexp(1.0, scale), std::ldexp(1.0, scale) * plan.edgefactor, static_cast<int>(m.ranks),
                         plan.threads_per_rank};
  fit.enough_vertices = size.vertices >= m.ranks;
  // As a run settles it: --bfs auto's engine that fits, if any does, and the batch that fits.
  const RunOptions settled =
      resolve(plan_run(plan), size, [&](double bytes) { return bytes <= m.memory_per_rank; }).options;
  fit.phases = estimate_phases(size.vertices, size.tuples, size.ranks, settled.bfs, settled.kernels, size.threads);
  fit.batch = settled.kernels.validation_batch;
  fit.fits = fit.enough_vertices && fit.phases.peak() <= m.memory_per_rank;
  if (m.gpu_memory > 0 && plan.kernels.bfs) {
    const EngineSpec& spec = find_engine(settled.bfs.engine);
    fit.device = spec.device_bytes(GraphShape{size.vertices, size.tuples, size.ranks}, settled.bfs);
    fit.device_binds = fit.fits && fit.device > m.gpu_memory;
    fit.fits = fit.fits && !fit.device_binds;
  }
  if (!fit.fits) fit.batch = 1;
  return fit;
}

void line(std::ostream& out, const std::string& what, double bytes, const std::string& parts,
          const char* per = "a rank") {
  char buf[80];
  std::snprintf(buf, sizeof buf, "  %-18s %12s %s", what.c_str(), bytes_text(bytes).c_str(), per);
  out << buf << (parts.empty() ? "" : "  (" + parts + ")") << "\n";
}

// A phase's structures, one a line under it.
void parts(std::ostream& out, const std::vector<MemoryPart>& parts) {
  for (const MemoryPart& part : parts) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "      %12s  %s\n", bytes_text(part.bytes).c_str(), part.name.c_str());
    out << buf;
  }
}

// The phase that sets the peak, and its largest part: what binds a SCALE that does not fit.
std::string what_binds(const PhaseBytes& p) {
  if (p.peak() == p.sssp && p.sssp > 0) {
    return "kernel 3: its graph " + bytes_text(p.sssp_graph) + ", its validation " + bytes_text(p.sssp_validation);
  }
  if (p.peak() == p.build) return "kernel 1: the " + p.engine + " graph as it is built, " + bytes_text(p.bfs_graph_build);
  return "kernel 2: the " + p.engine + " graph " + bytes_text(p.bfs_graph) + ", its validation " + bytes_text(p.bfs_validation);
}

void print_scale(std::ostream& out, const PlanOptions& plan, const Machine& m, int scale) {
  const ScaleFit fit = fit_scale(plan, m, scale);
  const PhaseBytes& p = fit.phases;
  out << "SCALE " << scale << ": ";
  if (!fit.enough_vertices) out << "does not fit: fewer vertices than ranks\n";
  else if (fit.fits) out << "fits, validation batch " << fit.batch << "\n";
  else if (fit.device_binds)
    out << "does not fit; what binds is the GPU: the " << p.engine << " graph and search " << bytes_text(fit.device)
        << "\n";
  else out << "does not fit even with validation batch 1; what binds is " << what_binds(p) << "\n";
  if (plan.kernels.bfs) {
    line(out, "kernel 1 (build)", p.build, p.engine + " graph being built " + bytes_text(p.bfs_graph_build));
    parts(out, p.build_parts);
    line(out, "kernel 2 (BFS)", p.bfs, "graph " + bytes_text(p.bfs_graph) + ", validation " + bytes_text(p.bfs_validation));
    parts(out, p.bfs_parts);
  }
  if (m.gpu_memory > 0 && plan.kernels.bfs) {
    line(out, "kernel 2 (device)", fit.device,
         "the graph, a search's state and buffers; a GPU has " + bytes_text(m.gpu_memory), "a GPU");
  }
  if (plan.kernels.sssp) {
    line(out, "kernel 3 (SSSP)", p.sssp, "graph " + bytes_text(p.sssp_graph) + ", validation " + bytes_text(p.sssp_validation));
  }
  line(out, "peak", p.peak(), "a rank has " + bytes_text(m.memory_per_rank) + "; each phase holds " +
                                   bytes_text(p.rank_tables) + " for the ranks' buckets and counters");
}

}  // namespace

double parse_memory_size(const std::string& text, const std::string& flag) {
  // Decimal digits only (from_chars takes no hexadecimal here, where stod would read "0x20G").
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  const std::size_t at = ec == std::errc() ? static_cast<std::size_t>(end - text.data()) : 0;
  std::string unit = text.substr(at);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(0, 1);
  double scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  const std::string prefixes = "KMGTP";
  const std::size_t p = unit.empty() ? std::string::npos : prefixes.find(static_cast<char>(std::toupper(unit[0])));
  if (p != std::string::npos) {
    const std::string rest = unit.substr(1);
    if (rest.empty() || rest == "i" || rest == "iB") scale = std::pow(1024.0, static_cast<double>(p + 1));
    else if (rest == "B") scale = std::pow(1000.0, static_cast<double>(p + 1));
  }
  if (at == 0 || scale == 0 || !(value > 0) || !std::isfinite(value)) {
    throw UserError(flag + " must be a size such as 32GiB, 512 GiB or 24GB, got '" + text + "'");
  }
  // Whole bytes: "1e-9G" is one byte and no machine.
  if (value * scale < 1) throw UserError(flag + " must be at least 1 byte, got '" + text + "'");
  return value * scale;
}

// The estimates size some per-thread buffers by this process's thread count: while the plan is
// made, that is the planned rank's, so that the plan's figures and the run's are one number.
class PlannedThreads {
 public:
  explicit PlannedThreads(int threads) : before_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~PlannedThreads() { omp_set_num_threads(before_); }

 private:
  int before_;
};

void print_plan(std::ostream& out, const PlanOptions& plan) {
  const PlannedThreads threads(plan.threads_per_rank);
  const Machine m{static_cast<double>(plan.nodes) * plan.ranks_per_node, plan.memory_per_node / plan.ranks_per_node,
                  plan.gpu_memory};
  int largest = kMaxScale;
  ScaleFit fit = fit_scale(plan, m, largest);
  while (!fit.fits && largest > 1) fit = fit_scale(plan, m, --largest);
  if (!fit.fits) {
    const ScaleFit one = fit_scale(plan, m, 1);
    if (one.device_binds) {
      throw UserError("no SCALE fits this machine: a GPU has " + bytes_text(m.gpu_memory) + ", and SCALE 1 needs " +
                      bytes_text(one.device) + " of it");
    }
    throw UserError("no SCALE fits this machine: a rank has " + bytes_text(m.memory_per_rank) +
                    " (--memory-per-node over --ranks-per-node), and SCALE 1 needs " + bytes_text(one.phases.peak()) +
                    " a rank");
  }
  out << "machine: " << plan.nodes << " nodes x " << plan.ranks_per_node << " ranks x " << plan.threads_per_rank
      << " threads = " << static_cast<std::int64_t>(m.ranks) << " ranks, " << bytes_text(plan.memory_per_node)
      << " a node (" << bytes_text(m.memory_per_rank) << " a rank)";
  if (plan.gpus_per_node > 0)
    out << ", " << plan.gpus_per_node << " GPUs a node of " << bytes_text(plan.gpu_memory) << " (a rank each)";
  out << "\n";
  const ResolvedRun at_largest = resolve(plan_run(plan),
                                         {std::ldexp(1.0, largest), plan.edgefactor * std::ldexp(1.0, largest),
                                          static_cast<int>(m.ranks), plan.threads_per_rank},
                                         [](double) { return true; });
  out << "kernels: " << (plan.kernels.bfs ? (plan.kernels.sssp ? "bfs,sssp" : "bfs") : "sssp") << ", edgefactor "
      << plan.edgefactor;
  if (plan.kernels.bfs) {
    out << ", --bfs " << plan.bfs.engine << ": " << at_largest.rule_engine;
    if (plan.bfs.engine == kAutoEngine) out << " for this rank count (another where that one does not fit)";
  }
  out << "\n";
  if (plan.scale) print_scale(out, plan, m, *plan.scale);
  if (!plan.scale || *plan.scale != largest) print_scale(out, plan, m, largest);
  // The machine's memory over the largest SCALE's tuples: what the list's sizes are compared by.
  const double tuples = plan.edgefactor * std::ldexp(1.0, largest);
  char per_tuple[64];
  std::snprintf(per_tuple, sizeof per_tuple, "%.1f", plan.memory_per_node * plan.nodes / tuples);
  out << "largest SCALE: " << largest << " (validation batch " << fit.batch << "; " << per_tuple
      << " bytes of the machine a tuple)\n";
}

}  // namespace g500
