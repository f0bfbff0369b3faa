#include "harness/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <thread>
#include <utility>
#include <vector>

#include "bfs/registry.hpp"
#include "harness/statistics.hpp"
#include "sssp/sssp_spec.hpp"

namespace g500 {
namespace {

std::string format(double value, const char* fmt = "%.9g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

void print_summary(std::ostream& out, const std::string& prefix, const std::string& suffix, const Summary& s,
                   const char* fmt = "%.9g") {
  out << prefix << "min_" << suffix << ": " << format(s.min, fmt) << '\n'
      << prefix << "firstquartile_" << suffix << ": " << format(s.firstquartile, fmt) << '\n'
      << prefix << "median_" << suffix << ": " << format(s.median, fmt) << '\n'
      << prefix << "thirdquartile_" << suffix << ": " << format(s.thirdquartile, fmt) << '\n'
      << prefix << "max_" << suffix << ": " << format(s.max, fmt) << '\n'
      << prefix << "mean_" << suffix << ": " << format(s.mean, fmt) << '\n'
      << prefix << "stddev_" << suffix << ": " << format(s.stddev, fmt) << '\n';
}

struct Series {
  std::vector<double> seconds, nedge, validate;
};

Series series_of(const std::vector<RootRecord>& roots) {
  Series s;
  for (const auto& r : roots) {
    s.seconds.push_back(r.seconds);
    s.nedge.push_back(static_cast<double>(r.nedge));
    s.validate.push_back(r.validate_seconds);
  }
  return s;
}

nlohmann::json summary_json(const Summary& s) {
  return {{"min", s.min}, {"firstquartile", s.firstquartile}, {"median", s.median},
          {"thirdquartile", s.thirdquartile}, {"max", s.max}, {"mean", s.mean}, {"stddev", s.stddev}};
}

// The processor's name as /proc/cpuinfo gives it, or "" elsewhere.
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "";
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// What the rows would take stored compressed (--measure-row-codes), beside the edge count.
nlohmann::json row_codes_json(const RunRecord& run) {
  if (!run.row_codes) return nullptr;
  const RowCodeSize& c = *run.row_codes;
  return {{"entries", c.entries},
          {"bytes", c.bytes},
          {"bytes_per_entry", c.entries ? static_cast<double>(c.bytes) / c.entries : 0.0},
          {"bytes_per_tuple", run.edge_tuples ? static_cast<double>(c.bytes) / run.edge_tuples : 0.0}};
}

nlohmann::json memory_json(const RunRecord& run) {
  std::int64_t total = 0;
  for (std::int64_t b : run.peak_memory) total += b;
  return {{"estimate_per_rank", run.memory_estimate_per_rank},
          {"peak_per_rank", run.peak_memory},
          {"peak_per_rank_after_construction", run.peak_memory_after_construction},
          {"peak_per_rank_before_validation", run.peak_memory_before_validation},
          {"peak_total", total},
          {"peak_bytes_per_tuple", run.edge_tuples ? static_cast<double>(total) / run.edge_tuples : 0.0}};
}

}  // namespace

namespace {

// One kernel's block of the statistics: time, nedge, TEPS and validation, keys prefixed.
void print_kernel(std::ostream& out, const std::string& prefix, const std::vector<RootRecord>& roots) {
  const Series s = series_of(roots);
  const TepsSummary teps = summarize_teps(s.seconds, s.nedge);
  print_summary(out, prefix, "time", summarize(s.seconds));
  print_summary(out, prefix, "nedge", summarize(s.nedge), "%.11g");
  out << prefix << "min_TEPS: " << format(teps.min) << '\n'
      << prefix << "firstquartile_TEPS: " << format(teps.firstquartile) << '\n'
      << prefix << "median_TEPS: " << format(teps.median) << '\n'
      << prefix << "thirdquartile_TEPS: " << format(teps.thirdquartile) << '\n'
      << prefix << "max_TEPS: " << format(teps.max) << '\n'
      << prefix << "harmonic_mean_TEPS: " << format(teps.harmonic_mean) << '\n'
      << prefix << "harmonic_stddev_TEPS: " << format(teps.harmonic_stddev) << '\n';
  print_summary(out, prefix, "validate", summarize(s.validate));
}

}  // namespace

void print_energy(std::ostream& out, const std::string& prefix, const EnergyRecord& energy,
                  const std::vector<RootRecord>& roots) {
  if (!energy.ran) return;
  out << prefix << "energy_loop_seconds: " << format(energy.seconds) << '\n'
      << prefix << "energy_loop_searches: " << energy.searches << '\n';
  if (!energy.counted) return;
  const Series s = series_of(roots);
  const double watts = energy.watts();
  out << prefix << "energy_joules: " << format(energy.joules) << '\n'
      << prefix << "average_watts: " << format(watts) << '\n'
      << prefix << "TEPS_per_watt: " << format(watts > 0 ? summarize_teps(s.seconds, s.nedge).harmonic_mean / watts : 0)
      << '\n';
}

nlohmann::json energy_json(const EnergyRecord& energy, const std::vector<RootRecord>& roots) {
  if (!energy.ran) return nullptr;
  nlohmann::json out = {{"seconds", energy.seconds}, {"searches", energy.searches}, {"counters", energy.counted},
                        {"counters_root", energy.counters}};
  if (energy.counted) {
    const Series s = series_of(roots);
    const double watts = energy.watts();
    out["joules"] = energy.joules;
    out["average_watts"] = watts;
    out["TEPS_per_watt"] = watts > 0 ? summarize_teps(s.seconds, s.nedge).harmonic_mean / watts : 0.0;
  }
  return out;
}

void print_statistics(std::ostream& out, const RunRecord& run) {
  out << "SCALE: " << run.options.scale << '\n'
      << "edgefactor: " << run.options.edgefactor << '\n'
      << "NBFS: " << std::max(run.roots.size(), run.sssp_roots.size()) << '\n'
      << "graph_generation: " << format(run.generation_seconds) << '\n'
      << "num_mpi_processes: " << run.num_mpi_processes << '\n'
      << "construction_time: " << format(run.construction_seconds) << '\n';
  if (!run.roots.empty()) print_kernel(out, "bfs_", run.roots);
  if (!run.sssp_roots.empty()) print_kernel(out, "sssp_", run.sssp_roots);
  print_energy(out, "bfs_", run.bfs_energy, run.roots);
  print_energy(out, "sssp_", run.sssp_energy, run.sssp_roots);
  out << "validation: " << (run.validated ? "passed" : "skipped (results NOT valid)") << '\n';
}

namespace {

nlohmann::json phases_json(const PhaseSummary& summary) {
  nlohmann::json out = nlohmann::json::object(), per_rank = nlohmann::json::object();
  for (const auto& [name, field] : kPhaseFields) {
    out[name] = {{"min", summary.min.*field}, {"mean", summary.mean.*field}, {"max", summary.max.*field}};
    std::vector<double> values;
    for (const PhaseTimes& r : summary.per_rank) values.push_back(r.*field);
    per_rank[name] = values;
  }
  if (!summary.per_rank.empty()) out["per_rank"] = per_rank;
  return out;
}

// A search's compute and work over the ranks: the mean rank's, the largest, and each rank's when
// listed.
nlohmann::json rank_totals_json(const RankTotals& totals) {
  auto listed = [&](std::size_t field) {
    std::vector<double> values;
    for (const std::vector<double>& r : totals.per_rank) values.push_back(r[field]);
    return values;
  };
  nlohmann::json out = {
      {"compute",
       {{"mean", totals.compute.mean}, {"max", totals.compute.max}, {"critical_path", totals.critical_path}}}};
  if (!totals.per_rank.empty()) out["compute"]["per_rank"] = listed(0);
  for (std::size_t f = 0; f < std::size(kWorkFields); ++f) {
    nlohmann::json& w = out[kWorkFields[f].first];
    w = {{"mean", totals.work[f].mean}, {"max", totals.work[f].max}};
    if (!totals.per_rank.empty()) w["per_rank"] = listed(1 + f);
  }
  return out;
}

nlohmann::json statistics_json(const std::vector<RootRecord>& roots) {
  const Series s = series_of(roots);
  const TepsSummary teps = summarize_teps(s.seconds, s.nedge);
  return {{"NBFS", roots.size()},
          {"time", summary_json(summarize(s.seconds))},
          {"nedge", summary_json(summarize(s.nedge))},
          {"validate", summary_json(summarize(s.validate))},
          {"TEPS",
           {{"min", teps.min}, {"firstquartile", teps.firstquartile}, {"median", teps.median},
            {"thirdquartile", teps.thirdquartile}, {"max", teps.max}, {"harmonic_mean", teps.harmonic_mean},
            {"harmonic_stddev", teps.harmonic_stddev}}}};
}

nlohmann::json sssp_json(const RunRecord& run) {
  nlohmann::json roots = nlohmann::json::array();
  for (const auto& r : run.sssp_roots) {
    nlohmann::json buckets = nlohmann::json::array();
    for (const BucketRecord& b : r.buckets) {
      buckets.push_back({{"bucket", b.bucket}, {"light_rounds", b.light_rounds}, {"settled", b.settled},
                         {"light_relaxations", b.light_relaxations}, {"heavy_relaxations", b.heavy_relaxations},
                         {"useful_relaxations", b.useful_relaxations},
                         {"pruned_relaxations", b.pruned_relaxations}, {"fused_rounds", b.fused_rounds},
                         {"bytes_sent", b.bytes_sent}, {"pulled", b.pulled}, {"whole_rows", b.whole_rows},
                         {"seconds", b.seconds}});
    }
    roots.push_back({{"root", r.shown_root}, {"seconds", r.seconds}, {"nedge", r.nedge}, {"teps", r.teps},
                     {"validate_seconds", r.validate_seconds}, {"result", r.result}, {"buckets", buckets}});
  }
  return {{"statistics", statistics_json(run.sssp_roots)}, {"runs", roots}};
}

}  // namespace

nlohmann::json to_json(const RunRecord& run, const std::string& command_line) {
  const RunOptions& o = run.options;
  nlohmann::json roots = nlohmann::json::array();
  for (const auto& r : run.roots) {
    nlohmann::json levels = nlohmann::json::array();
    for (const auto& l : r.levels) {
      levels.push_back({{"level", l.level}, {"direction", to_string(l.direction)},
                        {"frontier_vertices", l.frontier_vertices}, {"frontier_edges", l.frontier_edges},
                        {"discovered", l.discovered}, {"edges_examined", l.edges_examined},
                        {"seconds", l.seconds}, {"traffic", to_json(l.traffic)},
                        {"max_rank_bytes_sent", l.max_rank_bytes_sent}, {"phases", phases_json(l.rank_phases)}});
      if (!l.steps.empty()) levels.back()["steps"] = l.steps;
    }
    roots.push_back({{"root", r.shown_root},
                     {"seconds", r.seconds},
                     {"nedge", r.nedge},
                     {"teps", r.teps},
                     {"validate_seconds", r.validate_seconds},
                     {"result", r.result},
                     {"levels", levels},
                     {"ranks", rank_totals_json(r.rank_totals)}});
  }
  std::vector<std::string> kernels;
  if (o.kernels.bfs) kernels.push_back("bfs");
  if (o.kernels.sssp) kernels.push_back("sssp");
  nlohmann::json options = {{"scale", o.scale}, {"edgefactor", o.edgefactor}, {"seed", o.seed},
                            {"roots", o.roots}, {"kernels", kernels}, {"bfs", o.bfs.engine},
                            {"skip_validation", o.skip_validation}};
  if (o.kernels.bfs && !o.bfs.auto_candidates.empty()) options["bfs_chosen_by"] = "auto";
  if (!o.skip_validation) options["validation_batch"] = o.kernels.validation_batch;
  if (o.kernels.sssp)
    for (const OptionGroupFor<SsspOptions>* g : sssp_engine().option_groups)
      g->to_json(o.kernels.sssp_options, options);
  for (const OptionGroup* g : find_engine(o.bfs.engine).option_groups) g->to_json(o.bfs, options);
  return {
      {"command", command_line},
      {"options", options},
      {"machine",
       {{"host", host_name()}, {"cpu", cpu_model()}, {"cores", std::thread::hardware_concurrency()},
        {"num_mpi_processes", run.num_mpi_processes},
        {"threads_per_process", run.threads_per_process}}},
      {"graph",
       {{"vertices", run.vertices},
        {"edge_tuples", run.edge_tuples},
        {"layout", run.layout.empty() ? "1D blocks" : run.layout}}},
      {"row_codes", row_codes_json(run)},
      {"edge_source", run.edge_source},
      {"graph_generation", run.generation_seconds},
      {"construction_time", run.construction_seconds},
      {"sssp_construction_time", run.sssp_construction_seconds},
      {"validated", run.validated},
      {"statistics", statistics_json(run.roots)},
      {"runs", roots},
      {"sssp", run.sssp_roots.empty() ? nlohmann::json(nullptr) : sssp_json(run)},
      {"energy", {{"bfs", energy_json(run.bfs_energy, run.roots)}, {"sssp", energy_json(run.sssp_energy, run.sssp_roots)}}},
      {"traffic", to_json(run.traffic)},
      {"memory", memory_json(run)},
  };
}

}  // namespace g500
