// The sort-unique device half for CUDA GPUs (nvcc, Thrust's CUDA system), the same source as the
// CPU build.
#include <cuda_runtime.h>

#include "bfs/engines/sort_unique/device_impl.hpp"
