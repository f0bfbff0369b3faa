#pragma once
// Traffic counters: every call that moves data between ranks goes through mpi::Comm, which records
// it here, so no engine counts its own traffic and none can escape the count.
//
// What a byte means: payload bytes this rank sends to or receives from OTHER ranks (its own share
// of an exchange never leaves it), counted at the level of the operation, not of the algorithm the
// MPI library picks for it:
//   - alltoall(v), point-to-point: exactly what goes to and comes from each peer;
//   - allgather(v): this rank's part goes to each of the other ranks, and their parts come in;
//   - allreduce: the payload goes out once and the result comes in once;
//   - broadcast: the root sends the payload to each other rank, the others receive it once.
// Messages are the non-empty transfers among those; per-peer bytes (the source x destination
// matrix, and the distinct peers) are kept for the operations that name their peers (alltoall(v),
// allgather(v), point-to-point). Exchange patterns add logical counts (items, questions) by name.
//
// Counters are per process and not thread-safe: MPI calls come from one thread at a time.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace g500::mpi {

enum class OpKind { alltoall, alltoallv, allgather, allreduce, broadcast, point_to_point, barrier };
inline constexpr int kOpKinds = 7;
const char* to_string(OpKind kind);

struct OpTraffic {
  std::int64_t calls = 0;
  std::int64_t messages_sent = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t messages_received = 0;
  std::int64_t bytes_received = 0;
  std::int64_t bytes_between_nodes = 0;  // of bytes_sent, to ranks of other nodes (set_nodes)
};

// A logical count of an exchange pattern: how often it ran and how many items it moved.
// Patterns are collective and count on every rank, so every rank holds the same names.
struct LogicalCount {
  std::int64_t calls = 0;
  std::int64_t items = 0;
};

// Counts of one stretch of work (a level, a phase, a run).
struct TrafficCounts {
  std::array<OpTraffic, kOpKinds> ops{};
  std::map<std::string, LogicalCount> logical;
  std::int64_t distinct_peers = 0;  // peers this rank sent bytes to

  const OpTraffic& op(OpKind k) const { return ops[static_cast<int>(k)]; }
  // Adds another stretch's counts; distinct peers become the larger of the two (the peers of a
  // union are not known from counts alone: TrafficTally knows them).
  void add(const TrafficCounts& other);
  std::int64_t bytes_sent() const;
  std::int64_t bytes_between_nodes() const;
  std::int64_t messages_sent() const;
  std::int64_t calls() const;
};

class TrafficCounters;

// A point in time of one process's counters; the difference of two is the work between them. It
// holds no per-peer table: the peers sent to since a snapshot are read from the counters' list of
// peers by latest send, in time proportional to them (a level's snapshot costs no O(P) copy).
struct TrafficSnapshot {
  TrafficCounts counts;
  std::uint64_t clock = 0;  // the counters' send clock when taken
  const TrafficCounters* source = nullptr;

  // Counts since `earlier`, with the peers sent to since then. Exact when this is a snapshot of
  // the counters as they are now (a peer's latest send is all the list keeps).
  TrafficCounts since(const TrafficSnapshot& earlier) const;
};

// Builds with -DG500_NO_TRAFFIC_COUNTERS count nothing: only to measure what counting costs.
#ifdef G500_NO_TRAFFIC_COUNTERS
inline constexpr bool kCountTraffic = false;
#else
inline constexpr bool kCountTraffic = true;
#endif

class TrafficCounters {
 public:
  explicit TrafficCounters(int world_size, int my_rank = 0)
      : my_rank_(my_rank),
        peer_bytes_(world_size, 0),
        sent_at_(world_size, 0),
        newer_(world_size, -1),
        older_(world_size, -1),
        node_of_(world_size, 0),
        my_node_(0) {}

  // Which node each world rank is on (and this rank's), so bytes between nodes count apart.
  void set_nodes(std::vector<int> node_of_rank, int my_rank) {
    node_of_ = std::move(node_of_rank);
    my_rank_ = my_rank;
    my_node_ = node_of_[my_rank];
    off_node_ = 0;
    for (const int n : node_of_) off_node_ += n != my_node_;
  }

  // An operation's counts; the bytes to_peer saw since the last record() are its own.
  void record(OpKind kind, std::int64_t messages_sent, std::int64_t bytes_sent, std::int64_t messages_received,
              std::int64_t bytes_received) {
    OpTraffic& t = counts_.ops[static_cast<int>(kind)];
    ++t.calls;
    t.messages_sent += messages_sent;
    t.bytes_sent += bytes_sent;
    t.messages_received += messages_received;
    t.bytes_received += bytes_received;
    t.bytes_between_nodes += pending_between_;
    pending_between_ = 0;
  }
  // Bytes of the operation about to be recorded that go to `world_rank`.
  void to_peer(int world_rank, std::int64_t bytes) {
    if constexpr (kCountTraffic) {
      if (bytes == 0) return;
      peer_bytes_[world_rank] += bytes;
      if (node_of_[world_rank] != my_node_) pending_between_ += bytes;
      const bool in_latest_run = sent_at_[world_rank] > snapshot_clock_;
      sent_at_[world_rank] = ++clock_;
      if (!in_latest_run) move_to_front(world_rank);
    }
  }
  // The same bytes to every other rank of the world (an allgather's part, a uniform alltoall, a
  // broadcast's root): O(1), where a to_peer for each would make every such call O(P) here.
  void to_every_peer(std::int64_t bytes) {
    if constexpr (kCountTraffic) {
      if (bytes == 0 || world_size() == 1) return;
      every_peer_bytes_ += bytes;
      pending_between_ += bytes * off_node_;
      every_peer_at_ = ++clock_;
    }
  }
  void add_logical(const char* name, std::int64_t n) {
    if constexpr (kCountTraffic) {
      LogicalCount& c = counts_.logical[name];
      ++c.calls;
      c.items += n;
    }
  }

  TrafficSnapshot snapshot() const {
    snapshot_clock_ = clock_;
    return {counts_, clock_, this};
  }
  int world_size() const { return static_cast<int>(peer_bytes_.size()); }
  // Bytes sent to `world_rank` so far.
  std::int64_t peer_bytes(int world_rank) const {
    return peer_bytes_[world_rank] + (world_rank == my_rank_ ? 0 : every_peer_bytes_);
  }
  // f(peer) for each peer sent to after send clock `clock`, a snapshot's (the later first, by
  // the snapshots between them; every other rank, in rank order, when a send to every peer came
  // after it).
  template <class F>
  void for_peers_since(std::uint64_t clock, F&& f) const {
    if (every_peer_at_ > clock) {
      for (int r = 0; r < world_size(); ++r)
        if (r != my_rank_) f(r);
      return;
    }
    for (int r = latest_; r >= 0 && sent_at_[r] > clock; r = older_[r]) f(r);
  }
  // How many peers were sent to after send clock `clock`: O(1) when every peer was.
  std::int64_t peers_since(std::uint64_t clock) const {
    if (every_peer_at_ > clock) return world_size() - 1;
    std::int64_t n = 0;
    for_peers_since(clock, [&](int) { ++n; });
    return n;
  }

 private:
  // `world_rank`, not sent to since the latest snapshot, becomes the front of the list of peers.
  void move_to_front(int world_rank);

  TrafficCounts counts_;
  int my_rank_;
  std::vector<std::int64_t> peer_bytes_;  // by to_peer (to_every_peer's are every_peer_bytes_)
  std::int64_t every_peer_bytes_ = 0;
  std::uint64_t every_peer_at_ = 0;     // the latest to_every_peer, by the send clock
  std::uint64_t clock_ = 0;             // sends to peers so far
  std::vector<std::uint64_t> sent_at_;  // each peer's latest send by that clock; 0: none yet
  std::vector<int> newer_, older_;      // the list of peers sent to, by latest send
  int latest_ = -1;
  // The latest snapshot's clock. The list holds the peers in runs, one for each interval between
  // snapshots, the latest first, in any order within a run: a peer already sent to since the
  // latest snapshot needs no move, and a query from any snapshot's clock still stops at the
  // first peer sent to before it.
  mutable std::uint64_t snapshot_clock_ = 0;
  std::vector<int> node_of_;
  int my_node_;
  std::int64_t off_node_ = 0;  // ranks on other nodes than this one
  std::int64_t pending_between_ = 0;
};

// The sum of several stretches of work (every timed search, every validation), with the distinct
// peers of all of them together.
class TrafficTally {
 public:
  void start(const TrafficSnapshot& now);
  void stop(const TrafficSnapshot& now);
  TrafficCounts counts() const;
  // Bytes sent to each world rank over all stretches (empty before the first).
  const std::vector<std::int64_t>& peer_bytes() const { return peer_bytes_; }

 private:
  TrafficSnapshot start_;
  TrafficCounts sum_;
  std::vector<std::int64_t> peer_bytes_;
  // Each peer's bytes so far as of send clock caught_up_: a stretch's bytes to a peer are the
  // counters' less these, for the peers sent to in it only.
  std::vector<std::int64_t> seen_;
  std::uint64_t caught_up_ = 0;
};

// The process's counters, made by mpi::Environment.
TrafficCounters& traffic();

}  // namespace g500::mpi
