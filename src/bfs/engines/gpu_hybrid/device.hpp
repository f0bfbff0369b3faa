#pragma once
// The device half of the GPU direction-optimizing BFS (`--bfs gpu-hybrid`): the rank's rows, its
// parents, what the current level found, the frontier (a queue for top-down steps, the whole
// graph's bitmap for bottom-up ones) and the steps themselves, all in device memory. A plain
// header (no CUDA, no MPI): the host half (gpu_hybrid.cpp) decides directions and exchanges;
// device_impl.hpp is built twice from one source, for CUDA (nvcc) and for the CPU (Thrust's
// OpenMP system).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bfs/engines/device_common.hpp"

namespace g500::gpu_hybrid {

using device::Candidate;
using device::HostGraph;

// What a level found on this rank.
struct Found {
  std::int64_t discovered = 0;
  std::int64_t discovered_edges = 0;  // the sum of their degrees: the next frontier's edges
};

// Frontier edges a top-down round expands at most, so that a round's candidate buffers stay
// bounded (device_bytes counts them): a sixteenth of a rank's mean arcs, within fixed bounds.
// Every rank runs as many rounds as the busiest.
inline double top_down_round(double arcs_per_rank) {
  constexpr double kFewest = 1 << 16, kMost = 1 << 22;
  return arcs_per_rank / 16 < kFewest ? kFewest : arcs_per_rank / 16 > kMost ? kMost : arcs_per_rank / 16;
}

template <class Id>
class Device {
 public:
  virtual ~Device() = default;
  // A new search: every parent unset; `root` (global id) found with itself as parent where this
  // rank owns it. Returns its degree there, else 0.
  virtual std::int64_t start(std::int64_t root) = 0;

  // A top-down step. What the last level found becomes the frontier queue; returns its edges,
  // which rounds of expand() take in pieces [first, last) of at most kTopDownRound.
  virtual std::int64_t begin_top_down() = 0;
  // Frontier edges [first, last): neighbours this rank owns are claimed on the spot; the others
  // become candidates, one per vertex, sorted by vertex (so grouped by owner), send_counts[r] of
  // them for rank r. Returns how many candidates.
  virtual std::int64_t expand(std::int64_t first, std::int64_t last, std::vector<std::int64_t>& send_counts) = 0;
  virtual const Candidate<Id>* candidates() const = 0;  // device memory
  virtual void candidates_to_host(Candidate<Id>* out, std::int64_t count) const = 0;
  // Room in device memory for n arriving candidates, or n copied there from host memory.
  virtual Candidate<Id>* receive_buffer(std::int64_t n) = 0;
  virtual void receive_from_host(const Candidate<Id>* in, std::int64_t n) = 0;
  // The n arrived candidates claim their vertices (unreached ones only, one parent each).
  virtual void claim_received(std::int64_t n) = 0;

  // A bottom-up step. What the last level found becomes this rank's words of the frontier bitmap
  // (all N bits; the other ranks' words are filled by the exchange): the whole bitmap, in device
  // memory, and this rank's slice copied to or from the host when exchanges are staged.
  virtual std::uint64_t* begin_bottom_up() = 0;
  virtual void frontier_words_to_host(std::uint64_t* out, std::int64_t first_word, std::int64_t words) const = 0;
  virtual void frontier_from_host(const std::uint64_t* in, std::int64_t words) = 0;
  // Every unreached local vertex looks through its row for a neighbour in the frontier and stops
  // at the first. Returns the adjacency entries looked at.
  virtual std::int64_t bottom_up() = 0;

  // What this level found (either direction).
  virtual Found end_level() = 0;
  // This rank's parents (global ids, -1 unreached) into the host array.
  virtual void parents_to_host(std::span<std::int64_t> out) const = 0;
};

// Device memory the graph, a search's state and a top-down round's buffers need (`arcs_per_rank`:
// the ranks' mean, which sets the round).
double device_bytes(double local_vertices, double local_arcs, double all_vertices, int id_bytes, int ranks,
                    double arcs_per_rank);

// Uploads the graph; null, with `too_big` set, when it does not fit the device's free memory.
template <class Id>
std::unique_ptr<Device<Id>> make_device(const HostGraph<Id>& graph, std::int64_t num_vertices, double arcs_per_rank,
                                        std::string& too_big);

}  // namespace g500::gpu_hybrid
