#pragma once
// The options of the BFS engines, one struct per option group. A group is registered, checked and
// written to JSON in one place (bfs/option_groups.cpp); an engine's registry row names the groups
// it reads. A plain header (no CLI or JSON library) so any engine, CUDA ones too, can include it.
#include <string>

namespace g500 {

// Beamer's direction switching (group "direction").
struct DirectionOptions {
  double alpha = 15.0;  // top-down -> bottom-up when frontier edges > unexplored edges / alpha
  double beta = 18.0;   // bottom-up -> top-down when the frontier shrinks below N / beta
};

// Bottom-up steps (group "bottom-up").
struct BottomUpOptions {
  int summary_granularity = 64;  // frontier bits per summary bit
};

struct BfsOptions {
  std::string engine = "hybrid-1d";
  DirectionOptions direction;
  BottomUpOptions bottom_up;
};

}  // namespace g500
