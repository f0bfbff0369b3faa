#pragma once
// What the GPU engines' Thrust sources (their device_impl.hpp) share: G500_HD marks the lambdas and
// functions that run on the device, which nvcc needs said and g++ (Thrust's OpenMP system) does not.
#include <thrust/detail/config.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#define G500_HD __host__ __device__
#else
#define G500_HD
#endif
