#pragma once
// Beamer's direction switching (Beamer, Asanovic, Patterson, "Direction-Optimizing Breadth-First
// Search", SC 2012): go bottom-up when the frontier's edges exceed the unexplored edges / alpha; go
// back top-down once the frontier shrinks below N / beta and has fewer edges than the unexplored
// rest. It reads only global sums, so every rank takes the same direction.
#include <cstdint>

#include "bfs/bfs_options.hpp"
#include "bfs/level_profile.hpp"
#include "bfs/level_profiler.hpp"

namespace g500 {

class DirectionPolicy {
 public:
  // `total_entries`: adjacency entries of the whole graph (each undirected edge twice).
  DirectionPolicy(const DirectionOptions& options, std::int64_t num_vertices, std::int64_t total_entries)
      : options_(options), n_(num_vertices), total_entries_(total_entries) {}

  // A new search whose frontier is the root alone, with `root_degree` edges.
  void start(std::int64_t root_degree) {
    direction_ = Direction::top_down;
    frontier_vertices_ = 1;
    frontier_edges_ = root_degree;
    unexplored_edges_ = total_entries_;
    shrinking_ = false;
  }

  bool done() const { return frontier_vertices_ == 0; }
  std::int64_t frontier_vertices() const { return frontier_vertices_; }
  std::int64_t frontier_edges() const { return frontier_edges_; }
  // The last level found fewer vertices than it expanded: the search is in its tail.
  bool shrinking() const { return shrinking_; }

  // The direction of the next level.
  Direction choose() {
    if (direction_ == Direction::top_down) {
      if (frontier_edges_ > unexplored_edges_ / options_.alpha) direction_ = Direction::bottom_up;
    } else if (shrinking_ && frontier_vertices_ < n_ / options_.beta &&
               frontier_edges_ < unexplored_edges_ - frontier_edges_) {
      // Beamer's rule, and top-down must scan fewer edges (the frontier's) than bottom-up at most
      // would (the unvisited vertices'): a frontier of a few thousand hubs late in the search has
      // more edges than all the vertices still unvisited.
      direction_ = Direction::top_down;
    }
    unexplored_edges_ -= frontier_edges_;
    return direction_;
  }

  // Ends a level: the profiler sums (and records) what the step found, which becomes the frontier.
  void end_level(LevelProfiler& profiler, int level, Direction direction, const StepCounts& step) {
    const StepCounts found = profiler.end_level(level, direction, frontier_vertices_, frontier_edges_, step);
    advance(found.discovered, found.discovered_edges);
  }

  // The level found `discovered` vertices with `discovered_edges` edges: the next frontier.
  void advance(std::int64_t discovered, std::int64_t discovered_edges) {
    shrinking_ = discovered < frontier_vertices_;
    frontier_vertices_ = discovered;
    frontier_edges_ = discovered_edges;
  }

 private:
  DirectionOptions options_;
  std::int64_t n_;
  std::int64_t total_entries_;
  Direction direction_ = Direction::top_down;
  std::int64_t frontier_vertices_ = 0;
  std::int64_t frontier_edges_ = 0;
  std::int64_t unexplored_edges_ = 0;
  bool shrinking_ = false;
};

}  // namespace g500
