#pragma once
// What the machine can give us, so a run that cannot fit is refused before it allocates.
#include <algorithm>
#include <cstdint>
#include <string>

namespace g500 {

// Bytes the OS says it can still hand out (MemAvailable), for the whole node.
std::int64_t available_memory_bytes();

// Bytes this process may still take under its own limits (RLIMIT_AS above its mapped size now, less
// the address space its OpenMP threads will map; RLIMIT_DATA above its data now: what `ulimit -v`
// and `ulimit -d` set); kUnlimitedBytes when none.
std::int64_t process_memory_headroom();

// The memory cgroup this process is in (its path, to tell which processes share it) and the bytes it
// may still take: the tightest limit less usage over the group and its ancestors (cgroup v2's
// memory.max and memory.current; v1's memory.limit_in_bytes and memory.usage_in_bytes), or
// kUnlimitedBytes. Reads /proc/self/cgroup and the hierarchy under /sys/fs/cgroup, or under
// $G500_CGROUP_ROOT where that is set (tests).
struct CgroupMemory {
  std::string group;
  std::int64_t headroom;
};
CgroupMemory cgroup_memory();

inline constexpr std::int64_t kUnlimitedBytes = std::int64_t{1} << 62;

// A memory estimate, made in floating point so that an impossible run's cannot wrap around, as
// whole bytes, held below 2^63.
inline std::int64_t estimate_to_bytes(double bytes) { return static_cast<std::int64_t>(std::min(bytes, 9.0e18)); }

// The most resident memory this process has held so far (its high-water mark).
std::int64_t peak_resident_bytes();

}  // namespace g500
