#pragma once
// What one run of the harness is asked to do, as the command line (src/app) fills it in.
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "io/graph_file.hpp"

#include "bfs/bfs_options.hpp"
#include "exchange/bucket_layout.hpp"
#include "sssp/sssp_options.hpp"

namespace g500 {

// Which kernels run, each over the same roots with its own timed loop: BFS (kernel 2) and SSSP
// (kernel 3, delta-stepping with buckets of width delta, sssp/delta_stepping.hpp). Each
// kernel's searches are validated `validation_batch` at a time, with one pass over the tuples.
struct KernelChoice {
  bool bfs = true;
  bool sssp = false;
  SsspOptions sssp_options;  // --delta, --sssp-* (sssp/sssp_options.hpp)
  int validation_batch = 16;
};

struct RunOptions {
  int scale = 20;
  int edgefactor = 16;
  std::uint64_t seed = 1;
  int roots = 64;
  std::vector<vertex_t> root_ids;  // --root, as the graph names its vertices (empty: chosen by seed)
  std::string roots_file;          // --roots-file: more of them
  std::string input_path;             // a graph file instead of the generator (empty: generate)
  std::string input_format = "auto";  // auto (by extension), binary, edgelist, mtx
  std::string input_weights;          // a binary edge file's weights (empty: none)
  Relabel relabel = Relabel::automatic;  // --relabel: renumber a graph file's ids 0..N-1
  BfsOptions bfs;
  KernelChoice kernels;
  bool skip_validation = false;
  std::string json_path;     // empty: no JSON
  std::string output_path;   // --output: every search's tree (empty: none)
  bool output_binary = false;  // --output-format binary
  bool comm_matrix = false;  // the source x destination bytes of kernel 2 in the JSON
  bool measure_row_codes = false;  // --measure-row-codes: the rows' compressed size in the JSON
  bool reference_stats = false;  // --stats-style reference: the statistics as reference 3.0 spells them
  double energy_loop_seconds = 0;  // --energy-loop: each kernel's searches repeated this long after its run
  bool quiet = false;
  bool inject_fault = false;  // testing aid: break every tree before validation
  exchange::BucketLayout owner_buckets = exchange::BucketLayout::automatic;  // --owner-buckets
};

struct GenerateOptions {
  int scale = 20;
  int edgefactor = 16;
  std::uint64_t seed = 1;
  std::string output;
  std::string weights_output;  // empty: no weights file
  bool quiet = false;
};

}  // namespace g500
