#pragma once
// Kernel 3: single-source shortest paths by distributed delta-stepping (Meyer and Sanders, 2003),
// as the Graph500 reference runs it, on the 1D partition: distances fall into buckets of width
// delta; a bucket's light edges (w < delta) are relaxed round after round until no distance in the
// bucket changes, then its heavy edges once. Relaxations (vertex, parent, distance) go to the
// vertex's owner in one alltoallv per round; the next bucket is the lowest one holding a vertex
// (empty buckets are skipped, where the reference steps through them). OpenMP inside each rank.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "exchange/owner_buckets.hpp"
#include "graph/weighted_csr.hpp"

namespace g500 {

// The reference code's bucket width.
inline constexpr float kDefaultDelta = 0.1f;

// What one bucket took (global counts).
struct BucketRecord {
  std::int64_t bucket = 0;             // distances in [bucket * delta, (bucket + 1) * delta)
  int light_rounds = 0;                // rounds of light-edge relaxations
  std::int64_t settled = 0;            // vertices whose final distance lies in the bucket
  std::int64_t light_relaxations = 0;  // relaxation requests along light edges
  std::int64_t heavy_relaxations = 0;  // and along heavy ones
  double seconds = 0;                  // rank 0's time in the bucket
};
using SsspProfile = std::vector<BucketRecord>;

class SsspEngine {
 public:
  virtual ~SsspEngine() = default;
  // Kernel 1's SSSP part: the weighted rows. Collective.
  virtual void build(const EdgeSource& source) = 0;
  // parents as for BFS (root -> root, unreached -> -1); dist[i]: the distance of local vertex i,
  // +infinity when unreached. Appends one record per bucket to `profile` when not null. Collective.
  virtual void search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist, SsspProfile* profile) = 0;
};

// Column: the stored width of vertex ids, as for the BFS engines.
template <class Column>
class DeltaStepping : public SsspEngine {
 public:
  DeltaStepping(const mpi::Comm& comm, const Partition1D& part, float delta);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist, SsspProfile* profile) override;

 private:
  struct Relaxation {
    Column vertex;
    Column parent;
    float dist;
  };
  // Buckets by multiplying (a division per vertex and scan cost more than the scan itself). A
  // distance past kLastBucket widths (a tiny delta makes that any distance at all) goes to the
  // last bucket, where every edge is light: its rounds run until no distance changes
  // (Bellman-Ford), so the distances stay exact for any delta a float holds.
  static constexpr std::int64_t kLastBucket = std::int64_t{1} << 62;
  std::int64_t bucket_of(float d) const {
    const double b = static_cast<double>(d) * per_delta_;
    return b < static_cast<double>(kLastBucket) ? static_cast<std::int64_t>(b) : kLastBucket;
  }
  // Relaxes entries [first(u), last(u)) of each u in `from`, applies what arrives and returns the
  // requests sent; with `requeue`, vertices whose distance drops into `bucket` go to active_.
  template <class First, class Last>
  std::int64_t relax(const std::vector<local_t>& from, First&& first, Last&& last, std::span<vertex_t> parents,
                     std::span<float> dist, std::int64_t bucket, bool requeue);

  const mpi::Comm& comm_;
  Partition1D part_;
  float delta_;
  double per_delta_;  // 1 / delta
  WeightedCsr1D<Column> csr_;
  big_vector<std::uint32_t> light_;  // each row's light entries (weight < delta), found once at build
  exchange::OwnerBuckets<Relaxation> buckets_;
  std::vector<Relaxation> arrived_;
  std::vector<local_t> active_, members_;
};

std::unique_ptr<SsspEngine> make_delta_stepping(const mpi::Comm& comm, const Partition1D& part, float delta,
                                                bool ids_32_bit);

// Peak bytes per rank of the SSSP engine's graph and search state (not the harness's parents).
std::int64_t delta_stepping_memory_bytes(double vertices, double tuples, int ranks, double id_bytes);

}  // namespace g500
