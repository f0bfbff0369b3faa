#pragma once
// What the GPU engines' device halves share (sort_unique/, gpu_hybrid/): the rank's rows as the
// host built them, the (vertex, parent) pair they exchange, and the device system this build has.
// A plain header (no CUDA, no Thrust, no MPI); device_system_impl.hpp defines the functions, built
// once for the CPU (device_cpu.cpp, Thrust's OpenMP system) and once for CUDA (device_cuda.cu).
#include <cstdint>
#include <span>
#include <string>

namespace g500::device {

// The rank's share of a 1D graph as kernel 1 built it on the host, to be copied to the device.
template <class Id>
struct HostGraph {
  std::span<const std::int64_t> offsets;  // local_count + 1
  std::span<const Id> columns;            // global ids
  std::span<const std::int64_t> starts;   // first global id of each rank's block, ranks + 1 entries
  int rank = 0;
};

// A parent offer for a vertex another rank owns: `vertex` (global id) reached from `parent`.
template <class Id>
struct Candidate {
  Id vertex;
  Id parent;
};

// Picks this node-local rank's GPU (CUDA build); "" when fine, else why not. The CPU build has
// nothing to pick.
std::string select_device(int node_local_rank);
// Whether device memory is host memory (the CPU build): then any MPI can take its pointers, and
// the engines count it in the host's estimate.
bool memory_is_host();
// Free device memory in bytes (the CUDA build's GPU); the CPU build has no separate limit
// (infinity: the host's memory check covers it).
double free_bytes();
// The sentence a device engine refuses a graph with when `need` bytes exceed what is free.
std::string too_big(const char* engine, double need, double free);

}  // namespace g500::device
