#pragma once
// The node's energy counters as Linux powercap exposes Intel RAPL: one directory per package,
// /sys/class/powercap/intel-rapl:N/, with energy_uj (microjoules, counting up) and
// max_energy_range_uj (where energy_uj wraps to 0). Subdomains (intel-rapl:N:M: cores, DRAM on
// some parts) are inside their package's count and are not added again. G500_POWERCAP_ROOT names
// another directory laid out the same way (the tests' fixtures).
#include <cstdint>
#include <string>
#include <vector>

namespace g500 {

class EnergyMeter {
 public:
  // Finds the package domains under `root` ("" : $G500_POWERCAP_ROOT, else /sys/class/powercap).
  explicit EnergyMeter(std::string root = "");
  // Whether any package counter could be read.
  bool available() const { return !domains_.empty(); }
  // Where the counters were looked for, for messages.
  const std::string& root() const { return root_; }
  // Starts counting from now.
  void start();
  // Adds what every counter moved since the last sample (or start), through at most one wrap of
  // each: call it more often than a counter wraps (every few seconds is plenty; RAPL's wrap takes
  // minutes at full power).
  void sample();
  // Joules counted between start() and the last sample().
  double joules() const { return microjoules_ / 1e6; }

 private:
  struct Domain {
    std::string energy_path;
    std::uint64_t range = 0;  // max_energy_range_uj: the counter wraps past it
    std::uint64_t last = 0;
  };
  std::string root_;
  std::vector<Domain> domains_;
  double microjoules_ = 0;
};

// What a counter moved from `before` to `after`, given that it wraps to 0 past `range`.
std::uint64_t counter_delta(std::uint64_t before, std::uint64_t after, std::uint64_t range);

}  // namespace g500
