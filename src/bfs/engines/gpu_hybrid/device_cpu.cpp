// The gpu-hybrid device half on the CPU: Thrust's OpenMP system (THRUST_DEVICE_SYSTEM is set by
// CMake for this file), the same source as the CUDA build.
#include "bfs/engines/gpu_hybrid/device_impl.hpp"
