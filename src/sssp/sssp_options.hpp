#pragma once
// How kernel 3 runs (--delta, --sssp-fusion, --sssp-heavy, --sssp-whole-rows, --sssp-tail,
// --sssp-prune): a plain header, so the harness's options hold it as it is.

#include <cstdint>
#include <stdexcept>

#include "core/id_width.hpp"

namespace g500 {

// The default bucket width. The reference code's 0.1 relaxes light edges round after round in the
// one dense bucket; 0.01, with heavy edges pulled, measured faster (docs/tuning.md).
inline constexpr float kDefaultDelta = 0.01f;

// How a bucket's heavy edges are relaxed: pushed along the settled vertices' rows, pulled by the
// unsettled vertices from a replicated copy of the bucket (sssp/bucket_copy.hpp), or chosen per
// bucket by which costs less (push when its edges are fewer than kPullEdgesPerUnsettled a vertex
// still unsettled).
enum class HeavyDirection { automatic, push, pull };

// Bucket fusion (Zhang et al., CGO 2020): a rank keeps relaxing its own vertices that fall back
// into the current bucket before the round's exchange, instead of waiting a global round each.
// Automatic fuses on one rank only: with several, the others wait in the exchange while one fuses,
// which measured slower than not fusing (docs/tuning.md, docs/sssp.md).
enum class Fusion { automatic, on, off };

// Whole rows: a vertex's heavy edges relaxed with its light ones, each time it is taken in a round,
// instead of once after its bucket. Past the densest buckets a bucket's vertices have almost no
// light edges, so the split costs a second pass over the same rows (and a second exchange) for
// nothing; a vertex whose distance drops again in its bucket relaxes its whole row again, which is
// exact but more work where light edges are many. Automatic: from the bucket after the first one
// pushed that follows a pull, once the search has passed its dense buckets.
enum class WholeRows { automatic, on, off };

// What every rank keeps of the search's finished vertices (sssp/finished_bits.hpp,
// sssp/ghost_replicas.hpp): a bit for every vertex (pruning toward any finished vertex; pulling
// possible, from a copy of each bucket on every rank, sssp/bucket_copy.hpp), bits for a bounded
// number of hubs only (pruning toward hubs; pulls by asking the owners), or the distances of the
// vertices its own rows reach, told by their owners as they settle (pruning toward any of them,
// pulling from them): O(N) work and bytes a search on every rank, O(1) bytes but more messages,
// or O(min(N, M/P)) (4 bytes more an entry). Automatic: whole while its N/8 bytes are at most
// kWholeReplicaBytes and the ranks are fewer than kHubsFromRanks, else hubs. A rank's work for the
// whole form grows with N, so with P at a fixed share: from about 256 ranks hubs cost fewer
// instructions a search, and in the scale lab they sent 0.19 of whole's bytes and searched as
// fast (docs/scale.md). Ghosts only when told: in the scale lab they sent fewer bytes than whole
// but searched slower, and they cost more instructions a search.
enum class Replicas { automatic, whole, hubs, ghosts };
inline constexpr double kWholeReplicaBytes = double(std::int64_t{64} << 20);
inline constexpr int kHubsFromRanks = 256;

// How a round's relaxations reach their owners: one MPI_Alltoallv after an alltoall of the counts
// (every rank learns every count: O(P) a round on every rank, in g500 and in MPI), or the sparse
// exchange (exchange/sparse_exchange.hpp: a message to each rank with items, then a non-blocking
// barrier), whose work a round follows the ranks reached. Automatic: sparse from
// kSparseExchangeRanks ranks.
enum class SsspExchange { automatic, alltoallv, sparse };
inline constexpr int kSparseExchangeRanks = 2;
// Under SimGrid's SMPI (the scale lab's g500-smpi) the sparse exchange hung at 16 simulated ranks
// (it completed at 4; SimGrid 3.x lacks MPI_Improbe, and with MPI_Iprobe the non-blocking barrier
// did not complete), so the lab runs the alltoallv and refuses sparse (docs/scale.md).
#ifdef G500_SMPI
inline constexpr bool kSparseExchangeRuns = false;
#else
inline constexpr bool kSparseExchangeRuns = true;
#endif

// How kernel 3 runs (--delta, --sssp-fusion, --sssp-heavy, --sssp-whole-rows, --sssp-tail,
// --sssp-prune, --sssp-replicas, --sssp-exchange).
struct SsspOptions {
  float delta = kDefaultDelta;
  Fusion fusion = Fusion::automatic;
  HeavyDirection heavy = HeavyDirection::automatic;
  WholeRows whole_rows = WholeRows::automatic;
  // Bellman-Ford for the tail (Chakaravarthy et al.): once the vertices waiting in later buckets
  // are fewer than kTailShare of those settled, they all go into one last bucket, relaxed with
  // every edge light until no distance changes, instead of a bucket (and its rounds) each.
  bool tail = true;
  // Relaxations toward vertices of buckets already finished are dropped before they are sent or
  // offered (they cannot succeed), checked in bits of those vertices on every rank
  // (sssp/finished_bits.hpp, in the form `replicas` says).
  bool prune = true;
  Replicas replicas = Replicas::automatic;
  SsspExchange exchange = SsspExchange::automatic;
  // The stored id width: --ids, one width for both kernels' graphs by design (core/id_width.hpp),
  // copied here when the run is settled, so that kernel 3 reads its own options only.
  IdWidth ids = IdWidth::automatic;
};

// --sssp-replicas made concrete for a graph of `vertices` on `ranks` ranks (harness/resolve.hpp
// settles it once a run), as Replicas says.
inline Replicas settle_replicas(Replicas asked, double vertices, int ranks) {
  if (asked != Replicas::automatic) return asked;
  return vertices / 8 <= kWholeReplicaBytes && ranks < kHubsFromRanks ? Replicas::whole : Replicas::hubs;
}

// --sssp-exchange made concrete for `ranks` ranks (harness/resolve.hpp settles it once a run).
inline SsspExchange settle_sssp_exchange(SsspExchange asked, int ranks) {
  if (asked != SsspExchange::automatic) return asked;
  return kSparseExchangeRuns && ranks >= kSparseExchangeRanks ? SsspExchange::sparse : SsspExchange::alltoallv;
}

// Settled options' form (std::logic_error when never settled).
inline Replicas replicas_form(const SsspOptions& o) {
  if (o.replicas == Replicas::automatic)
    throw std::logic_error("--sssp-replicas was not settled (harness/resolve.hpp)");
  return o.replicas;
}

}  // namespace g500
