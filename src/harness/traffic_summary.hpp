#pragma once
// Traffic for the report: each rank counts its own (mpi/traffic.hpp); these collectives sum the
// per-level counts over ranks, gather every rank's phase totals and, when asked, the source x
// destination matrix of kernel 2. They run outside the timed work.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bfs/level_profile.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// One rank's traffic by phase of the run.
struct PhaseTraffic {
  mpi::TrafficCounts construction;  // kernel 1
  mpi::TrafficCounts search;        // kernel 2: the timed searches only
  mpi::TrafficCounts validation;    // of both kernels
  mpi::TrafficCounts sssp;          // kernel 3: the timed searches only
};

struct TrafficSummary {
  int ranks = 1;
  PhaseTraffic totals;  // summed over ranks, with distinct_peers the most any rank had
  std::int64_t busiest_search_bytes = 0;  // the most kernel-2 bytes one rank sent
  std::vector<PhaseTraffic> per_rank;     // each rank's; empty beyond kMaxRanksListed ranks
  int nodes = 1;  // the nodes the ranks are on (each operation's bytes_between_nodes are to other nodes)
  std::vector<std::int64_t> matrix;  // kernel 2 bytes, [source * P + destination]; empty unless asked
};

// Collective. Replaces each level's traffic (this rank's) by its sum over ranks, with
// distinct_peers the most any rank had, and fills max_rank_bytes_sent.
void reduce_level_traffic(const mpi::Comm& comm, SearchProfile& profile);

// --comm-matrix gathers the P x P matrix (8 P^2 bytes) onto every rank: refused above this many
// ranks, where it would take more than a GiB.
inline constexpr int kMaxCommMatrixRanks = 11585;
// Throws UserError, one line, for --comm-matrix on more ranks than that.
void check_comm_matrix_fits(int ranks);

// Collective: the phases' totals over ranks by reduction, every rank's own up to `max_listed`
// ranks (so that no rank holds O(P) of them past that), and the matrix from each rank's kernel-2
// bytes per peer when asked.
TrafficSummary gather_traffic(const mpi::Comm& comm, const PhaseTraffic& mine,
                              const std::vector<std::int64_t>& search_peer_bytes, bool with_matrix,
                              int max_listed = kMaxRanksListed);

// The sum over ranks of one phase.
mpi::TrafficCounts total(const TrafficSummary& summary, mpi::TrafficCounts PhaseTraffic::*phase);

nlohmann::json to_json(const mpi::TrafficCounts& counts);
nlohmann::json to_json(const TrafficSummary& summary);

// One line for stderr: kernel 2's traffic over all ranks.
std::string traffic_line(const TrafficSummary& summary, std::size_t searches);

}  // namespace g500
