#include "core/energy_counters.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace g500 {
namespace {

bool read_number(const std::string& path, std::uint64_t& value) {
  std::ifstream in(path);
  return static_cast<bool>(in >> value);
}

// "intel-rapl:0" is a package; "intel-rapl:0:1" is a part of one.
bool is_package(const std::string& name) {
  const std::string prefix = "intel-rapl:";
  return name.rfind(prefix, 0) == 0 && name.size() > prefix.size() &&
         name.find(':', prefix.size()) == std::string::npos;
}

}  // namespace

std::uint64_t counter_delta(std::uint64_t before, std::uint64_t after, std::uint64_t range) {
  if (after >= before) return after - before;
  return range >= before ? (range - before) + after : after;  // wrapped once past `range`
}

EnergyMeter::EnergyMeter(std::string root) : root_(std::move(root)) {
  if (root_.empty()) {
    const char* env = std::getenv("G500_POWERCAP_ROOT");
    root_ = env && *env ? env : "/sys/class/powercap";
  }
  DIR* dir = opendir(root_.c_str());
  if (!dir) return;
  std::vector<std::string> names;
  while (const dirent* entry = readdir(dir)) {
    if (is_package(entry->d_name)) names.emplace_back(entry->d_name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    Domain d;
    d.energy_path = root_ + "/" + name + "/energy_uj";
    std::uint64_t now = 0;
    if (!read_number(d.energy_path, now) || !read_number(root_ + "/" + name + "/max_energy_range_uj", d.range)) continue;
    d.last = now;
    domains_.push_back(d);
  }
}

void EnergyMeter::start() {
  microjoules_ = 0;
  for (Domain& d : domains_) read_number(d.energy_path, d.last);
}

void EnergyMeter::sample() {
  for (Domain& d : domains_) {
    std::uint64_t now = 0;
    if (!read_number(d.energy_path, now)) continue;
    microjoules_ += static_cast<double>(counter_delta(d.last, now, d.range));
    d.last = now;
  }
}

}  // namespace g500
