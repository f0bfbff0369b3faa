#pragma once
// `g500 plan`: what a run would need on a machine not yet asked for, from the same estimate a run
// refuses by (harness/memory_check.hpp): each phase's bytes a rank, the engine --bfs auto would
// pick, and the largest SCALE whose peak fits the nodes' memory, with the validation batch that
// fits it. A site runs it on a login node, without MPI ranks to spare.
#include <cstdint>
#include <iosfwd>
#include <optional>

#include "bfs/bfs_options.hpp"
#include "harness/run_options.hpp"

namespace g500 {

struct PlanOptions {
  std::int64_t nodes = 1;
  int ranks_per_node = 1;
  int threads_per_rank = 1;
  double memory_per_node = 0;  // bytes
  // A GPU machine (--gpus-per-node, --gpu-memory): one rank a GPU, and a GPU engine's device
  // memory must fit one GPU's. 0: a CPU machine.
  int gpus_per_node = 0;
  double gpu_memory = 0;       // bytes a GPU
  std::optional<int> scale;    // also this SCALE's phases
  int edgefactor = 16;
  BfsOptions bfs;
  KernelChoice kernels;
};

// Bytes from "32GiB", "512 GiB", "24GB", "1.5T", "4096MiB" or a plain number of bytes (decimal,
// at least 1 byte): K, M, G, T, P with or without "iB" are powers of 1024, "KB", "MB", "GB", "TB",
// "PB" powers of 1000. Throws UserError.
// `flag` names the option in the error.
double parse_memory_size(const std::string& text, const std::string& flag = "--memory-per-node");

void print_plan(std::ostream& out, const PlanOptions& plan);

}  // namespace g500
