#pragma once
// device_common.hpp's functions for the device system this file is compiled for: CUDA under nvcc
// (device_cuda.cu), the CPU otherwise (device_cpu.cpp).
#include <thrust/detail/config.h>

#include <limits>

#include "bfs/engines/device_common.hpp"

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <cuda_runtime.h>
#endif

namespace g500::device {

std::string select_device(int node_local_rank) {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    return "no CUDA GPU is visible to this rank (g500-cuda runs it on GPUs, g500 on the CPU)";
  }
  cudaSetDevice(node_local_rank % count);
#else
  (void)node_local_rank;
#endif
  return "";
}

bool memory_is_host() { return THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CUDA; }

double free_bytes() {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0;
  return static_cast<double>(free);
#else
  return std::numeric_limits<double>::infinity();
#endif
}

std::string too_big(const char* engine, double need, double free) {
  return std::string(engine) + ": the graph needs about " + std::to_string(need / 1e9) +
         " GB of device memory but the GPU has " + std::to_string(free / 1e9) +
         " GB free (use more GPUs or a smaller --scale)";
}

}  // namespace g500::device
