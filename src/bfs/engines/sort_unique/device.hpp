#pragma once
// The device half of the sort-unique BFS (paper 003): the rank's CSR, its visited flags, parents
// and frontier, and the four steps of a level, all in device memory. A plain header (no CUDA, no
// MPI): the host half (sort_unique.cpp) does the exchange, and device.cu builds twice from one
// source, with Thrust's CUDA system (nvcc) or its OpenMP system (g++).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bfs/engines/device_common.hpp"

namespace g500::sort_unique {

// A candidate for the next level, and the rows as the host built them (kernel 1).
using device::Candidate;
using device::HostGraph;

// Sizes of the next-level array through a level's steps (the slides' pruning figures).
struct LevelSizes {
  std::int64_t expanded = 0;   // step 2: one entry per frontier edge
  std::int64_t unique = 0;     // step 3: after sort + unique
  std::int64_t unvisited = 0;  // step 3: after dropping vertices known visited or already sent
};

// What step 4 found on this rank.
struct Visited {
  std::int64_t discovered = 0;
  std::int64_t discovered_edges = 0;  // the sum of their degrees
};

template <class Id>
class Device {
 public:
  virtual ~Device() = default;
  // A new search: `root` is visited with itself as parent when this rank owns it. Returns the
  // root's degree on its owner, 0 elsewhere.
  virtual std::int64_t start(std::int64_t root) = 0;
  // Steps 1-3: expands the frontier into candidates sorted by vertex (so grouped by owner),
  // unique, without vertices this rank knows are visited or has sent before; send_counts[r] = the
  // candidates owned by rank r. Returns the sizes through the steps.
  virtual LevelSizes expand(std::vector<std::int64_t>& send_counts) = 0;
  // The candidates of the last expand(): in device memory, or `count` of them from `first` on
  // copied to the host.
  virtual const Candidate<Id>* candidates() const = 0;
  virtual void candidates_to_host(Candidate<Id>* out, std::int64_t first, std::int64_t count) const = 0;
  // Room in device memory for n received candidates; or, when exchanges are staged, the received
  // set made of this rank's own candidates [own_first, own_first + own_count), which never leave
  // the device, and n that arrived in host memory.
  virtual Candidate<Id>* receive_buffer(std::int64_t n) = 0;
  virtual void receive_staged(std::int64_t own_first, std::int64_t own_count, const Candidate<Id>* in,
                              std::int64_t n) = 0;
  // Step 4 on the n received candidates: unvisited local vertices join the tree and the next
  // frontier.
  virtual Visited visit(std::int64_t n) = 0;
  // This rank's parents (global ids, -1 unreached) into the host array.
  virtual void parents_to_host(std::span<std::int64_t> out) const = 0;
};

// Device memory the graph and one level's buffers need, for the memory check.
double device_bytes(double local_vertices, double local_arcs, double all_vertices, int id_bytes);

// Uploads the graph. `device_memory_error` is set (and null returned) when it does not fit.
template <class Id>
std::unique_ptr<Device<Id>> make_device(const HostGraph<Id>& graph, std::int64_t num_vertices,
                                        std::string& device_memory_error);

}  // namespace g500::sort_unique
