// mpi::Comm: sub-communicators keep their identity when moved, and the traffic counters match
// byte counts worked out by hand for small exchanges.
#include <gtest/gtest.h>

#include <optional>

#include "exchange/owner_buckets.hpp"
#include "mpi/comm.hpp"

namespace g500 {
namespace {

using mpi::OpKind;

TEST(Comm, SplitAndMoveKeepRankAndSize) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  std::vector<mpi::Comm> comms;
  // Evens and odds, ordered backwards by key.
  comms.push_back(world.split(me % 2, -me));
  comms.push_back(world.split_shared());
  std::optional<mpi::Comm> moved;
  moved.emplace(std::move(comms[0]));
  const int mine = (p - me % 2 + 1) / 2;  // ranks with my parity
  EXPECT_EQ(moved->size(), mine);
  // Key -me: the highest world rank of my parity is rank 0, and world_rank maps back.
  int expect_rank = 0;
  for (int r = me + 2; r < p; r += 2) ++expect_rank;
  EXPECT_EQ(moved->rank(), expect_rank);
  EXPECT_EQ(moved->world_rank(moved->rank()), me);
  EXPECT_EQ(moved->allreduce(1, mpi::Op::sum), mine);
  EXPECT_EQ(comms[1].size(), p);  // one machine: every rank shares the node
}

// Rank r sends r + 1 items of 16 bytes to every other rank (and some to itself, never counted).
TEST(Traffic, AlltoallvCountsMatchHandCountedBytes) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  struct Item {
    std::int64_t a, b;
  };
  std::vector<int> counts(p, me + 1);
  counts[me] = 5;
  std::vector<Item> send(static_cast<std::size_t>(me + 1) * (p - 1) + 5), recv;
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  world.alltoallv_into<Item>(send, counts, recv);
  const mpi::TrafficSnapshot after = mpi::traffic().snapshot();
  const mpi::TrafficCounts c = after.since(before);
  std::int64_t from_others = 0;
  for (int s = 0; s < p; ++s)
    if (s != me) from_others += 16 * (s + 1);
  EXPECT_EQ(c.op(OpKind::alltoallv).calls, 1);
  EXPECT_EQ(c.op(OpKind::alltoallv).bytes_sent, 16 * (me + 1) * (p - 1));
  EXPECT_EQ(c.op(OpKind::alltoallv).messages_sent, p - 1);
  EXPECT_EQ(c.op(OpKind::alltoallv).bytes_received, from_others);
  EXPECT_EQ(c.op(OpKind::alltoallv).messages_received, p - 1);
  // The counts travel first: one int to each other rank.
  EXPECT_EQ(c.op(OpKind::alltoall).bytes_sent, 4 * (p - 1));
  EXPECT_EQ(c.distinct_peers, p - 1);
  const std::vector<std::int64_t> peers = after.peer_bytes_since(before);
  for (int d = 0; d < p; ++d) EXPECT_EQ(peers[d], d == me ? 0 : 16 * (me + 1) + 4) << d;
}

TEST(Traffic, CollectivesCountTheirPayload) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  std::vector<std::int64_t> values(10, me);
  world.allreduce_inplace<std::int64_t>(values, mpi::Op::sum);
  // Rank r contributes r + 1 doubles to an allgatherv.
  std::vector<int> counts(p), displs;
  for (int r = 0; r < p; ++r) counts[r] = r + 1;
  displs = mpi::Comm::displacements(counts);
  std::vector<double> mine(me + 1, 1.0), all(static_cast<std::size_t>(p) * (p + 1) / 2);
  world.allgatherv<double>(mine, all.data(), counts, displs);
  std::vector<std::int32_t> from_root(6, 7);
  world.broadcast<std::int32_t>(from_root, 0);
  world.barrier();
  const mpi::TrafficCounts c = mpi::traffic().snapshot().since(before);
  const std::int64_t others = p - 1;
  EXPECT_EQ(c.op(OpKind::allreduce).calls, 1);
  EXPECT_EQ(c.op(OpKind::allreduce).bytes_sent, p > 1 ? 80 : 0);
  EXPECT_EQ(c.op(OpKind::allgather).bytes_sent, 8 * (me + 1) * others);
  EXPECT_EQ(c.op(OpKind::allgather).bytes_received, 8 * (static_cast<std::int64_t>(p) * (p + 1) / 2 - (me + 1)));
  EXPECT_EQ(c.op(OpKind::broadcast).bytes_sent, me == 0 ? 24 * others : 0);
  EXPECT_EQ(c.op(OpKind::broadcast).bytes_received, me == 0 ? 0 : 24);
  EXPECT_EQ(c.op(OpKind::barrier).calls, 1);
  EXPECT_EQ(c.op(OpKind::point_to_point).calls, 0);
}

// An exchange pattern adds its logical count: the items that left the rank.
TEST(Traffic, OwnerBucketsCountItemsSentToOthers) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size();
  exchange::OwnerBuckets<std::int64_t> buckets(p, 1, "test.owner_bucket_items");
  for (int d = 0; d < p; ++d)
    for (int k = 0; k < 3; ++k) buckets.push(0, d, k);
  std::vector<std::int64_t> got;
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  buckets.exchange(world, got);
  const mpi::TrafficCounts c = mpi::traffic().snapshot().since(before);
  ASSERT_EQ(c.logical.count("test.owner_bucket_items"), 1u);
  EXPECT_EQ(c.logical.at("test.owner_bucket_items").calls, 1);
  EXPECT_EQ(c.logical.at("test.owner_bucket_items").items, 3 * (p - 1));
  EXPECT_EQ(c.op(OpKind::alltoallv).bytes_sent, 8 * 3 * (p - 1));
}

}  // namespace
}  // namespace g500
