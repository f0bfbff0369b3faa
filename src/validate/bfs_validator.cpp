#include "validate/bfs_validator.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "validate/failure.hpp"
#include "validate/kept_parents.hpp"
#include "validate/tree_table.hpp"
#include "validate/tuple_scan.hpp"

namespace g500 {

using validation::KeptParents;
using validation::kMaxBatch;
using validation::PackedEntry;
using validation::SlotParents;
using validation::TreeTable;
using validation::WideEntry;
using validation::replicate_tree;
using validation::scan_tuples_narrowest;

namespace {

// One search alone; nullopt when its tree is deeper than an Entry holds.
template <class Entry>
std::optional<ValidationResult> validate_alone(const EdgeSource& source, const Partition1D& part,
                                               const mpi::Comm& comm, vertex_t root, std::span<const vertex_t> parents,
                                               std::int64_t chunk) {
  TreeTable<Entry> tree(part.num_vertices(), 1);
  Failure failure[1];
  if (!replicate_tree<Entry>(part, comm, root, parents, tree, 0, failure[0])) return std::nullopt;
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
    if (!tree) tree.emplace(part.num_vertices(), batch);
    Search search;
    Failure failure;
    const bool fits = replicate_tree<Entry>(part, comm, root, parents, *tree, slots_used, failure);
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
    : impl_(new Impl{source, part, comm, std::clamp(batch, 1, kMaxBatch), chunk, std::nullopt,
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

double BfsBatchValidator::extra_bytes(double n, double n_local, int batch) {
  const double parent_bytes = KeptParents::bytes_per_vertex(static_cast<vertex_t>(std::min(n, 9.0e18)));
  return std::max(0, batch - 1) * (sizeof(Impl::Entry) * n + parent_bytes * n_local);
}

ValidationResult validate_bfs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                              std::span<const vertex_t> parents, std::int64_t chunk) {
  return BfsBatchValidator(source, part, comm, 1, chunk).check(root, parents).front();
}

std::vector<std::int32_t> tree_depths(const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                                      std::span<const vertex_t> parents) {
  using Entry = WideEntry<std::uint32_t>;
  Failure ignored;  // a broken tree leaves its detached vertices at -1
  TreeTable<Entry> tree(part.num_vertices(), 1);
  replicate_tree<Entry>(part, comm, root, parents, tree, 0, ignored);
  std::vector<std::int32_t> depth(part.local_count(), -1);
  for (local_t i = 0; i < part.local_count(); ++i) {
    const std::uint32_t level = tree.at(part.to_global(i), 0).level();
    if (level != Entry::kUnreached) depth[i] = static_cast<std::int32_t>(level);
  }
  return depth;
}

}  // namespace g500
