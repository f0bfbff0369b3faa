#include "harness/traffic_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace g500 {
namespace {

constexpr int kOpFields = 6;

// The numbers of a TrafficCounts in a fixed order: ops, distinct peers, logical (calls, items) by
// name. Every rank has the same logical names, so packed vectors line up across ranks.
void pack(const mpi::TrafficCounts& c, std::vector<std::int64_t>& out) {
  for (const mpi::OpTraffic& t : c.ops) {
    out.insert(out.end(),
               {t.calls, t.messages_sent, t.bytes_sent, t.messages_received, t.bytes_received, t.bytes_between_nodes});
  }
  out.push_back(c.distinct_peers);
  for (const auto& [name, l] : c.logical) out.insert(out.end(), {l.calls, l.items});
}

// Reads back what pack wrote, with `shape` giving the logical names; returns the next position.
std::size_t unpack(const std::int64_t* in, const mpi::TrafficCounts& shape, mpi::TrafficCounts& c) {
  std::size_t at = 0;
  for (mpi::OpTraffic& t : c.ops) {
    t = {in[at], in[at + 1], in[at + 2], in[at + 3], in[at + 4], in[at + 5]};
    at += kOpFields;
  }
  c.distinct_peers = in[at++];
  c.logical.clear();
  for (const auto& [name, l] : shape.logical) {
    c.logical[name] = {in[at], in[at + 1]};
    at += 2;
  }
  return at;
}

}  // namespace

void reduce_level_traffic(const mpi::Comm& comm, SearchProfile& profile) {
  std::vector<std::int64_t> sums, peaks;
  for (const LevelRecord& level : profile) {
    pack(level.traffic, sums);
    peaks.insert(peaks.end(), {level.traffic.bytes_sent(), level.traffic.distinct_peers});
  }
  comm.allreduce_inplace<std::int64_t>(sums, mpi::Op::sum);
  comm.allreduce_inplace<std::int64_t>(peaks, mpi::Op::max);
  std::size_t at = 0;
  for (std::size_t l = 0; l < profile.size(); ++l) {
    LevelRecord& level = profile[l];
    const mpi::TrafficCounts shape = level.traffic;
    at += unpack(sums.data() + at, shape, level.traffic);
    level.max_rank_bytes_sent = peaks[2 * l];
    level.traffic.distinct_peers = peaks[2 * l + 1];
  }
}

void check_comm_matrix_fits(int ranks) {
  if (ranks <= kMaxCommMatrixRanks) return;
  char gib[32];
  std::snprintf(gib, sizeof gib, "%.1f", 8.0 * ranks * ranks / (1024.0 * 1024 * 1024));
  std::string why = "--comm-matrix gathers 8 x P^2 bytes onto every rank, ";
  why += gib;
  why += " GiB at " + std::to_string(ranks) + " ranks: it runs on at most " + std::to_string(kMaxCommMatrixRanks);
  throw UserError(why);
}

namespace {

constexpr mpi::TrafficCounts PhaseTraffic::*kPhases[] = {&PhaseTraffic::construction, &PhaseTraffic::search,
                                                          &PhaseTraffic::validation, &PhaseTraffic::sssp};

// The four phases packed, and back.
std::vector<std::int64_t> pack_phases(const PhaseTraffic& t) {
  std::vector<std::int64_t> packed;
  for (const auto phase : kPhases) pack(t.*phase, packed);
  return packed;
}
void unpack_phases(const std::int64_t* in, const PhaseTraffic& shape, PhaseTraffic& out) {
  for (const auto phase : kPhases) in += unpack(in, shape.*phase, out.*phase);
}

}  // namespace

TrafficSummary gather_traffic(const mpi::Comm& comm, const PhaseTraffic& mine,
                              const std::vector<std::int64_t>& search_peer_bytes, bool with_matrix, int max_listed) {
  const std::vector<std::int64_t> packed = pack_phases(mine);
  const std::int64_t width = static_cast<std::int64_t>(packed.size());
  if (comm.allreduce(width, mpi::Op::max) != width || comm.allreduce(width, mpi::Op::min) != width) {
    throw std::logic_error("traffic counters differ in shape between ranks");
  }
  TrafficSummary summary;
  summary.ranks = comm.size();
  // Totals: every count summed, distinct peers the most any rank had (as TrafficCounts::add).
  std::vector<std::int64_t> sums = packed, most = packed;
  comm.allreduce_inplace<std::int64_t>(sums, mpi::Op::sum);
  comm.allreduce_inplace<std::int64_t>(most, mpi::Op::max);
  PhaseTraffic peaks;
  unpack_phases(sums.data(), mine, summary.totals);
  unpack_phases(most.data(), mine, peaks);
  for (const auto phase : kPhases) (summary.totals.*phase).distinct_peers = (peaks.*phase).distinct_peers;
  summary.busiest_search_bytes = comm.allreduce(mine.search.bytes_sent(), mpi::Op::max);
  if (comm.size() <= max_listed) {
    const mpi::Counts widths(comm.size(), width);
    std::vector<std::int64_t> all(static_cast<std::size_t>(width) * comm.size());
    comm.allgatherv<std::int64_t>(packed, all.data(), widths, mpi::Comm::displacements(widths));
    summary.per_rank.resize(comm.size());
    for (int r = 0; r < comm.size(); ++r)
      unpack_phases(all.data() + static_cast<std::size_t>(r) * width, mine, summary.per_rank[r]);
  }
  if (with_matrix) {
    const int p = comm.size();
    summary.matrix.resize(static_cast<std::size_t>(p) * p);
    comm.allgatherv<std::int64_t>(search_peer_bytes, summary.matrix.data(), mpi::Counts(p, p),
                                  mpi::Comm::displacements(mpi::Counts(p, p)));
  }
  return summary;
}

mpi::TrafficCounts total(const TrafficSummary& summary, mpi::TrafficCounts PhaseTraffic::*phase) {
  return summary.totals.*phase;
}

nlohmann::json to_json(const mpi::TrafficCounts& c) {
  nlohmann::json ops = nlohmann::json::object();
  for (int k = 0; k < mpi::kOpKinds; ++k) {
    const mpi::OpTraffic& t = c.ops[k];
    if (t.calls == 0) continue;
    ops[mpi::to_string(static_cast<mpi::OpKind>(k))] = {
        {"calls", t.calls}, {"messages_sent", t.messages_sent}, {"bytes_sent", t.bytes_sent},
        {"messages_received", t.messages_received}, {"bytes_received", t.bytes_received},
        {"bytes_between_nodes", t.bytes_between_nodes}};
  }
  nlohmann::json logical = nlohmann::json::object();
  for (const auto& [name, l] : c.logical) logical[name] = {{"calls", l.calls}, {"items", l.items}};
  return {{"bytes_sent", c.bytes_sent()}, {"bytes_between_nodes", c.bytes_between_nodes()}, {"messages_sent", c.messages_sent()}, {"calls", c.calls()},
          {"distinct_peers", c.distinct_peers}, {"ops", ops}, {"logical", logical}};
}

nlohmann::json to_json(const TrafficSummary& summary) {
  nlohmann::json per_rank = nlohmann::json::array();
  for (std::size_t r = 0; r < summary.per_rank.size(); ++r) {
    const PhaseTraffic& t = summary.per_rank[r];
    per_rank.push_back({{"rank", r}, {"construction", to_json(t.construction)}, {"search", to_json(t.search)},
                        {"validation", to_json(t.validation)}, {"sssp", to_json(t.sssp)}});
  }
  nlohmann::json out = {{"construction", to_json(total(summary, &PhaseTraffic::construction))},
                        {"search", to_json(total(summary, &PhaseTraffic::search))},
                        {"validation", to_json(total(summary, &PhaseTraffic::validation))},
                        {"sssp", to_json(total(summary, &PhaseTraffic::sssp))},
                        {"nodes", summary.nodes},
                        {"per_rank", per_rank}};
  if (!summary.matrix.empty()) {
    const std::size_t p = static_cast<std::size_t>(summary.ranks);
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t s = 0; s < p; ++s) {
      rows.push_back(std::vector<std::int64_t>(summary.matrix.begin() + s * p, summary.matrix.begin() + (s + 1) * p));
    }
    out["search_matrix_bytes"] = rows;
  }
  return out;
}

std::string traffic_line(const TrafficSummary& summary, std::size_t searches) {
  const mpi::TrafficCounts t = total(summary, &PhaseTraffic::search);
  const std::int64_t busiest = summary.busiest_search_bytes;
  const double per = searches ? 1.0 / static_cast<double>(searches) : 0;
  char line[256];
  std::snprintf(line, sizeof line,
                "kernel 2 traffic, all ranks: %.4g MB in %.4g messages (%.4g calls) per search; busiest rank sent "
                "%.4g MB in all, to at most %lld peers",
                static_cast<double>(t.bytes_sent()) * per / 1e6, static_cast<double>(t.messages_sent()) * per,
                static_cast<double>(t.calls()) * per, static_cast<double>(busiest) / 1e6,
                static_cast<long long>(t.distinct_peers));
  std::string out = line;
  if (summary.nodes > 1) {
    const std::int64_t between = t.bytes_between_nodes();
    std::snprintf(line, sizeof line, "; %.4g MB between its %d nodes and %.4g MB within them per search",
                  static_cast<double>(between) * per / 1e6, summary.nodes,
                  static_cast<double>(t.bytes_sent() - between) * per / 1e6);
    out += line;
  }
  return out;
}

}  // namespace g500
