#include "validate/bfs_validator.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "exchange/rounds.hpp"
#include "validate/failure.hpp"
#include "validate/kept_parents.hpp"
#include "validate/routed_scan.hpp"
#include "validate/tree_levels.hpp"
#include "validate/tree_edge_confirmer.hpp"
#include "validate/tree_table.hpp"
#include "validate/tuple_scan.hpp"

namespace g500 {

using validation::KeptParents;
using validation::kMaxBatch;
using validation::PackedEntry;
using validation::SlotParents;
using validation::TreeTable;
using validation::WideEntry;
using validation::find_levels;
using validation::RemoteChildren;
using validation::scan_tuples_narrowest;

namespace {

// Bytes a tuple of the scan's round takes: to its first owner and, with a row, to its second
// (buckets, sent, received), and tree-edge candidates (the same three).
double round_bytes_per_tuple(double n, int ranks) {
  const double id = fits_32_bit(static_cast<vertex_t>(std::min(n, 9.0e18))) ? 4 : 8;
  return 3 * validation::RoutedShare(ranks).bytes(2 * id, 2 * id + 16) + validation::candidate_round_bytes(id);
}

// One search alone; nullopt when its tree is deeper than an Entry holds.
template <class Entry>
std::optional<ValidationResult> validate_alone(const EdgeSource& source, const Partition1D& part,
                                               const mpi::Comm& comm, vertex_t root, std::span<const vertex_t> parents,
                                               std::int64_t chunk) {
  TreeTable<Entry> tree(part.local_count(), 1);
  RemoteChildren children(part, comm);
  Failure failure[1];
  if (!find_levels<Entry>(part, comm, root, parents, children, tree, 0, failure[0])) return std::nullopt;
  Failure agreed = agree(comm, failure[0]);
  if (agreed.rule) return ValidationResult{false, agreed.rule, agreed.message, 0};
  const SlotParents in_place[1] = {{parents.data(), nullptr}};
  const std::vector<std::int64_t> nedge = scan_tuples_narrowest(source, part, comm, tree, in_place, chunk, failure);
  return agreed_results(comm, failure, nedge).front();
}

}  // namespace

// The batch keeps packed trees (up to 14 levels); a deeper one is validated alone, at once, with
// wide entries (2 bytes, or 8 for more than 254 levels).
struct BfsBatchValidator::Impl {
  using Entry = PackedEntry;
  const EdgeSource& source;
  const Partition1D& part;
  const mpi::Comm& comm;
  int batch;
  std::int64_t chunk;
  std::optional<TreeTable<Entry>> tree;  // made at the first search, kept for the run
  std::optional<RemoteChildren> children;  // the same
  KeptParents kept;                      // the waiting searches' parents, by slot
  struct Search {
    int slot = -1;            // its trees' slot, or -1 when already decided
    ValidationResult result;  // when decided
  };
  std::vector<Search> searches;
  int slots_used = 0;

  // Rule 1 and the levels into the next slot; the search is decided at once when rule 1 fails or
  // its tree is too deep.
  void add(vertex_t root, std::span<const vertex_t> parents, bool keep) {
    if (!tree) tree.emplace(part.local_count(), batch);
    Search search;
    Failure failure;
    if (!children) children.emplace(part, comm);
    const bool fits = find_levels<Entry>(part, comm, root, parents, *children, *tree, slots_used, failure);
    const Failure agreed = agree(comm, failure);
    if (agreed.rule) {
      search.result = {false, agreed.rule, agreed.message, 0};
    } else if (!fits) {
      std::optional<ValidationResult> alone = validate_alone<WideEntry<std::uint8_t>>(source, part, comm, root, parents, chunk);
      if (!alone) alone = validate_alone<WideEntry<std::uint32_t>>(source, part, comm, root, parents, chunk);
      search.result = *alone;
    } else {
      search.slot = slots_used++;
      if (keep) kept.keep(search.slot, parents);
    }
    searches.push_back(std::move(search));
  }
};

BfsBatchValidator::BfsBatchValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                     int batch, std::int64_t chunk)
    : impl_(new Impl{source, part, comm, std::clamp(batch, 1, kMaxBatch),
                     exchange::validation_round(chunk, round_bytes_per_tuple(static_cast<double>(part.num_vertices()), comm.size()),
                                                validation::tuples_per_rank(source, comm)), std::nullopt, std::nullopt,
                     KeptParents(part.num_vertices(), part.local_count(), std::clamp(batch, 1, kMaxBatch) - 1), {}, 0}) {}

BfsBatchValidator::~BfsBatchValidator() = default;

int BfsBatchValidator::batch() const { return impl_->batch; }

int BfsBatchValidator::waiting() const { return static_cast<int>(impl_->searches.size()); }

void BfsBatchValidator::wait(vertex_t root, std::span<const vertex_t> parents) {
  if (impl_->slots_used + 1 >= impl_->batch) throw std::logic_error("BfsBatchValidator::wait: the batch is full");
  impl_->add(root, parents, true);
}

std::vector<ValidationResult> BfsBatchValidator::check(vertex_t root, std::span<const vertex_t> parents) {
  Impl& b = *impl_;
  b.add(root, parents, false);
  // Slots 0 .. used - 1 hold trees.
  const std::vector<SlotParents> slot_parents = b.kept.for_check(b.slots_used, b.searches.back().slot >= 0, parents);
  std::vector<Failure> failures(b.slots_used);
  std::vector<ValidationResult> scanned;
  if (b.slots_used > 0) {
    const std::vector<std::int64_t> nedge =
        scan_tuples_narrowest(b.source, b.part, b.comm, *b.tree, slot_parents, b.chunk, failures);
    scanned = agreed_results(b.comm, failures, nedge);
  }
  std::vector<ValidationResult> results;
  for (Impl::Search& search : b.searches) results.push_back(search.slot >= 0 ? scanned[search.slot] : search.result);
  b.searches.clear();
  b.slots_used = 0;
  return results;
}

double BfsBatchValidator::bytes(double n, double n_local, double m_local, int ranks, int batch) {
  return total_bytes(parts(n, n_local, m_local, ranks, batch));
}

std::vector<MemoryPart> BfsBatchValidator::parts(double n, double n_local, double m_local, int ranks, int batch) {
  const double parent_bytes = KeptParents::bytes_per_vertex(static_cast<vertex_t>(std::min(n, 9.0e18)));
  const double round = std::min(m_local, static_cast<double>(exchange::validation_round(exchange::kValidationRound, round_bytes_per_tuple(n, ranks), m_local)));
  const double id = fits_32_bit(static_cast<vertex_t>(std::min(n, 9.0e18))) ? 4 : 8;
  const validation::RoutedShare share(ranks);
  // Per local vertex throughout: the batch's trees, a deep tree's 2-byte entries beside them, and
  // the waiting searches' parents.
  const double trees = (batch * sizeof(Impl::Entry) + 2) * n_local, waiting = (batch - 1) * parent_bytes * n_local;
  // Then either the levels (four bitmaps, the turned-round pairs of the vertices whose parent
  // lives elsewhere) or the scan's round.
  const double levels = (4.0 / 8 + share.apart * RemoteChildren::bytes_per_remote_vertex(id)) * n_local +
                        share.apart * RemoteChildren::round_bytes(id);
  const double scan = round_bytes_per_tuple(n, ranks) * round;
  std::vector<MemoryPart> out = {{"validation: the batch's trees", trees}};
  if (waiting > 0) out.push_back({"validation: the waiting searches' parents", waiting});
  out.push_back(levels >= scan ? MemoryPart{"validation: levels' bitmaps, remote children", levels}
                               : MemoryPart{"validation: a round of tuples checked", scan});
  return out;
}

namespace {

class BfsTreeValidator final : public SearchValidator {
 public:
  BfsTreeValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, int batch,
                   std::span<const vertex_t> parents)
      : batch_(source, part, comm, batch), parents_(parents) {}
  int batch() const override { return batch_.batch(); }
  void wait(vertex_t root) override { batch_.wait(root, parents_); }
  std::vector<ValidationResult> check(vertex_t root) override { return batch_.check(root, parents_); }

 private:
  BfsBatchValidator batch_;
  std::span<const vertex_t> parents_;
};

}  // namespace

std::unique_ptr<SearchValidator> bfs_tree_validator(const EdgeSource& source, const Partition1D& part,
                                                    const mpi::Comm& comm, int batch,
                                                    std::span<const vertex_t> parents) {
  return std::make_unique<BfsTreeValidator>(source, part, comm, batch, parents);
}

ValidationResult validate_bfs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                              std::span<const vertex_t> parents, std::int64_t chunk) {
  return BfsBatchValidator(source, part, comm, 1, chunk).check(root, parents).front();
}

std::vector<std::int32_t> tree_depths(const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                                      std::span<const vertex_t> parents) {
  using Entry = WideEntry<std::uint32_t>;
  Failure ignored;  // a broken tree leaves its detached vertices at -1
  TreeTable<Entry> tree(part.local_count(), 1);
  RemoteChildren children(part, comm);
  find_levels<Entry>(part, comm, root, parents, children, tree, 0, ignored);
  std::vector<std::int32_t> depth(part.local_count(), -1);
  for (local_t i = 0; i < part.local_count(); ++i) {
    const std::uint32_t level = tree.at(i, 0).level();
    if (level != Entry::kUnreached) depth[i] = static_cast<std::int32_t>(level);
  }
  return depth;
}

}  // namespace g500
