#include "harness/level_phases.hpp"

#include <stdexcept>
#include <vector>

namespace g500 {

void gather_level_phases(const mpi::Comm& comm, SearchProfile& profile) {
  const int levels = static_cast<int>(profile.size());
  const std::vector<int> counts = comm.allgather(levels);
  for (int c : counts)
    if (c != levels) throw std::logic_error("ranks recorded different numbers of levels");
  std::vector<PhaseTimes> mine(levels);
  for (int l = 0; l < levels; ++l) mine[l] = profile[l].phases;
  std::vector<PhaseTimes> all(static_cast<std::size_t>(levels) * comm.size());
  comm.allgatherv<PhaseTimes>(mine, all.data(), counts, mpi::Comm::displacements(counts));
  for (int l = 0; l < levels; ++l) {
    profile[l].rank_phases.resize(comm.size());
    for (int r = 0; r < comm.size(); ++r) profile[l].rank_phases[r] = all[static_cast<std::size_t>(r) * levels + l];
  }
}

}  // namespace g500
