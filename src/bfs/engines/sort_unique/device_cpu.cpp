// The sort-unique device half on the CPU: Thrust's OpenMP system (THRUST_DEVICE_SYSTEM is set by
// CMake for this file), the same source as the CUDA build.
#include "bfs/engines/sort_unique/device_impl.hpp"
