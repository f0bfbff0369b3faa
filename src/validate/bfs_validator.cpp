#include "validate/bfs_validator.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/big_vector.hpp"
#include "core/packed_ints.hpp"
#include "validate/failure.hpp"
#include "validate/tree_table.hpp"
#include "validate/tuple_scan.hpp"

namespace g500 {

using validation::kMaxBatch;
using validation::PackedEntry;
using validation::SlotParents;
using validation::TreeTable;
using validation::WideEntry;
using validation::replicate_tree;
using validation::scan_tuples_narrowest;

namespace {

// The width a waiting search's parents are kept in (parent + 1, up to N), or 0 when only whole
// vertex_t will do.
int kept_parent_bits(vertex_t n) {
  const int bits = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
  return bits <= PackedInts::kMaxBits ? bits : 0;
}

// Every search's result once the scan has run: each rule failure as all ranks report it, else the
// nedge summed over the ranks.
std::vector<ValidationResult> agreed_results(const mpi::Comm& comm, std::span<const Failure> failures,
                                             std::span<const std::int64_t> nedge) {
  std::vector<ValidationResult> results;
  for (std::size_t s = 0; s < failures.size(); ++s) {
    const Failure agreed = agree(comm, failures[s]);
    if (agreed.rule) results.push_back({false, agreed.rule, agreed.message, 0});
    else results.push_back({true, 0, "", comm.allreduce(nedge[s], mpi::Op::sum)});
  }
  return results;
}

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
  int parent_bits;  // kept_parent_bits(N)
  std::optional<TreeTable<Entry>> tree;  // made at the first search, kept for the run
  std::vector<PackedInts> kept_packed;   // the waiting searches' parents, by slot
  big_vector<vertex_t> kept_wide;        // (when ids are too wide to pack: slot s at s * local_count)
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
      if (keep) keep_parents(search.slot, parents);
    }
    searches.push_back(std::move(search));
  }

  void keep_parents(int slot, std::span<const vertex_t> parents) {
    const local_t n_local = part.local_count();
    if (parent_bits > 0) {
      if (kept_packed.empty()) kept_packed.assign(batch - 1, PackedInts(n_local, parent_bits));
      PackedInts& kept = kept_packed[slot];
      // Runs of 64 entries fill whole words: one thread each.
#pragma omp parallel for schedule(static)
      for (local_t run = 0; run < (n_local + 63) / 64; ++run)
        for (local_t i = run * 64; i < std::min(n_local, run * 64 + 64); ++i)
          kept.set(i, static_cast<std::uint64_t>(parents[i] + 1));
    } else {
      if (kept_wide.empty()) kept_wide.resize(static_cast<std::size_t>(batch - 1) * n_local);
      std::copy(parents.begin(), parents.end(), kept_wide.begin() + static_cast<std::ptrdiff_t>(slot) * n_local);
    }
  }

  SlotParents kept(int slot) const {
    if (parent_bits > 0) return {nullptr, &kept_packed[slot]};
    return {kept_wide.data() + static_cast<std::size_t>(slot) * part.local_count(), nullptr};
  }
};

BfsBatchValidator::BfsBatchValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                     int batch, std::int64_t chunk)
    : impl_(new Impl{source, part, comm, std::clamp(batch, 1, kMaxBatch), chunk, kept_parent_bits(part.num_vertices()),
                     std::nullopt, {}, {}, {}, 0}) {}

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
  // Slots 0 .. used - 1 hold trees; every slot but the last one added (when it took one) reads a
  // kept copy.
  const bool last_in_place = b.searches.back().slot >= 0;
  std::vector<SlotParents> slot_parents;
  for (int s = 0; s < b.slots_used; ++s)
    slot_parents.push_back(last_in_place && s == b.slots_used - 1 ? SlotParents{parents.data(), nullptr} : b.kept(s));
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
  const int bits = kept_parent_bits(static_cast<vertex_t>(std::min(n, 9.0e18)));
  const double parent_bytes = bits > 0 ? bits / 8.0 : 8.0;
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
