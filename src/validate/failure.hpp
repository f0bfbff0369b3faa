#pragma once
// A rule a validator found broken on this rank, and the one all ranks report.
#include <cstdint>
#include <limits>
#include <string>

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

inline std::string vid(vertex_t v) { return std::to_string(v); }

}  // namespace g500
