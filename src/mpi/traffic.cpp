#include "mpi/traffic.hpp"

#include <algorithm>

namespace g500::mpi {

const char* to_string(OpKind kind) {
  switch (kind) {
    case OpKind::alltoall: return "alltoall";
    case OpKind::alltoallv: return "alltoallv";
    case OpKind::allgather: return "allgather";
    case OpKind::allreduce: return "allreduce";
    case OpKind::broadcast: return "broadcast";
    case OpKind::point_to_point: return "point_to_point";
    case OpKind::barrier: return "barrier";
  }
  return "?";
}

std::int64_t TrafficCounts::bytes_sent() const {
  std::int64_t total = 0;
  for (const OpTraffic& t : ops) total += t.bytes_sent;
  return total;
}

std::int64_t TrafficCounts::bytes_between_nodes() const {
  std::int64_t total = 0;
  for (const OpTraffic& t : ops) total += t.bytes_between_nodes;
  return total;
}

std::int64_t TrafficCounts::messages_sent() const {
  std::int64_t total = 0;
  for (const OpTraffic& t : ops) total += t.messages_sent;
  return total;
}

std::int64_t TrafficCounts::calls() const {
  std::int64_t total = 0;
  for (const OpTraffic& t : ops) total += t.calls;
  return total;
}

void TrafficCounts::add(const TrafficCounts& other) {
  for (int k = 0; k < kOpKinds; ++k) {
    OpTraffic& a = ops[k];
    const OpTraffic& b = other.ops[k];
    a = {a.calls + b.calls, a.messages_sent + b.messages_sent, a.bytes_sent + b.bytes_sent,
         a.messages_received + b.messages_received, a.bytes_received + b.bytes_received,
         a.bytes_between_nodes + b.bytes_between_nodes};
  }
  distinct_peers = std::max(distinct_peers, other.distinct_peers);
  for (const auto& [name, l] : other.logical) {
    LogicalCount& t = logical[name];
    t.calls += l.calls;
    t.items += l.items;
  }
}

void TrafficCounters::move_to_front(int r) {
  if (r == latest_) return;
  if (newer_[r] >= 0) older_[newer_[r]] = older_[r];  // out of its place, if it has one
  if (older_[r] >= 0) newer_[older_[r]] = newer_[r];
  older_[r] = latest_;
  newer_[r] = -1;
  if (latest_ >= 0) newer_[latest_] = r;
  latest_ = r;
}

void TrafficTally::start(const TrafficSnapshot& now) {
  const TrafficCounters& c = *now.source;
  if (seen_.empty()) {
    seen_.assign(c.world_size(), 0);
    peer_bytes_.assign(c.world_size(), 0);
  }
  c.for_peers_since(caught_up_, [&](int r) { seen_[r] = c.peer_bytes(r); });
  caught_up_ = now.clock;
  start_ = now;
}

void TrafficTally::stop(const TrafficSnapshot& now) {
  sum_.add(now.since(start_));
  const TrafficCounters& c = *now.source;
  c.for_peers_since(caught_up_, [&](int r) {
    peer_bytes_[r] += c.peer_bytes(r) - seen_[r];
    seen_[r] = c.peer_bytes(r);
  });
  caught_up_ = now.clock;
}

TrafficCounts TrafficTally::counts() const {
  TrafficCounts c = sum_;
  c.distinct_peers = 0;
  for (std::int64_t b : peer_bytes_) c.distinct_peers += b != 0;
  return c;
}

TrafficCounts TrafficSnapshot::since(const TrafficSnapshot& earlier) const {
  TrafficCounts d;
  for (int k = 0; k < kOpKinds; ++k) {
    const OpTraffic &now = counts.ops[k], &then = earlier.counts.ops[k];
    d.ops[k] = {now.calls - then.calls, now.messages_sent - then.messages_sent, now.bytes_sent - then.bytes_sent,
                now.messages_received - then.messages_received, now.bytes_received - then.bytes_received,
                now.bytes_between_nodes - then.bytes_between_nodes};
  }
  for (const auto& [name, now] : counts.logical) {
    const auto it = earlier.counts.logical.find(name);
    const LogicalCount then = it == earlier.counts.logical.end() ? LogicalCount{} : it->second;
    if (now.calls != then.calls) d.logical[name] = {now.calls - then.calls, now.items - then.items};
  }
  // Only sends of some bytes enter the list (to_peer).
  if (source) d.distinct_peers = source->peers_since(earlier.clock);
  return d;
}

}  // namespace g500::mpi
