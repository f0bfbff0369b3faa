#include "harness/level_phases.hpp"

#include <iterator>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace g500 {

namespace {

constexpr int kFields = static_cast<int>(std::size(kPhaseFields));

// The phases as an array of doubles, and back.
void unpack(const double* in, PhaseTimes& out) {
  for (int f = 0; f < kFields; ++f) out.*kPhaseFields[f].second = in[f];
}
void pack(const PhaseTimes& in, double* out) {
  for (int f = 0; f < kFields; ++f) out[f] = in.*kPhaseFields[f].second;
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
    const mpi::Counts counts(comm.size(), static_cast<std::int64_t>(mine.size()));
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
