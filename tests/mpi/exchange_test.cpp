// The communication patterns of src/exchange, each against what it must deliver, at any rank count.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "exchange/frontier_gather.hpp"
#include "exchange/owner_buckets.hpp"
#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {
namespace {

struct Item {
  int source;
  int dest;
  int k;
};

// Rank r sends r + d + 1 items to each rank d (itself too), from two threads' buckets; each rank
// gets exactly its items, grouped by source rank in order, and the buckets are empty again.
TEST(OwnerBuckets, DeliversEveryItemGroupedBySource) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  exchange::OwnerBuckets<Item> buckets(p, 2, "test.items");
  std::vector<Item> got;
  for (int round = 0; round < 2; ++round) {
    for (int d = 0; d < p; ++d)
      for (int k = 0; k < me + d + 1; ++k) buckets.push(k % 2, d, Item{me, d, k});
    buckets.exchange(world, got);
    std::size_t at = 0;
    for (int s = 0; s < p; ++s) {
      std::vector<int> ks;
      for (int k = 0; k < s + me + 1; ++k, ++at) {
        ASSERT_LT(at, got.size());
        EXPECT_EQ(got[at].source, s);
        EXPECT_EQ(got[at].dest, me);
        ks.push_back(got[at].k);
      }
      std::sort(ks.begin(), ks.end());
      for (int k = 0; k < s + me + 1; ++k) EXPECT_EQ(ks[k], k);
    }
    EXPECT_EQ(at, got.size());
    for (int t = 0; t < 2; ++t)
      for (int d = 0; d < p; ++d) EXPECT_TRUE(buckets.bucket(t, d).empty());
  }
}

// Every rank asks about every vertex (in a scrambled order, some twice); the owners answer 3v + 1
// and each reply comes back in the asking order, local questions included.
TEST(OwnerQuery, RepliesComeBackInTheAskingOrder) {
  const mpi::Comm world = mpi::Comm::world();
  const vertex_t n = 1000;
  const Partition1D part(n, world.size(), world.rank());
  exchange::OwnerQuery<vertex_t, std::int64_t, Partition1D> query(world, part);
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    std::vector<vertex_t> asked;
    for (vertex_t i = 0; i < 2 * n; ++i) asked.push_back((i * 379 + world.rank()) % n);
    std::vector<std::int64_t> replies(asked.size(), -1);
    std::int64_t answered_here = 0;
    query.ask(asked, replies, [](vertex_t v) { return v; }, [&](vertex_t v) {
      EXPECT_TRUE(part.owns(v));
#pragma omp atomic
      ++answered_here;
      return 3 * v + 1;
    });
    for (std::size_t i = 0; i < asked.size(); ++i) ASSERT_EQ(replies[i], 3 * asked[i] + 1) << i;
    // Each rank answers every question about its own block: 2 per vertex from each rank.
    EXPECT_EQ(world.allreduce(answered_here, mpi::Op::sum), 2 * n * world.size());
  }
  omp_set_num_threads(1);
}

// Each rank sets the bits of its own vertices that are multiples of 7; the gathered frontier is
// exactly those of all ranks, and the summary says "maybe" wherever a bit is set.
TEST(FrontierGather, GathersEveryRanksSlice) {
  const mpi::Comm world = mpi::Comm::world();
  const vertex_t n = 5000;
  const Partition1D part(n, world.size(), world.rank());
  for (int granularity : {1, 64, 256}) {
    exchange::FrontierGather gather(world, part, granularity);
    Bitmap local(part.local_count());
    for (vertex_t v = part.begin(); v < part.end(); ++v)
      if (v % 7 == 0) local.set(part.to_local(v));
    gather.gather(local);
    for (vertex_t v = 0; v < n; ++v) {
      ASSERT_EQ(gather.frontier().test(v), v % 7 == 0) << v;
      if (v % 7 == 0) {
        ASSERT_TRUE(gather.summary().may_contain(v));
      }
    }
  }
}

// Every rank runs as many rounds as the rank with the most items; pieces cover [0, n) in order.
TEST(InRounds, EveryRankRunsTheBusiestRanksRounds) {
  const mpi::Comm world = mpi::Comm::world();
  const std::int64_t n = 10 * world.rank() + 3, chunk = 4;
  std::int64_t rounds = 0, next = 0;
  exchange::in_rounds(world, n, chunk, [&](std::int64_t first, std::int64_t last) {
    ++rounds;
    EXPECT_EQ(first, next);
    EXPECT_LE(last - first, chunk);
    next = last;
  });
  EXPECT_EQ(next, n);
  EXPECT_EQ(rounds, (10 * (world.size() - 1) + 3 + chunk - 1) / chunk);
}

}  // namespace
}  // namespace g500
