#pragma once
// What one run of the harness is asked to do, as the command line (src/app) fills it in.
#include <cstdint>
#include <string>

#include "bfs/bfs_options.hpp"

namespace g500 {

struct RunOptions {
  int scale = 20;
  int edgefactor = 16;
  std::uint64_t seed = 1;
  int roots = 64;
  BfsOptions bfs;
  bool skip_validation = false;
  std::string json_path;     // empty: no JSON
  bool comm_matrix = false;  // the source x destination bytes of kernel 2 in the JSON
  bool quiet = false;
  bool inject_fault = false;  // testing aid: break every tree before validation
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
