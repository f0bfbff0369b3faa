// The gpu-hybrid device half for CUDA GPUs (nvcc, Thrust's CUDA system), the same source as the
// CPU build.
#include "bfs/engines/gpu_hybrid/device_impl.hpp"
