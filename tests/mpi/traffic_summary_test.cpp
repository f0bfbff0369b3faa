// The traffic summary (harness/traffic_summary.hpp): totals come by reduction, so that past the
// listing limit no rank holds every rank's counts, and they equal the sums of the listed ranks'.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/traffic_summary.hpp"
#include "mpi/comm.hpp"

namespace g500 {
namespace {

// A rank's made-up counts, different on every rank, with a logical counter some ranks lack.
PhaseTraffic counts_of(int rank) {
  PhaseTraffic t;
  t.search.ops[0] = {rank + 1, 2 * rank, 100 * (rank + 1), rank, 50 * rank, 10 * rank};
  t.search.distinct_peers = rank % 3;
  t.validation.ops[2] = {1, rank, 7 * rank, rank, 7 * rank, 0};
  t.search.logical["test.items"] = {rank + 1, 1000 * rank};
  t.construction.logical["test.items"] = {1, rank};
  return t;
}

TEST(TrafficSummary, TotalsByReductionEqualTheListedRanksSums) {
  const mpi::Comm world = mpi::Comm::world();
  const PhaseTraffic mine = counts_of(world.rank());
  const TrafficSummary listed = gather_traffic(world, mine, {}, false);
  const TrafficSummary unlisted = gather_traffic(world, mine, {}, false, /*max_listed=*/0);
  ASSERT_EQ(static_cast<int>(listed.per_rank.size()), world.size());
  EXPECT_TRUE(unlisted.per_rank.empty());
  EXPECT_EQ(unlisted.ranks, world.size());
  // The listed ranks' counts added up as TrafficCounts::add does.
  PhaseTraffic sum;
  std::int64_t busiest = 0;
  for (const PhaseTraffic& r : listed.per_rank) {
    sum.construction.add(r.construction);
    sum.search.add(r.search);
    sum.validation.add(r.validation);
    sum.sssp.add(r.sssp);
    busiest = std::max(busiest, r.search.bytes_sent());
  }
  for (mpi::TrafficCounts PhaseTraffic::*phase :
       {&PhaseTraffic::construction, &PhaseTraffic::search, &PhaseTraffic::validation, &PhaseTraffic::sssp}) {
    EXPECT_EQ(to_json(total(unlisted, phase)), to_json(sum.*phase));
    EXPECT_EQ(to_json(total(listed, phase)), to_json(sum.*phase));
  }
  EXPECT_EQ(unlisted.busiest_search_bytes, busiest);
  EXPECT_EQ(total(unlisted, &PhaseTraffic::search).logical.at("test.items").items,
            1000LL * world.size() * (world.size() - 1) / 2);
  EXPECT_EQ(to_json(unlisted).at("per_rank").size(), 0u);
}

}  // namespace
}  // namespace g500
