#pragma once
// Kernel 3: single-source shortest paths by distributed delta-stepping (Meyer and Sanders, 2003),
// on the 1D partition: distances fall into buckets of width delta; a bucket's light edges
// (w < delta) are relaxed round after round until no distance in the bucket changes, then its
// heavy edges once. A relaxation of a rank's own vertex is applied on the spot (an atomic step,
// sssp/labels.hpp); others (vertex, parent, distance) go to the vertex's owner in one alltoallv a
// round. Each rank keeps its waiting vertices in per-thread bins (sssp/bins.hpp), so a bucket
// costs its own vertices, not a scan of all; empty buckets are skipped. OpenMP inside each rank.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "core/bitmap.hpp"
#include "core/padded.hpp"
#include "core/types.hpp"
#include "exchange/owner_buckets.hpp"
#include "exchange/owner_query.hpp"
#include "graph/kernel_spec.hpp"
#include "graph/weighted_csr.hpp"
#include "sssp/bins.hpp"
#include "sssp/labels.hpp"
#include "sssp/pull_buffers.hpp"
#include "sssp/bucket_copy.hpp"
#include "sssp/finished_bits.hpp"
#include "sssp/ghost_replicas.hpp"
#include "sssp/sssp_options.hpp"

namespace g500 {

inline constexpr double kTailShare = 0.1;

// What one bucket took (global counts).
struct BucketRecord {
  std::int64_t bucket = 0;             // distances in [bucket * delta, (bucket + 1) * delta)
  int light_rounds = 0;                // global rounds (exchanges) of light-edge relaxations
  int fused_rounds = 0;                // local passes over the bucket's own vertices, busiest rank
  bool pulled = false;                 // heavy edges pulled (else pushed)
  bool whole_rows = false;             // heavy edges relaxed with the light ones, counted as light
  std::int64_t settled = 0;            // vertices whose final distance lies in the bucket
  std::int64_t light_relaxations = 0;  // relaxations along light edges
  std::int64_t heavy_relaxations = 0;  // and along heavy ones (pulled: entries examined)
  std::int64_t useful_relaxations = 0; // those that lowered a distance
  std::int64_t pruned_relaxations = 0; // those (pushed) toward a finished bucket's vertex, dropped unsent
  std::int64_t bytes_sent = 0;         // relaxation requests sent to other ranks
  double seconds = 0;                  // rank 0's time in the bucket
};
using SsspProfile = std::vector<BucketRecord>;

class SsspEngine {
 public:
  virtual ~SsspEngine() = default;
  // Kernel 1's SSSP part: the weighted rows. Collective.
  virtual void build(const EdgeSource& source) = 0;
  // parents as for BFS (root -> root, unreached -> -1); dist[i]: the distance of local vertex i,
  // +infinity when unreached. Appends one record per bucket to `profile` when not null. Collective;
  // UserError on every rank when a distance overflows a float.
  virtual void search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist, SsspProfile* profile) = 0;
  // Frees the buffers a search keeps for the next one (their capacity), so that what runs between
  // searches, a batch's check, has their room; the next search allocates them again.
  virtual void release_search_buffers() = 0;
};

// Column: the stored width of vertex ids, as for the BFS engines.
template <class Column>
class DeltaStepping : public SsspEngine {
 public:
  DeltaStepping(const mpi::Comm& comm, const Partition1D& part, SsspOptions options);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist, SsspProfile* profile) override;
  void release_search_buffers() override;

 private:
  struct Relaxation {
    Column vertex;
    Column parent;
    float dist;  // with the offer's flatness in its sign bit (sssp/labels.hpp)
  };
  struct Counts {
    // remote: queued for other ranks; pruned: dropped, their target's bucket being finished;
    // reached: vertices given their first distance
    std::int64_t relaxations = 0, useful = 0, remote = 0, pruned = 0, reached = 0;
    std::int64_t asked_bytes = 0;  // a pull by asking: questions to other ranks and their replies
  };
  // Buckets by multiplying (a division per vertex and scan cost more than the scan itself). A
  // distance past kLastBucket widths (a tiny delta makes that any distance at all) goes to the
  // last bucket, where every edge is light: its rounds run until no distance changes
  // (Bellman-Ford), so the distances stay exact for any delta a float holds.
  static constexpr std::int64_t kLastBucket = std::int64_t{1} << 62;
  std::int64_t bucket_of(float d) const {
    const double b = static_cast<double>(d) * per_delta_;
    return b < static_cast<double>(tail_from_) ? static_cast<std::int64_t>(b) : kLastBucket;
  }
  std::int64_t bucket_of_vertex(local_t v) const { return bucket_of(labels_.dist(v)); }
  // Vertices ahead whose rows are asked for while one is relaxed or pulls.
  static constexpr std::size_t kRowPrefetch = 8;
  std::int64_t tail_from_ = kLastBucket;  // buckets from here on are the last one (SsspOptions::tail)

  // What a bucket does, decided in one place: plan_bucket.
  struct BucketPlan {
    bool fuse = false;        // SsspOptions::fusion: own vertices relaxed again before each exchange
    bool whole_rows = false;  // SsspOptions::whole_rows: rounds relax whole rows, no heavy step
  };
  // The steps of search(), in the order it runs them.
  void start_search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist);
  BucketPlan plan_bucket(std::int64_t b) const;
  // Forgets the last bucket's members.
  void start_bucket();
  // Bucket b's waiting vertices into frontier_, each once (the threads share the lists; a vertex
  // listed twice goes to the thread that marks it first); its first sight in b makes it a member.
  void take_round(std::int64_t b, bool whole_rows);
  // Light edges (or whole rows), a global round each, until no distance in b changes. Collective.
  void relax_light(std::int64_t b, const BucketPlan& plan, BucketRecord& rec, Counts& light);
  // The heavy edges of b's newly settled vertices `fresh`, pushed or pulled (returns whether
  // pulled). Collective.
  bool relax_heavy(std::int64_t b, std::span<const local_t> fresh, Counts& heavy);
  // The bucket's record (this rank's counts) and WholeRows::automatic's measure.
  void record_bucket(BucketRecord& rec, const Counts& light, const Counts& heavy, double seconds,
                     SsspProfile* profile);
  // After a finished bucket: pruning's bits, the Bellman-Ford tail, the bins' window; returns the
  // bucket to run next (`next`, or the last one). Collective.
  std::int64_t next_bucket(std::int64_t next);
  // Labels into the caller's arrays; overflow refused, flat parents ordered. Collective.
  void finish_search(std::span<vertex_t> parents, std::span<float> dist);

  // Relaxes entries [first(u), last(u)) of each u in `from` (those of local targets at once, the
  // others queued for their owners); what improves goes to its bucket.
  template <class First, class Last>
  void relax(std::span<const local_t> from, First&& first, Last&& last, Counts& counts);
  // relax() for one form of the replicas (kGhosts: pruning reads the ghosts' distances), so that
  // the test on every entry has no branch on the form.
  template <bool kGhosts, class First, class Last>
  void relax_rows(std::span<const local_t> from, First&& first, Last&& last, Counts& counts);
  // Sends the queued relaxations and applies those that arrive. Collective.
  void exchange(Counts& counts);
  // relax() in pieces, one exchange each; `before_last_exchange` runs before the last. `entries`:
  // the entries to relax in all, this rank's. Returns the number of pieces (0: no rank had anything
  // to relax). Collective.
  template <class First, class Last>
  std::int64_t relax_in_pieces(std::span<const local_t> from, First&& first, Last&& last, std::int64_t entries,
                               Counts& counts, const std::function<void()>& before_last_exchange);
  // This rank's heavy entries of `fresh`.
  std::int64_t heavy_entries(std::span<const local_t> fresh) const;
  // Whether to pull the heavy edges of bucket b's `fresh`, this rank's newly settled vertices,
  // which hold `heavy` heavy entries. Collective.
  bool pull_heavy(std::int64_t b, std::span<const local_t> fresh, std::int64_t heavy);
  // The best offer bucket b's members make v through its heavy entries [begin, end), whose
  // lightest cannot offer less than `lowest` + w (members from the bucket's copy, or the ghosts
  // settled in b); counts the entries examined.
  struct PullOffer {
    float dist = std::numeric_limits<float>::infinity();
    vertex_t parent = -1;
    bool flat = false;
  };
  template <bool kGhosts>
  PullOffer best_pull_offer(std::int64_t b, edge_count_t begin, edge_count_t end, float lowest, float dv,
                            std::int64_t& examined) const;
  // The first pull of a search: every vertex with a heavy edge may still gain, into pull_.open.
  void list_open_vertices(int threads);
  // The heavy relaxations from bucket b's settled vertices `fresh`, pulled (sssp/heavy_pull.cpp,
  // with heavy_entries and pull_heavy): from the bucket's copy on every rank (whole replicas), from
  // the ghosts' distances (ghosts), or by asking the owners of the heavy neighbours that could still
  // offer less (hubs). Collective.
  void pull(std::int64_t b, std::span<const local_t> fresh, Counts& counts);
  // The pull's pass over the open vertices, from lowest, the bucket's nearest member, for one form
  // (kGhosts: offers from the ghosts' distances, else from the bucket's copy).
  template <bool kGhosts>
  void pull_open(std::int64_t b, float lowest, Counts& counts);
  void pull_by_asking(std::int64_t b, Counts& counts);
  // The least distance among the heavy step's `fresh` members of every rank: no member offers less
  // than it plus an edge's weight. Collective.
  float nearest_member(std::span<const local_t> fresh) const;
  // The end of v's heavy entries through which a vertex at `lowest` could offer less than dv
  // (rows ascend by weight).
  edge_count_t pull_end(local_t v, float lowest, float dv) const;
  // How many heavy entries each open vertex asks about in a pull by asking, into asks_ (by place in
  // pull_.open); returns their sum, this rank's.
  std::int64_t count_asks(std::int64_t b, float lowest);
  // Each record's counts summed over the ranks (fused rounds: the most any rank took). Collective.
  void sum_over_ranks(std::span<BucketRecord> records) const;
  // Splits `from`, holding `entries` entries, into pieces of about kRelaxRound entries each (a
  // scan of its rows only when there is more than one); returns the piece ends and the most pieces
  // any rank has (every rank exchanges once a piece). Collective.
  template <class First, class Last>
  std::int64_t pieces(std::span<const local_t> from, First&& first, Last&& last, std::int64_t entries,
                      std::vector<std::size_t>& ends);

  const mpi::Comm& comm_;
  Partition1D part_;
  SsspOptions options_;
  double per_delta_;  // 1 / delta
  WeightedCsr1D<Column> csr_;
  big_vector<std::uint32_t> light_;  // each row's light entries (weight < delta), found once at build
  Labels<Column> labels_;
  Bins bins_;
  // Each thread's part of a take: the round's vertices and the bucket's new members it found.
  struct TakeShare {
    std::vector<local_t> frontier, members;
    std::int64_t entries = 0;  // the frontier's entries to relax
  };
  std::vector<Padded<TakeShare>> shares_;
  // This rank's vertices taken in the current round, and the current bucket's members: a bit a
  // vertex (small enough to stay in cache), set as they are taken and cleared through the lists
  // that hold them.
  Bitmap in_round_, in_bucket_;
  std::int64_t remote_at_exchange_ = 0;  // Counts::remote when the queue was last sent
  exchange::OwnerBuckets<Relaxation> requests_;  // relaxations queued for each other rank
  // The sparse exchange's own communicator (SsspOptions::exchange), made when the graph is built.
  std::unique_ptr<exchange::SparseExchange<Relaxation>> sparse_;
  big_vector<Relaxation> arrived_;
  std::vector<local_t> frontier_, round_vertices_, members_;
  std::int64_t frontier_entries_ = 0;  // the entries frontier_ holds to relax, this rank's
  std::int64_t settled_here_ = 0;  // this rank's vertices settled so far in the search
  std::int64_t reached_here_ = 0;  // and those given a distance
  // This rank's vertices with an edge: pull_heavy's measure of a pull's work (the pull itself visits
  // only those with a heavy edge).
  std::int64_t with_edges_ = 0;
  Replicas form_;                  // SsspOptions::replicas, settled
  FinishedBits<Column> finished_;  // the finished buckets' vertices, or hubs (SsspOptions::prune, replicas)
  GhostReplicas<Column> ghosts_;   // or the settled distances of the vertices this rank's rows reach
  std::int64_t bucket_now_ = 0;    // the bucket being run
  bool pulled_before_ = false, past_peak_ = false;  // WholeRows::automatic's measure, this search
  PullBuffers<Column> pull_{comm_, part_};          // what the heavy step's pulls keep between buckets
};

// Entries to push per unsettled vertex above which pulling costs less: with most pushed entries
// pruned unsent, a push costs little, so pulling pays only well above one (docs/tuning.md).
inline constexpr double kPullEdgesPerUnsettled = 3.0;

std::unique_ptr<SsspEngine> make_delta_stepping(const mpi::Comm& comm, const Partition1D& part,
                                                const SsspOptions& options, bool ids_32_bit);

// Bytes per rank of the SSSP engine (not the harness's parents) while it builds its graph, what it
// keeps between searches once their buffers are released (the graph), and while it searches (the
// graph and the search's state).
EngineMemory delta_stepping_memory_bytes(double vertices, double tuples, int ranks, double id_bytes,
                                         const SsspOptions& options);

}  // namespace g500
