#pragma once
// What the machine can give us, so a run that cannot fit is refused before it allocates.
#include <algorithm>
#include <cstdint>

namespace g500 {

// Bytes the OS says it can still hand out (MemAvailable), for the whole node.
std::int64_t available_memory_bytes();

// A memory estimate, made in floating point so that an impossible run's cannot wrap around, as
// whole bytes, held below 2^63.
inline std::int64_t estimate_to_bytes(double bytes) { return static_cast<std::int64_t>(std::min(bytes, 9.0e18)); }

// The most resident memory this process has held so far (its high-water mark).
std::int64_t peak_resident_bytes();

}  // namespace g500
