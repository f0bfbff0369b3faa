// The GPU engines' shared device functions on the CPU: Thrust's OpenMP system (CMake sets
// THRUST_DEVICE_SYSTEM for the device sources).
#include "bfs/engines/device_system_impl.hpp"
