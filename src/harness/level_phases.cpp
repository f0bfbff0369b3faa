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

RankTotals gather_rank_totals(const mpi::Comm& comm, const SearchProfile& profile) {
  constexpr int kWork = static_cast<int>(std::size(kWorkFields));
  // This rank's compute, then its work counts, summed over the levels.
  std::vector<double> sum(1 + kWork, 0.0);
  RankTotals totals;
  for (const LevelRecord& l : profile) {
    sum[0] += l.phases.compute;
    for (int f = 0; f < kWork; ++f) sum[1 + f] += static_cast<double>(l.work.*kWorkFields[f].second);
    totals.critical_path += l.rank_phases.max.compute;
  }
  if (comm.size() <= kMaxRanksListed) {
    const mpi::Counts counts(comm.size(), 1 + kWork);
    std::vector<double> all(sum.size() * comm.size());
    comm.allgatherv<double>(sum, all.data(), counts, mpi::Comm::displacements(counts));
    for (auto at = all.begin(); at != all.end(); at += 1 + kWork) totals.per_rank.emplace_back(at, at + 1 + kWork);
  }
  std::vector<double> most = sum;
  comm.allreduce_inplace<double>(sum, mpi::Op::sum);
  comm.allreduce_inplace<double>(most, mpi::Op::max);
  totals.compute = {sum[0] / comm.size(), most[0]};
  for (int f = 0; f < kWork; ++f) totals.work[f] = {sum[1 + f] / comm.size(), most[1 + f]};
  return totals;
}

}  // namespace g500
