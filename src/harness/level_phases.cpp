#include "harness/level_phases.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace g500 {

namespace {

constexpr int kFields = 5;

// The phases as an array of doubles, and back.
void unpack(const double* in, PhaseTimes& out) { out = {in[0], in[1], in[2], in[3], in[4]}; }
void pack(const PhaseTimes& in, double* out) {
  const double values[kFields] = {in.compute, in.send_wait, in.poll, in.exchange, in.allreduce};
  std::copy(values, values + kFields, out);
}

}  // namespace

void gather_level_phases(const mpi::Comm& comm, SearchProfile& profile) {
  const int levels = static_cast<int>(profile.size());
  if (comm.allreduce<std::int32_t>(levels, mpi::Op::max) != levels ||
      comm.allreduce<std::int32_t>(levels, mpi::Op::min) != levels) {
    throw std::logic_error("ranks recorded different numbers of levels");
  }
  std::vector<double> mine(static_cast<std::size_t>(levels) * kFields);
  for (int l = 0; l < levels; ++l) pack(profile[l].phases, mine.data() + l * kFields);
  std::vector<double> lo = mine, hi = mine, sum = mine;
  comm.allreduce_inplace<double>(lo, mpi::Op::min);
  comm.allreduce_inplace<double>(hi, mpi::Op::max);
  comm.allreduce_inplace<double>(sum, mpi::Op::sum);
  for (double& v : sum) v /= comm.size();
  std::vector<double> all;
  if (comm.size() <= kMaxRanksListed) {
    all.resize(mine.size() * comm.size());
    const std::vector<int> counts(comm.size(), static_cast<int>(mine.size()));
    comm.allgatherv<double>(mine, all.data(), counts, mpi::Comm::displacements(counts));
  }
  const int listed = all.empty() ? 0 : comm.size();
  for (int l = 0; l < levels; ++l) {
    PhaseSummary& s = profile[l].rank_phases;
    unpack(lo.data() + l * kFields, s.min);
    unpack(sum.data() + l * kFields, s.mean);
    unpack(hi.data() + l * kFields, s.max);
    s.per_rank.clear();
    for (int r = 0; r < listed; ++r) {
      s.per_rank.emplace_back();
      unpack(all.data() + (static_cast<std::size_t>(r) * levels + l) * kFields, s.per_rank.back());
    }
  }
}

}  // namespace g500
