#include "harness/reference_style.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "harness/statistics.hpp"

namespace g500 {
namespace {

constexpr int kValueColumn = 32;

// "key:" padded to the value column (a longer key gets one space), then the value.
void line(std::ostream& out, const std::string& key, const std::string& value, const char* mark = "") {
  std::string text = key + ":";
  const std::string lead = std::string(mark).empty() ? "" : std::string(mark) + "  ";
  const int pad = kValueColumn - static_cast<int>(text.size() + lead.size());
  text += std::string(static_cast<std::size_t>(std::max(1, pad)), ' ') + lead + value;
  out << text << '\n';
}

std::string g(double value, const char* fmt = "%g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

// "bfs " and "sssp" are the same width: the reference aligns the keys that follow.
std::string kernel_prefix(const char* kernel) { return std::string(kernel) == "bfs" ? "bfs  " : "sssp "; }

void summary(std::ostream& out, const std::string& prefix, const std::string& what, const Summary& s,
             const char* fmt = "%g") {
  line(out, prefix + "min_" + what, g(s.min, fmt));
  line(out, prefix + "firstquartile_" + what, g(s.firstquartile, fmt));
  line(out, prefix + "median_" + what, g(s.median, fmt));
  line(out, prefix + "thirdquartile_" + what, g(s.thirdquartile, fmt));
  line(out, prefix + "max_" + what, g(s.max, fmt));
  line(out, prefix + "mean_" + what, g(s.mean, fmt));
  line(out, prefix + "stddev_" + what, g(s.stddev, fmt));
}

struct Kernel {
  const char* name;
  std::vector<double> seconds, nedge, validate;
};

Kernel kernel_of(const char* name, const std::vector<RootRecord>& roots) {
  Kernel k{name, {}, {}, {}};
  for (const RootRecord& r : roots) {
    k.seconds.push_back(r.seconds);
    k.nedge.push_back(static_cast<double>(r.nedge));
    // The reference's time for a search it did not validate (SKIP_VALIDATION) is -1.
    k.validate.push_back(r.result == "not validated" ? -1.0 : r.validate_seconds);
  }
  return k;
}

void teps(std::ostream& out, const Kernel& k) {
  const TepsSummary t = summarize_teps(k.seconds, k.nedge);
  const std::string p = kernel_prefix(k.name);
  line(out, p + "min_TEPS", g(t.min));
  line(out, p + "firstquartile_TEPS", g(t.firstquartile));
  line(out, p + "median_TEPS", g(t.median));
  line(out, p + "thirdquartile_TEPS", g(t.thirdquartile));
  line(out, p + "max_TEPS", g(t.max));
  line(out, p + "harmonic_mean_TEPS", g(t.harmonic_mean), "!");
  line(out, p + "harmonic_stddev_TEPS", g(t.harmonic_stddev));
}

}  // namespace

void print_reference_statistics(std::ostream& out, const RunRecord& run) {
  std::vector<Kernel> kernels;
  if (!run.roots.empty()) kernels.push_back(kernel_of("bfs", run.roots));
  if (!run.sssp_roots.empty()) kernels.push_back(kernel_of("sssp", run.sssp_roots));
  line(out, "SCALE", std::to_string(run.options.scale));
  line(out, "edgefactor", std::to_string(run.options.edgefactor));
  line(out, "NBFS", std::to_string(std::max(run.roots.size(), run.sssp_roots.size())));
  line(out, "graph_generation", g(run.generation_seconds));
  line(out, "num_mpi_processes", std::to_string(run.num_mpi_processes));
  line(out, "construction_time", g(run.construction_seconds));
  for (const Kernel& k : kernels) summary(out, kernel_prefix(k.name), "time", summarize(k.seconds));
  // One nedge block, unprefixed, as the reference prints it: the first kernel's.
  if (!kernels.empty()) summary(out, "", "nedge", summarize(kernels.front().nedge), "%.11g");
  for (const Kernel& k : kernels) teps(out, k);
  for (const Kernel& k : kernels) summary(out, kernel_prefix(k.name), "validate", summarize(k.validate));
}

}  // namespace g500
