#pragma once
// A rule a validator found broken on this rank, and the one all ranks report.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// A failure seen by this rank; rule 0 means none. The lowest rule number is kept.
struct Failure {
  int rule = 0;
  std::string message;
  bool wants(int r) const { return rule == 0 || r < rule; }
  void set(int r, std::string m) {
    if (wants(r)) {
      rule = r;
      message = std::move(m);
    }
  }
};

// Collective. The failure every rank reports: lowest rule number, then lowest rank.
inline Failure agree(const mpi::Comm& comm, const Failure& mine) {
  const std::int64_t none = std::numeric_limits<std::int64_t>::max();
  const std::int64_t key = mine.rule ? std::int64_t{mine.rule} * comm.size() + comm.rank() : none;
  const std::int64_t best = comm.allreduce(key, mpi::Op::min);
  if (best == none) return {};
  const int owner = static_cast<int>(best % comm.size());
  return {static_cast<int>(best / comm.size()), comm.broadcast_string(mine.message, owner)};
}

// What a validation reports for one search.
struct ValidationResult {
  bool ok = true;
  int rule = 0;          // the failed rule, 1..5
  std::string message;   // names the vertices involved
  // Input tuples (duplicates and self-loops included) whose endpoints are both in the tree: the
  // edge count behind TEPS.
  std::int64_t nedge = 0;
};

// Every search's result once the scan has run: each rule failure as all ranks report it, else the
// nedge summed over the ranks.
inline std::vector<ValidationResult> agreed_results(const mpi::Comm& comm, std::span<const Failure> failures,
                                             std::span<const std::int64_t> nedge) {
  std::vector<ValidationResult> results;
  for (std::size_t s = 0; s < failures.size(); ++s) {
    const Failure agreed = agree(comm, failures[s]);
    if (agreed.rule) results.push_back({false, agreed.rule, agreed.message, 0});
    else results.push_back({true, 0, "", comm.allreduce(nedge[s], mpi::Op::sum)});
  }
  return results;
}

// A vertex id in a message, between two kIdMark bytes, so that whoever shows the message can write
// it as the graph names the vertex (a graph file's own id) rather than as the validator knows it.
inline constexpr char kIdMark = '\x1f';
inline std::string vid(vertex_t v) {
  std::string marked(1, kIdMark);
  marked += std::to_string(v);
  marked += kIdMark;
  return marked;
}

// Rule 4's message for a tuple (u, v) with one end reached (u when in_u).
inline std::string joins_reached_to_unreached(vertex_t u, vertex_t v, bool in_u) {
  return "edge (" + vid(u) + ", " + vid(v) + ") joins reached vertex " + vid(in_u ? u : v) + " to unreached vertex " +
         vid(in_u ? v : u);
}

// What each thread of a scan found for each search of a batch (its first failure, its count of
// tuples with both ends reached), summed once the scan ends.
class BatchTally {
 public:
  BatchTally(int threads, int slots)
      : slots_(slots), failure_(static_cast<std::size_t>(threads) * slots), nedge_(failure_.size(), 0) {}
  Failure& failure(int t, int s) { return failure_[static_cast<std::size_t>(t) * slots_ + s]; }
  std::int64_t& nedge(int t, int s) { return nedge_[static_cast<std::size_t>(t) * slots_ + s]; }
  // Every thread's failure added to failures[s]; returns each search's count over the threads.
  std::vector<std::int64_t> sum(std::span<Failure> failures) const {
    std::vector<std::int64_t> nedge(slots_, 0);
    for (std::size_t at = 0; at < failure_.size(); ++at) {
      const int s = static_cast<int>(at % slots_);
      nedge[s] += nedge_[at];
      if (failure_[at].rule) failures[s].set(failure_[at].rule, failure_[at].message);
    }
    return nedge;
  }

 private:
  int slots_;
  std::vector<Failure> failure_;     // [thread * slots + search]
  std::vector<std::int64_t> nedge_;  // the same
};

}  // namespace g500
