#include "validate/sssp_validator.hpp"

#include "validate/tree_edge_confirmer.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "validate/distance_scan.hpp"
#include "validate/kept_parents.hpp"
#include "validate/routed_scan.hpp"
#include "validate/tree_edge_confirmer.hpp"
#include "validate/tuple_scan.hpp"

namespace g500 {

using validation::DistanceScan;
using validation::DistanceTable;
using validation::KeptParents;
using validation::kMaxBatch;
using validation::SlotParents;

namespace {

// Bytes a tuple of the scan's round takes: with its weight to its first owner and, with a row of
// distances, to its second (buckets, sent, received); tree-edge candidates (the same three; a
// tuple is tight in a search about once in 16 on Graph500 graphs).
double round_bytes_per_tuple(double n, int ranks) {
  const double id = fits_32_bit(static_cast<vertex_t>(std::min(n, 9.0e18))) ? 4 : 8;
  const double tuple = 2 * id + 4;
  return 3 * validation::RoutedShare(ranks).bytes(tuple, tuple + sizeof(DistanceTable::Row)) +
         validation::candidate_round_bytes(id);
}

std::string distance(float d) { return std::to_string(d); }

// Rule 1 on this rank's vertices.
void check_roots_and_ranges(const Partition1D& part, vertex_t root, std::span<const vertex_t> parents,
                            std::span<const float> dist, Failure& failure) {
  for (local_t i = 0; i < part.local_count(); ++i) {
    const vertex_t v = part.to_global(i), p = parents[i];
    const bool finite = std::isfinite(dist[i]);
    if (p != kNoParent && (p < 0 || p >= part.num_vertices())) {
      failure.set(1, "vertex " + vid(v) + " has parent " + vid(p) + ", not a vertex id");
    } else if ((p != kNoParent) != finite) {
      failure.set(1, "vertex " + vid(v) + " has parent " + vid(p) + " but distance " + distance(dist[i]));
    } else if (v == root && (p != root || dist[i] != 0.0f)) {
      failure.set(1, "the root " + vid(root) + " has parent " + vid(p) + " and distance " + distance(dist[i]) +
                         ", not itself and 0");
    } else if (finite && dist[i] < 0) {
      failure.set(1, "vertex " + vid(v) + " has a negative distance " + distance(dist[i]));
    }
  }
  if (part.owns(root) && parents[part.to_local(root)] == kNoParent) {
    failure.set(1, "the root " + vid(root) + " was not reached");
  }
}

}  // namespace

struct SsspBatchValidator::Impl {
  const EdgeSource& source;
  const Partition1D& part;
  const mpi::Comm& comm;
  int batch;
  std::int64_t chunk;
  std::optional<DistanceTable> table;  // made at the first search, kept for the run
  KeptParents kept;                    // the waiting searches' parents, by slot
  struct Search {
    int slot = -1;            // its slot in the table, or -1 when rule 1 already decided it
    ValidationResult result;  // when decided
  };
  std::vector<Search> searches;
  std::vector<vertex_t> slot_roots;  // by slot

  void add(vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist, bool keep) {
    if (!table) table.emplace(part.local_count(), batch);
    Search search;
    Failure failure;
    check_roots_and_ranges(part, root, parents, dist, failure);
    const Failure agreed = agree(comm, failure);
    if (agreed.rule) {
      search.result = {false, agreed.rule, agreed.message, 0};
    } else {
      search.slot = static_cast<int>(slot_roots.size());
      slot_roots.push_back(root);
      table->fill(search.slot, dist);
      if (keep) kept.keep(search.slot, parents);
    }
    searches.push_back(std::move(search));
  }
};

SsspBatchValidator::SsspBatchValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                       int batch, std::int64_t chunk)
    : impl_(new Impl{source, part, comm, std::clamp(batch, 1, kMaxBatch),
                     exchange::validation_round(
                         chunk, round_bytes_per_tuple(static_cast<double>(part.num_vertices()), comm.size()),
                         validation::tuples_per_rank(source, comm)),
                     std::nullopt,
                     KeptParents(part.num_vertices(), part.local_count(), std::clamp(batch, 1, kMaxBatch) - 1), {}, {}}) {
  if (!source.has_weights()) throw std::logic_error("SSSP validation needs an edge source with weights");
}

SsspBatchValidator::~SsspBatchValidator() = default;

int SsspBatchValidator::batch() const { return impl_->batch; }

void SsspBatchValidator::wait(vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist) {
  if (static_cast<int>(impl_->slot_roots.size()) + 1 >= impl_->batch)
    throw std::logic_error("SsspBatchValidator::wait: the batch is full");
  impl_->add(root, parents, dist, true);
}

std::vector<ValidationResult> SsspBatchValidator::check(vertex_t root, std::span<const vertex_t> parents,
                                                        std::span<const float> dist) {
  Impl& b = *impl_;
  b.add(root, parents, dist, false);
  const int used = static_cast<int>(b.slot_roots.size());
  const std::vector<SlotParents> slot_parents = b.kept.for_check(used, b.searches.back().slot >= 0, parents);
  std::vector<Failure> failures(used);
  std::vector<ValidationResult> scanned;
  if (used > 0) {
    const std::vector<std::int64_t> nedge =
        fits_32_bit(b.part.num_vertices())
            ? DistanceScan<std::uint32_t>(b.part, b.comm, *b.table, slot_parents, b.slot_roots).run(b.source, b.chunk, failures)
            : DistanceScan<vertex_t>(b.part, b.comm, *b.table, slot_parents, b.slot_roots).run(b.source, b.chunk, failures);
    scanned = agreed_results(b.comm, failures, nedge);
  }
  std::vector<ValidationResult> results;
  for (Impl::Search& search : b.searches) results.push_back(search.slot >= 0 ? scanned[search.slot] : search.result);
  b.searches.clear();
  b.slot_roots.clear();
  return results;
}

double SsspBatchValidator::held_bytes(double n, double n_local, int batch) {
  const double parent_bytes = KeptParents::bytes_per_vertex(static_cast<vertex_t>(std::min(n, 9.0e18)));
  // Per local vertex: the distances, the waiting searches' parents, a confirmation bitmap a search.
  const double per_vertex = 4.0 * batch + (batch - 1) * parent_bytes + batch / 8.0;
  return per_vertex * n_local + 4.0 * DistanceTable::kLanes;
}

double SsspBatchValidator::bytes(double n, double n_local, double m_local, int ranks, int batch) {
  const double round =
      std::min(m_local, static_cast<double>(exchange::validation_round(exchange::kValidationRound, round_bytes_per_tuple(n, ranks), m_local)));
  return held_bytes(n, n_local, batch) + round_bytes_per_tuple(n, ranks) * round;
}

namespace {

class SsspTreeValidator final : public SearchValidator {
 public:
  SsspTreeValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, int batch,
                    std::span<const vertex_t> parents, std::span<const float> dist)
      : batch_(source, part, comm, batch), parents_(parents), dist_(dist) {}
  int batch() const override { return batch_.batch(); }
  void wait(vertex_t root) override { batch_.wait(root, parents_, dist_); }
  std::vector<ValidationResult> check(vertex_t root) override { return batch_.check(root, parents_, dist_); }

 private:
  SsspBatchValidator batch_;
  std::span<const vertex_t> parents_;
  std::span<const float> dist_;
};

}  // namespace

std::unique_ptr<SearchValidator> sssp_tree_validator(const EdgeSource& source, const Partition1D& part,
                                                     const mpi::Comm& comm, int batch,
                                                     std::span<const vertex_t> parents, std::span<const float> dist) {
  return std::make_unique<SsspTreeValidator>(source, part, comm, batch, parents, dist);
}

ValidationResult validate_sssp(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                               vertex_t root, std::span<const vertex_t> parents, std::span<const float> dist,
                               std::int64_t chunk) {
  return SsspBatchValidator(source, part, comm, 1, chunk).check(root, parents, dist).front();
}

}  // namespace g500
