#pragma once
// What one BFS level did: global counts (identical on every rank), rank 0's wall time, the traffic
// of the level and where each rank's time went (this rank's while searching; summed or gathered
// over ranks by the harness afterwards).
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mpi/traffic.hpp"

namespace g500 {

enum class Direction { top_down, bottom_up };

inline const char* to_string(Direction d) { return d == Direction::top_down ? "top-down" : "bottom-up"; }

// Where one rank's time went in a level (seconds); an engine fills the phases it has.
struct PhaseTimes {
  double compute = 0;    // the step's own work (the level's time less the phases below)
  double send_wait = 0;  // asynchronous sends: waiting for an earlier send to the same rank
  double poll = 0;       // asynchronous sends: after its own, waiting for the other ranks to end
  double exchange = 0;   // collective exchanges (alltoallv, allgather)
  double allreduce = 0;  // the allreduce that closes the level
};

// Each phase by name, in one order, for whatever lists, packs or writes them.
inline constexpr std::pair<const char*, double PhaseTimes::*> kPhaseFields[] = {
    {"compute", &PhaseTimes::compute}, {"send_wait", &PhaseTimes::send_wait}, {"poll", &PhaseTimes::poll},
    {"exchange", &PhaseTimes::exchange}, {"allreduce", &PhaseTimes::allreduce}};

// The phases of a level over all ranks: their extremes and mean, and every rank's when the run
// has few enough ranks to list them.
struct PhaseSummary {
  PhaseTimes min, mean, max;
  std::vector<PhaseTimes> per_rank;  // empty beyond kMaxRanksListed ranks
};

// Ranks up to which each level keeps every rank's phase times.
inline constexpr int kMaxRanksListed = 256;

// What one rank did in a level, counted rather than timed, so that a rank's work can be compared
// across rank counts and grids where one box's clock says nothing (docs/scale.md).
struct WorkCounts {
  std::int64_t words_swept = 0;        // bitmap words a bottom-up scan went over
  std::int64_t first_entry_tries = 0;  // unvisited vertices whose row's first entry was tried
  std::int64_t edges_examined = 0;     // adjacency entries looked at (first entries included)
  std::int64_t mpi_calls = 0;          // MPI operations this rank called
};

// Each work count by name, in one order, for whatever sums, packs or writes them.
inline constexpr std::pair<const char*, std::int64_t WorkCounts::*> kWorkFields[] = {
    {"words_swept", &WorkCounts::words_swept},
    {"first_entry_tries", &WorkCounts::first_entry_tries},
    {"edges_examined", &WorkCounts::edges_examined},
    {"mpi_calls", &WorkCounts::mpi_calls}};

struct LevelRecord {
  int level = 0;
  Direction direction = Direction::top_down;
  std::int64_t frontier_vertices = 0;  // vertices in the frontier this level expands
  std::int64_t frontier_edges = 0;     // sum of their degrees
  std::int64_t discovered = 0;         // vertices that joined the tree at this level
  std::int64_t edges_examined = 0;     // adjacency entries looked at
  double seconds = 0;
  mpi::TrafficCounts traffic;          // calls, messages, bytes by operation kind; logical counts
  std::int64_t max_rank_bytes_sent = 0;  // the busiest rank's bytes sent (after the harness's sum)
  PhaseTimes phases;                     // this rank's
  WorkCounts work;                       // this rank's
  std::map<std::string, double> steps;   // an engine's own step times (seconds, this rank's)
  PhaseSummary rank_phases;              // over all ranks, made by the harness after the search
};

using SearchProfile = std::vector<LevelRecord>;

// A search's totals over all ranks: each rank's sum over the levels, then the mean rank's and the
// largest. Compute also has its critical path: the sum over levels of each level's slowest rank,
// which is what the levels' closing allreduces make every rank wait for.
struct RankTotals {
  struct Spread {
    double mean = 0, max = 0;
  };
  Spread compute;  // seconds
  double critical_path = 0;
  Spread work[std::size(kWorkFields)];  // by kWorkFields
  // Up to kMaxRanksListed ranks, each rank's: its compute, then its work counts.
  std::vector<std::vector<double>> per_rank;
};

}  // namespace g500
