#include "bfs/engine_choice.hpp"

#include <algorithm>

#include "bfs/registry.hpp"
#include "partition/process_grid.hpp"

namespace g500 {

const std::vector<std::string>& auto_engines() {
  // Never destroyed, as the engine table (bfs/registry.cpp).
  static const std::vector<std::string>& engines = *new std::vector<std::string>{"hybrid-1d", "hybrid-2d"};
  return engines;
}

std::vector<std::string> engines_reading(const std::vector<const OptionGroup*>& given) {
  std::vector<std::string> out;
  for (const std::string& name : auto_engines()) {
    const std::vector<const OptionGroup*>& reads = find_engine(name).option_groups;
    const bool all = std::all_of(given.begin(), given.end(), [&](const OptionGroup* g) {
      return std::find(reads.begin(), reads.end(), g) != reads.end();
    });
    if (all) out.push_back(name);
  }
  return out;
}

mpi::ThreadLevel thread_level_for(const std::vector<std::string>& candidates) {
  mpi::ThreadLevel level = mpi::ThreadLevel::funneled;
  for (const std::string& name : candidates) level = std::max(level, find_engine(name).thread_level);
  return level;
}

std::string choose_engine(const std::vector<std::string>& candidates, int ranks, const std::string& grid) {
  if (candidates.size() == 1) return candidates.front();
  // A rank count with no square-ish factoring (a prime, twice a prime) makes a long thin grid,
  // whose row exchange is nearly all-to-all: no better than 1D, so 1D it stays.
  const GridShape shape = parse_grid(grid, ranks);
  const bool square_enough = shape.cols <= kAutoMaxGridAspect * shape.rows;
  const std::string pick = ranks >= kAutoTwoDRanks && square_enough ? "hybrid-2d" : "hybrid-1d";
  return std::find(candidates.begin(), candidates.end(), pick) != candidates.end() ? pick : candidates.front();
}

}  // namespace g500
