// The communication patterns of src/exchange, each against what it must deliver, at any rank count.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <optional>

#include "core/error.hpp"
#include "exchange/frontier_exchange.hpp"
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

// Rank r sends r + d + 1 items to each rank d (itself too), from two threads, destinations in
// falling order (so queued items are sorted); each rank gets exactly its items, grouped by source
// rank in order, and nothing is left to send. Per-rank buckets and queues alike.
void check_delivers_every_item(exchange::BucketLayout layout) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  exchange::OwnerBuckets<Item> buckets(p, 2, "test.items", layout);
  ASSERT_EQ(buckets.queued(), layout == exchange::BucketLayout::queued);
  std::vector<Item> got;
  for (int round = 0; round < 2; ++round) {
    for (int d = p - 1; d >= 0; --d)
      for (int k = 0; k < me + d + 1; ++k) buckets.push(k % 2, d, Item{me, d, k});
    buckets.exchange(world, got);
    std::size_t at = 0;
    for (int s = 0; s < p; ++s) {
      // Thread 0's items (even k) come before thread 1's (odd k), each in push order.
      std::vector<int> want;
      for (int k = 0; k < s + me + 1; k += 2) want.push_back(k);
      for (int k = 1; k < s + me + 1; k += 2) want.push_back(k);
      for (const int k : want) {
        ASSERT_LT(at, got.size());
        EXPECT_EQ(got[at].source, s);
        EXPECT_EQ(got[at].dest, me);
        EXPECT_EQ(got[at].k, k);
        ++at;
      }
    }
    EXPECT_EQ(at, got.size());
    EXPECT_TRUE(buckets.empty());
  }
}
TEST(OwnerBuckets, DeliversEveryItemGroupedBySource) { check_delivers_every_item(exchange::BucketLayout::per_rank); }
TEST(OwnerBuckets, QueuedDeliversEveryItemGroupedBySource) {
  check_delivers_every_item(exchange::BucketLayout::queued);
}

// The sparse exchange over many rounds: in round k rank r sends to a pseudo-random third of the
// ranks (each rank's own and others' items from two threads), so ranks run ahead of one another
// and most pairs exchange nothing. Each rank gets exactly its items, its own first, then by source
// rank with each source's items in the order its threads queued them; it sent a message only to
// the ranks it had items for; with a per-call limit of 3 items, long parts travel in pieces.
void check_sparse_exchange(bool small_messages, exchange::BucketLayout layout = exchange::BucketLayout::per_rank) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  if (small_messages) mpi::set_count_limit(3);
  exchange::OwnerBuckets<Item> buckets(p, 2, "test.items", layout);
  exchange::SparseExchange<Item> sparse(world);
  const auto sends = [](int round, int s, int d) {
    return (s * 7 + d * 13 + round * 5) % 3 == 0 ? (s + d + round) % 5 + 1 : 0;
  };
  big_vector<Item> got;
  for (int round = 0; round < 12; ++round) {
    const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
    int to_others = 0;
    for (int d = p - 1; d >= 0; --d) {
      to_others += d != me && sends(round, me, d) > 0;
      for (int k = 0; k < sends(round, me, d); ++k) buckets.push(k % 2, d, Item{me, d, k});
    }
    buckets.exchange_sparse(sparse, got);
    const mpi::TrafficCounts counts = mpi::traffic().snapshot().since(before);
    EXPECT_EQ(counts.distinct_peers, to_others) << "round " << round;
    std::size_t at = 0;
    std::vector<int> sources = {me};
    for (int s = 0; s < p; ++s)
      if (s != me) sources.push_back(s);
    for (const int s : sources) {
      // Thread 0's items (even k) come before thread 1's (odd k).
      std::vector<int> want;
      for (int k = 0; k < sends(round, s, me); k += 2) want.push_back(k);
      for (int k = 1; k < sends(round, s, me); k += 2) want.push_back(k);
      for (const int k : want) {
        ASSERT_LT(at, got.size()) << "round " << round;
        EXPECT_EQ(got[at].source, s);
        EXPECT_EQ(got[at].dest, me);
        EXPECT_EQ(got[at].k, k);
        ++at;
      }
    }
    EXPECT_EQ(at, got.size()) << "round " << round;
    EXPECT_TRUE(buckets.empty());
  }
  if (small_messages) mpi::set_count_limit(0);
}
TEST(SparseExchange, DeliversEveryItemToTheRanksWithItemsOnly) { check_sparse_exchange(false); }
TEST(SparseExchange, PartsPastTheCallLimitTravelInPieces) { check_sparse_exchange(true); }
TEST(SparseExchange, QueuedItemsToTheRanksWithItemsOnly) {
  check_sparse_exchange(false, exchange::BucketLayout::queued);
}

// Through every N x M arrangement of the ranks, each rank gets exactly the items sent to it, and
// talks only to its column and its row: N + M - 2 other ranks (the paper's N + M - 1 with itself).
TEST(OwnerBuckets, RelayedDeliversEveryItemThroughRowAndColumn) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  for (int rows = 1; rows <= p; ++rows) {
    if (p % rows != 0) continue;
    const exchange::RelayGrid grid(world, {rows, p / rows});
    const auto layout = rows % 2 ? exchange::BucketLayout::per_rank : exchange::BucketLayout::queued;
    exchange::OwnerBuckets<Item> buckets(p, 2, "test.items", layout);
    std::vector<Item> got;
    for (int d = p - 1; d >= 0; --d)
      for (int k = 0; k < me + d + 1; ++k) buckets.push(k % 2, d, Item{me, d, k});
    const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
    buckets.exchange_relayed(world, grid, got, [](const Item& item) { return item.dest; });
    const mpi::TrafficCounts used = mpi::traffic().snapshot().since(before);
    EXPECT_LE(used.distinct_peers, rows + p / rows - 2) << rows << "x" << p / rows;
    std::vector<std::vector<int>> ks(p);
    for (const Item& item : got) {
      ASSERT_EQ(item.dest, me);
      ks[item.source].push_back(item.k);
    }
    for (int s = 0; s < p; ++s) {
      std::sort(ks[s].begin(), ks[s].end());
      ASSERT_EQ(static_cast<int>(ks[s].size()), s + me + 1) << "from " << s;
      for (int k = 0; k < s + me + 1; ++k) EXPECT_EQ(ks[s][k], k);
    }
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

// Each rank sets the bits of its own vertices that are multiples of 7 (then of 5, to see the two
// buffers of the shared frontier take turns); the gathered frontier is exactly those of all ranks,
// and the summary says "maybe" wherever a bit is set. The flat gather and the node-shared one with
// one node, pretend nodes of 2 ranks and of 1, leader-only and parallel allgathers.
struct Sharing {
  int ranks_per_node;  // -1: flat gather
  bool parallel;
};

void check_frontier_exchange(const Sharing& s) {
  const mpi::Comm world = mpi::Comm::world();
  const vertex_t n = 5000;
  const Partition1D part(n, world.size(), world.rank());
  if (s.ranks_per_node > 0 && world.size() % s.ranks_per_node != 0) return;
  std::optional<mpi::NodeTopology> nodes;
  if (s.ranks_per_node >= 0) nodes.emplace(world, s.ranks_per_node);
  for (int granularity : {1, 64, 256}) {
    auto gather = exchange::make_frontier_exchange(world, part, granularity, {nodes ? &*nodes : nullptr, s.parallel});
    for (int step : {7, 5, 3}) {
      const std::span<word_t> slice = gather->next_slice();
      ASSERT_EQ(static_cast<std::int64_t>(slice.size()), part.local_words());
      std::fill(slice.begin(), slice.end(), word_t{0});
      for (vertex_t v = part.begin(); v < part.end(); ++v)
        if (v % step == 0) slice[part.to_local(v) >> 6] |= word_t{1} << (part.to_local(v) & 63);
      gather->exchange();
      const exchange::FrontierView view = gather->view();
      for (vertex_t v = 0; v < n; ++v) {
        ASSERT_EQ(view.frontier.test(v), v % step == 0) << v << " step " << step << " granularity " << granularity;
        ASSERT_EQ(view.contains(v), v % step == 0) << v;
      }
    }
  }
}

TEST(FrontierExchange, FlatGatherHasEveryRanksSlice) { check_frontier_exchange({-1, false}); }
TEST(FrontierExchange, SharedOnTheRealNode) { check_frontier_exchange({0, false}); }
TEST(FrontierExchange, SharedOnPretendNodesOfTwo) { check_frontier_exchange({2, false}); }
TEST(FrontierExchange, SharedOnPretendNodesOfTwoParallel) { check_frontier_exchange({2, true}); }
TEST(FrontierExchange, SharedOnPretendNodesOfOneParallel) { check_frontier_exchange({1, true}); }

// Pretend nodes: K consecutive ranks; a K that does not divide the ranks is refused on every rank.
TEST(NodeTopology, PretendNodesAreConsecutiveBlocks) {
  const mpi::Comm world = mpi::Comm::world();
  const mpi::NodeTopology real(world, 0);
  EXPECT_EQ(real.num_nodes(), 1);  // the tests run on one machine
  EXPECT_EQ(real.local_size(), world.size());
  if (world.size() % 2 == 0) {
    const mpi::NodeTopology pairs(world, 2);
    EXPECT_EQ(pairs.num_nodes(), world.size() / 2);
    EXPECT_EQ(pairs.node_index(), world.rank() / 2);
    EXPECT_EQ(pairs.local_rank(), world.rank() % 2);
    EXPECT_TRUE(pairs.consecutive());
    EXPECT_TRUE(pairs.uniform());
    const mpi::Comm cross = pairs.cross_nodes();
    EXPECT_EQ(cross.size(), world.size() / 2);
    EXPECT_EQ(cross.rank(), world.rank() / 2);
  }
  if (world.size() > 1) {
    EXPECT_THROW(mpi::NodeTopology(world, world.size() + 1), UserError);
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
