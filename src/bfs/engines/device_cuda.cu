// The GPU engines' shared device functions for CUDA GPUs (nvcc, Thrust's CUDA system).
#include "bfs/engines/device_system_impl.hpp"
