#pragma once
// Every rank's phase times for each level of a search, gathered after the search (outside its
// timing), so the report can show load imbalance: who computed, who waited, and for how long.
#include "bfs/level_profile.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// Collective: fills level.rank_phases on every rank: min, mean and max by allreduce, and every
// rank's phases by allgather when there are at most kMaxRanksListed ranks.
void gather_level_phases(const mpi::Comm& comm, SearchProfile& profile);

// Collective, after gather_level_phases: the search's compute and work counts over all ranks.
RankTotals gather_rank_totals(const mpi::Comm& comm, const SearchProfile& profile);

}  // namespace g500
