#include "core/memory.hpp"

#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace g500 {

std::int64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::int64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return static_cast<std::int64_t>(sysconf(_SC_AVPHYS_PAGES)) * sysconf(_SC_PAGESIZE);
}

namespace {

// A `Key:   N kB` line of /proc/self/status, in bytes (-1 when absent).
std::int64_t status_bytes(const std::string& wanted) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, wanted.size(), wanted) != 0) continue;
    return std::strtoll(line.c_str() + wanted.size(), nullptr, 10) * 1024;
  }
  return -1;
}

// The limit less what the process holds against it, or kUnlimitedBytes.
std::int64_t headroom_under(int resource, const char* held_key) {
  struct rlimit limit;
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnlimitedBytes;
  const std::int64_t held = std::max<std::int64_t>(0, status_bytes(held_key));
  const auto cap = static_cast<std::int64_t>(std::min<rlim_t>(limit.rlim_cur, static_cast<rlim_t>(kUnlimitedBytes)));
  return std::max<std::int64_t>(0, cap - held);
}

// The first number in a file, or -1 ("max", absent, unreadable).
std::int64_t number_in(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || word.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::strtoll(word.c_str(), nullptr, 10);
}

// A `key value` line of a cgroup's memory.stat (-1 when absent).
std::int64_t stat_value(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string name;
  std::int64_t value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return -1;
}

// The tightest limit less usage over `dir` and the folders above it, up to `root`.
std::int64_t tightest_headroom(const std::string& root, std::string path, const char* limit_file,
                               const char* usage_file, const char* inactive_key) {
  std::int64_t headroom = kUnlimitedBytes;
  while (true) {
    const std::string dir = root + (path == "/" ? "" : path);
    const std::int64_t limit = number_in(dir + "/" + limit_file);
    if (limit >= 0 && limit < kUnlimitedBytes) {
      // Inactive page cache counts as usage but is given back before the group runs short.
      const std::int64_t cache = std::max<std::int64_t>(0, stat_value(dir + "/memory.stat", inactive_key));
      const std::int64_t usage = std::max<std::int64_t>(0, number_in(dir + "/" + usage_file) - cache);
      headroom = std::min(headroom, std::max<std::int64_t>(0, limit - usage));
    }
    if (path.empty() || path == "/") return headroom;
    const std::size_t slash = path.rfind('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
}

}  // namespace

std::int64_t process_memory_headroom() {
  // Under RLIMIT_AS each thread past the first also maps address space it barely touches: a malloc arena's
  // reservation and a stack.
  constexpr std::int64_t kThreadAddressSpace = std::int64_t{72} << 20;
  const std::int64_t as = headroom_under(RLIMIT_AS, "VmSize:");
  const std::int64_t threads_take = as == kUnlimitedBytes ? 0 : kThreadAddressSpace * (omp_get_max_threads() - 1);
  return std::min(std::max<std::int64_t>(0, as - threads_take), headroom_under(RLIMIT_DATA, "VmData:"));
}

CgroupMemory cgroup_memory() {
  const char* given = std::getenv("G500_CGROUP_ROOT");
  const std::string root = given && *given ? given : "/sys/fs/cgroup";
  CgroupMemory found{"", kUnlimitedBytes};
  std::ifstream cgroups("/proc/self/cgroup");
  std::string line;
  // Lines are ID:CONTROLLERS:PATH; v2's is 0::PATH, v1's memory controller names "memory".
  while (std::getline(cgroups, line)) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    std::int64_t headroom = kUnlimitedBytes;
    if (controllers.empty()) {
      headroom = std::min(tightest_headroom(root, path, "memory.max", "memory.current", "inactive_file"),
                          tightest_headroom(root + "/unified", path, "memory.max", "memory.current", "inactive_file"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      headroom = tightest_headroom(root + "/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes",
                                   "total_inactive_file");
    } else {
      continue;
    }
    found.group += line + ";";
    found.headroom = std::min(found.headroom, headroom);
  }
  return found;
}

std::int64_t peak_resident_bytes() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace g500
