#pragma once
// --bfs auto: the engine the scale lab measured fastest for the run's rank count (docs/scale.md,
// "Defaults"), among the engines that read every option the user gave. The candidates are fixed
// when the command line is parsed (no MPI yet); the choice is made once the rank count is known.
#include <string>
#include <vector>

#include "bfs/option_groups.hpp"
#include "mpi/comm.hpp"

namespace g500 {

inline constexpr const char* kAutoEngine = "auto";

// From this many ranks on, with a grid no more than kAutoMaxGridAspect times as wide as tall,
// auto takes hybrid-2d (simulated: ahead of hybrid-1d at 128 and 256 ranks on both the fat tree
// and the torus, behind below; docs/scale.md).
inline constexpr int kAutoTwoDRanks = 128;
inline constexpr int kAutoMaxGridAspect = 4;

// The engines auto may choose, in its order of preference below kAutoTwoDRanks.
const std::vector<std::string>& auto_engines();

// Those of auto_engines() that read every group in `given`; empty when none does.
std::vector<std::string> engines_reading(const std::vector<const OptionGroup*>& given);

// The MPI thread level that suits every candidate.
mpi::ThreadLevel thread_level_for(const std::vector<std::string>& candidates);

// The engine auto runs: one of `candidates` (not empty), by rank count and grid shape.
std::string choose_engine(const std::vector<std::string>& candidates, int ranks, const std::string& grid);

}  // namespace g500
