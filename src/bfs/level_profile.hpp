#pragma once
// What one BFS level did, in global counts (identical on every rank) and rank 0's wall time.
#include <cstdint>
#include <string>
#include <vector>

namespace g500 {

enum class Direction { top_down, bottom_up };

inline const char* to_string(Direction d) { return d == Direction::top_down ? "top-down" : "bottom-up"; }

struct LevelRecord {
  int level = 0;
  Direction direction = Direction::top_down;
  std::int64_t frontier_vertices = 0;  // vertices in the frontier this level expands
  std::int64_t frontier_edges = 0;     // sum of their degrees
  std::int64_t discovered = 0;         // vertices that joined the tree at this level
  std::int64_t edges_examined = 0;     // adjacency entries looked at
  double seconds = 0;
};

using SearchProfile = std::vector<LevelRecord>;

}  // namespace g500
