// mpi::Comm: sub-communicators keep their identity when moved, and the traffic counters match
// byte counts worked out by hand for small exchanges.
#include <gtest/gtest.h>

#include <optional>
#include <random>

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
  mpi::Counts counts(p, me + 1);
  counts[me] = 5;
  std::vector<Item> send(static_cast<std::size_t>(me + 1) * (p - 1) + 5), recv;
  mpi::TrafficTally tally;
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  tally.start(before);
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
  // The counts travel first: a 64-bit count and the sender's total to each other rank.
  EXPECT_EQ(c.op(OpKind::alltoall).bytes_sent, 16 * (p - 1));
  EXPECT_EQ(c.distinct_peers, p - 1);
  tally.stop(after);
  const std::vector<std::int64_t> peers = tally.peer_bytes();
  for (int d = 0; d < p; ++d) EXPECT_EQ(peers[d], d == me ? 0 : 16 * (me + 1) + 16) << d;
}

TEST(Traffic, TallyAndSnapshotsSeeOnlyTheirStretches) {
  // A tally's stretches alternate with traffic of its own (validation between searches), and a
  // level's snapshots nest inside a stretch: each counts its own peers and bytes only.
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  if (p < 3) GTEST_SKIP() << "needs 3 ranks";
  const int next = (me + 1) % p, previous = (me + p - 1) % p;
  auto ring = [&](int to, int from, std::size_t items) {
    std::vector<std::int64_t> out(items, me), in(items);
    world.sendrecv(std::span<const std::int64_t>(out), to, std::span<std::int64_t>(in), from);
  };
  mpi::TrafficTally tally;
  ring(next, previous, 3);  // before any stretch
  tally.start(mpi::traffic().snapshot());
  const mpi::TrafficSnapshot level = mpi::traffic().snapshot();
  ring(next, previous, 2);
  EXPECT_EQ(mpi::traffic().snapshot().since(level).distinct_peers, 1);
  tally.stop(mpi::traffic().snapshot());
  ring(previous, next, 5);  // between stretches
  tally.start(mpi::traffic().snapshot());
  const mpi::TrafficSnapshot quiet = mpi::traffic().snapshot();
  EXPECT_EQ(mpi::traffic().snapshot().since(quiet).distinct_peers, 0);
  ring(next, previous, 1);
  tally.stop(mpi::traffic().snapshot());
  for (int d = 0; d < p; ++d) EXPECT_EQ(tally.peer_bytes()[d], d == next ? 24 : 0) << d;
  EXPECT_EQ(tally.counts().distinct_peers, 1);
  EXPECT_EQ(tally.counts().op(OpKind::point_to_point).calls, 2);
  EXPECT_EQ(tally.counts().op(OpKind::point_to_point).bytes_received, 24);
}

// The peers sent to since any snapshot, and each peer's bytes, as a list of every send would give
// them, while sends to one peer repeat within and across the intervals between snapshots (the list
// moves a peer only once an interval), and now and then a send goes to every peer at once.
TEST(Traffic, PeersSinceAnySnapshotAsEverySendSays) {
  constexpr int kPeers = 37, kMe = 5;
  mpi::TrafficCounters counters(kPeers, kMe);
  std::mt19937 rng(7);
  std::vector<std::int64_t> last_send(kPeers, -1);  // each peer's latest send, by send number
  std::vector<std::int64_t> bytes(kPeers, 0);
  std::vector<mpi::TrafficSnapshot> snapshots;
  std::vector<std::int64_t> sends_before;  // sends before each snapshot
  std::int64_t sends = 0;
  for (int step = 0; step < 3000; ++step) {
    if (rng() % 8 == 0) {
      snapshots.push_back(counters.snapshot());
      sends_before.push_back(sends);
    } else if (rng() % 40 == 0) {
      counters.to_every_peer(3);
      for (int r = 0; r < kPeers; ++r)
        if (r != kMe) {
          last_send[r] = sends;
          bytes[r] += 3;
        }
      ++sends;
    } else {
      const int peer = static_cast<int>(rng() % (rng() % 2 ? 4 : kPeers));  // a few peers often
      if (peer == kMe) continue;
      counters.to_peer(peer, 8);
      bytes[peer] += 8;
      last_send[peer] = sends++;
    }
    if (step % 97 != 0) continue;
    for (int r = 0; r < kPeers; ++r) ASSERT_EQ(counters.peer_bytes(r), bytes[r]) << "step " << step;
    for (std::size_t k = 0; k < snapshots.size(); k += 1 + snapshots.size() / 16) {
      std::int64_t expected = 0;
      for (int r = 0; r < kPeers; ++r) expected += last_send[r] >= sends_before[k];
      ASSERT_EQ(counters.snapshot().since(snapshots[k]).distinct_peers, expected) << "step " << step << " since " << k;
    }
  }
}

TEST(Traffic, CollectivesCountTheirPayload) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  std::vector<std::int64_t> values(10, me);
  world.allreduce_inplace<std::int64_t>(values, mpi::Op::sum);
  // Rank r contributes r + 1 doubles to an allgatherv.
  mpi::Counts counts(p), displs;
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

// A gather's messages received are the other ranks with items, its bytes theirs: here the even
// ranks contribute 2 items, the odd ones none, this rank's own not counted.
TEST(Traffic, GatherCountsOnlyOtherRanksWithItems) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  mpi::Counts counts(p);
  for (int r = 0; r < p; ++r) counts[r] = r % 2 == 0 ? 2 : 0;
  const mpi::Counts displs = mpi::Comm::displacements(counts);
  std::vector<std::int64_t> mine(static_cast<std::size_t>(counts[me]), me);
  std::vector<std::int64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  world.allgatherv<std::int64_t>(mine, all.data(), counts, displs);
  const mpi::TrafficCounts c = mpi::traffic().snapshot().since(before);
  const std::int64_t even_others = (p + 1) / 2 - (me % 2 == 0 ? 1 : 0);
  EXPECT_EQ(c.op(OpKind::allgather).messages_received, even_others);
  EXPECT_EQ(c.op(OpKind::allgather).bytes_received, 16 * even_others);
  EXPECT_EQ(c.op(OpKind::allgather).messages_sent, me % 2 == 0 ? p - 1 : 0);
  for (int r = 0; r < p; r += 2) EXPECT_EQ(all[static_cast<std::size_t>(displs[r])], r);
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

// With MPI's per-call limit forced down to 3 items, every collective whose counts or displacements
// pass it runs in chunks, and gives the same result as in one call.
TEST(Comm, CollectivesPastTheCountLimitRunInChunks) {
  const mpi::Comm world = mpi::Comm::world();
  const int p = world.size(), me = world.rank();
  struct Forced {
    Forced() { mpi::set_count_limit(3); }
    ~Forced() { mpi::set_count_limit(0); }
  } forced;
  // allgatherv, out of place and in place: rank r holds r + 2 items.
  mpi::Counts counts(p);
  for (int r = 0; r < p; ++r) counts[r] = r + 2;
  const mpi::Counts displs = mpi::Comm::displacements(counts);
  const std::int64_t total = displs.back() + counts.back();
  const auto item = [](std::int64_t k) { return 1000 + 3 * k; };
  std::vector<std::int64_t> mine(counts[me]);
  for (std::int64_t k = 0; k < counts[me]; ++k) mine[k] = item(displs[me] + k);
  std::vector<std::int64_t> all(total, -1), in_place(total, -1);
  world.allgatherv<std::int64_t>(mine, all.data(), counts, displs);
  std::copy(mine.begin(), mine.end(), in_place.begin() + displs[me]);
  world.allgatherv_inplace<std::int64_t>(in_place.data(), counts, displs);
  for (std::int64_t k = 0; k < total; ++k) {
    ASSERT_EQ(all[k], item(k)) << k;
    ASSERT_EQ(in_place[k], item(k)) << k;
  }
  // reduce_scatter: every rank adds (rank + 1) * k at position k; rank r gets its block's sums.
  std::vector<std::int64_t> values(total), sums(counts[me]);
  for (std::int64_t k = 0; k < total; ++k) values[k] = (me + 1) * k;
  world.reduce_scatter<std::int64_t>(values, sums, counts, mpi::Op::sum);
  for (std::int64_t k = 0; k < counts[me]; ++k) ASSERT_EQ(sums[k], static_cast<std::int64_t>(p) * (p + 1) / 2 * (displs[me] + k));
  // alltoallv, blocking and not: rank s sends (s + d) % 4 + 2 items to rank d, each naming both.
  mpi::Counts send_counts(p);
  std::vector<std::int64_t> send;
  for (int d = 0; d < p; ++d) {
    send_counts[d] = (me + d) % 4 + 2;
    for (std::int64_t k = 0; k < send_counts[d]; ++k) send.push_back(1000000 * me + 1000 * d + k);
  }
  std::vector<std::int64_t> got;
  const mpi::Counts recv_counts = world.alltoallv_into<std::int64_t>(send, send_counts, got);
  std::vector<std::int64_t> later(got.size(), -1);
  const mpi::Counts send_displs = mpi::Comm::displacements(send_counts), recv_displs = mpi::Comm::displacements(recv_counts);
  mpi::Request request;
  world.ialltoallv_raw<std::int64_t>(send.data(), send_counts, send_displs, later.data(), recv_counts, recv_displs, request);
  request.wait();
  std::size_t at = 0;
  for (int s = 0; s < p; ++s) {
    ASSERT_EQ(recv_counts[s], (s + me) % 4 + 2);
    for (std::int64_t k = 0; k < recv_counts[s]; ++k, ++at) {
      ASSERT_EQ(got[at], 1000000 * s + 1000 * me + k) << "from " << s;
      ASSERT_EQ(later[at], got[at]);
    }
  }
  EXPECT_EQ(at, got.size());
  // The exchange patterns above them too: owner buckets.
  exchange::OwnerBuckets<std::int64_t> buckets(p, 1, "test.chunked_items");
  for (int d = 0; d < p; ++d)
    for (int k = 0; k < 5; ++k) buckets.push(0, d, 100 * me + k);
  std::vector<std::int64_t> arrived;
  buckets.exchange(world, arrived);
  ASSERT_EQ(static_cast<int>(arrived.size()), 5 * p);
  for (int s = 0; s < p; ++s)
    for (int k = 0; k < 5; ++k) EXPECT_EQ(arrived[5 * s + k], 100 * s + k);
}

}  // namespace
}  // namespace g500
