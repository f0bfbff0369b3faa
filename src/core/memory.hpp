#pragma once
// What the machine can give us, so a run that cannot fit is refused before it allocates.
#include <cstdint>

namespace g500 {

// Bytes the OS says it can still hand out (MemAvailable), for the whole node.
std::int64_t available_memory_bytes();

// The most resident memory this process has held so far (its high-water mark).
std::int64_t peak_resident_bytes();

}  // namespace g500
