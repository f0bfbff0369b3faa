#include "validate/bfs_validator.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/big_vector.hpp"
#include "core/packed_ints.hpp"
#include "core/bitmap.hpp"
#include "core/padded.hpp"
#include "exchange/owner_buckets.hpp"
#include "exchange/rounds.hpp"
#include "exchange/slice_gather.hpp"
#include "graph/edge_source.hpp"
#include "validate/failure.hpp"

namespace g500 {
namespace {

// Every rank holds every vertex's level in the tree and a few bits of a hash of its parent, so it
// checks its own share of the tuples where it generated them: no tuple travels. Level and
// fingerprint sit side by side, so each endpoint costs one cache miss. Two layouts:
//  - PackedEntry, one byte: levels 0-14 and a 4-bit fingerprint. Graph500 trees are a few levels
//    deep, and a batch's scan is bound by the misses into its table, which this halves;
//  - WideEntry<Level>: a Level each, for deeper trees (254 levels in 2 bytes; long paths in
//    graph files take 32-bit levels).
// A tuple (v, p) can be v's tree edge only if p's fingerprint is the one v keeps of its parent.
inline std::uint64_t parent_hash(vertex_t parent) { return static_cast<std::uint64_t>(parent) * 0x9E3779B97F4A7C15ull; }

struct PackedEntry {
  static constexpr std::uint32_t kUnreached = 15, kDeepest = 14;
  std::uint8_t bits = kUnreached;  // level below, fingerprint above
  std::uint32_t level() const { return bits & 15u; }
  std::uint32_t fingerprint() const { return bits >> 4; }
  void set_level(std::uint32_t level) { bits = static_cast<std::uint8_t>((bits & 0xf0u) | level); }
  void set_parent(vertex_t parent) { bits = static_cast<std::uint8_t>((bits & 15u) | (fingerprint_of(parent) << 4)); }
  static std::uint32_t fingerprint_of(vertex_t parent) { return static_cast<std::uint32_t>(parent_hash(parent) >> 60); }
};

template <class Level>
struct WideEntry {
  static constexpr std::uint32_t kUnreached = std::numeric_limits<Level>::max(), kDeepest = kUnreached - 1;
  Level level_ = static_cast<Level>(kUnreached);
  Level fingerprint_ = 0;
  std::uint32_t level() const { return level_; }
  std::uint32_t fingerprint() const { return fingerprint_; }
  void set_level(std::uint32_t level) { level_ = static_cast<Level>(level); }
  void set_parent(vertex_t parent) { fingerprint_ = static_cast<Level>(fingerprint_of(parent)); }
  static std::uint32_t fingerprint_of(vertex_t parent) { return static_cast<Level>(parent_hash(parent) >> 40); }
};

// The trees of a batch, on every rank: search s's entry for vertex v at v * slots + s, so that a
// tuple's endpoint is one cache miss for the whole batch.
template <class Entry>
class TreeTable {
 public:
  TreeTable(vertex_t n, int slots) : slots_(slots), entries_(static_cast<std::size_t>(n) * slots) {}
  int slots() const { return slots_; }
  Entry& at(vertex_t v, int s) { return entries_[static_cast<std::size_t>(v) * slots_ + s]; }
  const Entry* row(vertex_t v) const { return entries_.data() + static_cast<std::size_t>(v) * slots_; }

 private:
  int slots_;
  big_vector<Entry> entries_;
};

// A search's parents as the scan reads them: in place (the search just ended), or the copy a
// waiting search keeps, each parent + 1 in bit_width(N) bits (0: none).
struct SlotParents {
  const vertex_t* wide = nullptr;
  const PackedInts* packed = nullptr;
  vertex_t operator[](local_t i) const { return wide ? wide[i] : static_cast<vertex_t>(packed->get(i)) - 1; }
  const void* address(local_t i) const { return wide ? static_cast<const void*>(wide + i) : packed->address(i); }
};

// The width a waiting search's parents are kept in (parent + 1, up to N), or 0 when only whole
// vertex_t will do.
int kept_parent_bits(vertex_t n) {
  const int bits = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
  return bits <= PackedInts::kMaxBits ? bits : 0;
}

constexpr int kMaxBatch = 16;

// Rule 1's local checks (ids in range, the root its own parent and reached, no other vertex its own
// parent); returns the bitmap of this rank's vertices whose level is still to find.
Bitmap check_parent_ids(const Partition1D& part, vertex_t root, std::span<const vertex_t> parents, Failure& failure) {
  const vertex_t n = part.num_vertices();
  Bitmap pending(part.local_count());
  for (local_t i = 0; i < part.local_count(); ++i) {
    const vertex_t v = part.to_global(i), p = parents[i];
    if (p == kNoParent) continue;
    if (p < kNoParent || p >= n) {
      failure.set(1, "vertex " + vid(v) + " has parent " + vid(p) + ", not a vertex id");
    } else if (v == root) {
      if (p != root) failure.set(1, "the root " + vid(root) + " has parent " + vid(p) + ", not itself");
    } else if (p == v) {
      failure.set(1, "vertex " + vid(v) + " is its own parent but is not the root");
    } else {
      pending.set(i);
    }
  }
  if (part.owns(root) && parents[part.to_local(root)] == kNoParent) {
    failure.set(1, "the root " + vid(root) + " was not reached");
  }
  return pending;
}

// Rule 1 and the levels of search `slot`, replicated: pass d gives level d to each vertex whose
// parent has level d - 1, and every rank learns which vertices those were (as bitmap words, or as
// positions once few). Every rank then fills in the fingerprints of its own vertices and gathers
// them (whole entries: the owner's holds the level too). False when the tree is deeper than an
// Entry holds.
template <class Entry>
bool replicate_tree(const Partition1D& part, const mpi::Comm& comm, vertex_t root, std::span<const vertex_t> parents,
                    TreeTable<Entry>& tree, int slot, Failure& failure) {
  const vertex_t n = part.num_vertices();
#pragma omp parallel for schedule(static)
  for (vertex_t v = 0; v < n; ++v) tree.at(v, slot) = Entry{};
  Bitmap pending = check_parent_ids(part, root, parents, failure);
  if (agree(comm, failure).rule) return true;
  tree.at(root, slot).set_level(0);
  exchange::SliceGather gather(comm, {part.word_counts(), part.word_displs()});
  Bitmap fresh(part.local_count()), fresh_all(n);
  const bool positions_fit = exchange::SliceGather::positions_fit(part.count_of(0) + kWordBits);
  for (std::int64_t d = 1;; ++d) {
    std::int64_t found = 0;
#pragma omp parallel for schedule(static) reduction(+ : found)
    for (std::int64_t w = 0; w < pending.num_words(); ++w) {
      word_t& bits = pending.data()[w];
      word_t now = 0;
      for (word_t left = bits; left; left &= left - 1) {
        const int b = __builtin_ctzll(left);
        if (tree.at(parents[w * kWordBits + b], slot).level() == d - 1) now |= word_t{1} << b;
      }
      fresh.data()[w] = now;
      bits &= ~now;
      found += __builtin_popcountll(now);
    }
    const std::int64_t found_all = comm.allreduce(found, mpi::Op::sum);
    if (found_all == 0) {
      const std::int64_t left = pending.count();
      if (left > 0) {
        local_t i = 0;
        while (!pending.test(i)) ++i;
        failure.set(1, "the parent chain of vertex " + vid(part.to_global(i)) + " (parent " + vid(parents[i]) +
                           ") never reaches the root: a cycle or a detached branch");
      }
      break;
    }
    if (d > Entry::kDeepest) return false;
    gather.gather(fresh, fresh_all, positions_fit && found_all < n / 64);
    const std::uint32_t level = static_cast<std::uint32_t>(d);
#pragma omp parallel for schedule(static)
    for (std::int64_t w = 0; w < fresh_all.num_words(); ++w)
      for (word_t bits = fresh_all.word(w); bits; bits &= bits - 1) tree.at(w * kWordBits + __builtin_ctzll(bits), slot).set_level(level);
  }
  // (A chain that never reached the root is reported by the caller; its fingerprints do no harm.)
  const vertex_t begin = part.begin();
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part.local_count(); ++i)
    if (parents[i] != kNoParent) tree.at(begin + i, slot).set_parent(parents[i]);
  comm.allgatherv_strided_inplace(&tree.at(0, slot), sizeof(Entry) * tree.slots(), part.vertex_counts(),
                                  part.vertex_displs());
  return true;
}

// Rules 3 and 4 on every tuple of this rank's share, where it is generated, for the first
// parents.size() searches of `tree`. Rule 5: a tuple (v, p) with v one level below p and p's
// fingerprint equal to v's parent's is a candidate tree edge of v; v's owner confirms it if p is
// v's parent. Only candidates travel (about one per vertex plus the tuples one level apart whose
// fingerprints match by chance: 1 in 16 with packed entries). Adds to each search's failure;
// returns each search's count of this rank's nedge.
template <class Entry, class Id>
std::vector<std::int64_t> scan_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                      const TreeTable<Entry>& tree, std::span<const SlotParents> parents,
                                      std::int64_t chunk, std::span<Failure> failures) {
  struct Candidate {
    Id child, parent;
    std::uint32_t slot;
  };
  const int slots = static_cast<int>(parents.size()), stride = tree.slots();
  const int threads = omp_get_max_threads(), me = comm.rank();
  std::vector<Bitmap> confirmed(slots, Bitmap(part.local_count()));
  exchange::OwnerBuckets<Candidate> to_owner(comm.size(), threads, "validation.tree_edge_candidates");
  std::vector<Candidate> received;
  std::vector<Failure> thread_failure(static_cast<std::size_t>(threads) * slots);
  std::vector<std::int64_t> thread_nedge(static_cast<std::size_t>(threads) * slots, 0);
  // This rank's own candidates wait for the end of the round too, so that all are checked in one
  // prefetched sweep (each reads a parent at random).
  std::vector<Padded<std::vector<Candidate>>> own(threads);
  const auto candidate = [&](int t, int s, vertex_t child, vertex_t parent) {
    const int owner = part.owner(child);
    const Candidate c{static_cast<Id>(child), static_cast<Id>(parent), static_cast<std::uint32_t>(s)};
    if (owner == me) own[t].value.push_back(c);
    else to_owner.push(t, owner, c);
  };
  const auto confirm_all = [&](const std::vector<Candidate>& list) {
    constexpr std::int64_t kAhead = 16;
    const std::int64_t m = static_cast<std::int64_t>(list.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kAhead < m) __builtin_prefetch(parents[list[k + kAhead].slot].address(part.to_local(static_cast<vertex_t>(list[k + kAhead].child))));
      const local_t i = part.to_local(static_cast<vertex_t>(list[k].child));
      if (parents[list[k].slot][i] == static_cast<vertex_t>(list[k].parent)) confirmed[list[k].slot].set_atomic(i);
    }
  };
  constexpr std::int64_t kAhead = 16;
  const auto scan = [&](int t, std::span<const Edge> edges) {
    std::int64_t nedge[kMaxBatch] = {};
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
    for (std::int64_t k = 0; k < n; ++k) {
      if (k + kAhead < n) {
        __builtin_prefetch(tree.row(edges[k + kAhead].u));
        __builtin_prefetch(tree.row(edges[k + kAhead].v));
      }
      const vertex_t u = edges[k].u, v = edges[k].v;
      const Entry* const row_u = tree.row(u);
      const Entry* const row_v = tree.row(v);
      const std::uint32_t fp_u = Entry::fingerprint_of(u), fp_v = Entry::fingerprint_of(v);
      for (int s = 0; s < slots; ++s) {
        const Entry eu = row_u[s], ev = row_v[s];
        // Without branches on the levels, which vary at random from tuple to tuple; only a broken
        // rule or a candidate (a few percent of tuples) branches.
        const std::uint32_t lu = eu.level(), lv = ev.level();
        const bool in_u = lu != Entry::kUnreached, in_v = lv != Entry::kUnreached;
        const std::int64_t diff = std::int64_t{lu} - std::int64_t{lv};
        const bool both = in_u & in_v;
        nedge[s] += both;
        const bool up = both & (diff == 1) & (eu.fingerprint() == fp_v);
        const bool down = both & (diff == -1) & (ev.fingerprint() == fp_u);
        if (__builtin_expect(up | down, 0)) {
          if (up) candidate(t, s, u, v);
          else candidate(t, s, v, u);
        }
        const bool broken = (in_u != in_v) | (both & (diff * diff > 1));
        if (__builtin_expect(broken, 0)) {
          Failure& f = thread_failure[static_cast<std::size_t>(t) * slots + s];
          if (in_u != in_v) {
            const vertex_t in = in_u ? u : v, out = in_u ? v : u;
            f.set(4, "edge (" + vid(u) + ", " + vid(v) + ") joins reached vertex " + vid(in) + " to unreached vertex " +
                         vid(out));
          } else {
            f.set(3, "edge (" + vid(u) + ", " + vid(v) + ") spans levels " + std::to_string(lu) + " and " +
                         std::to_string(lv));
          }
        }
      }
    }
    for (int s = 0; s < slots; ++s) thread_nedge[static_cast<std::size_t>(t) * slots + s] += nedge[s];
  };
  scan_in_pieces(source, comm, chunk, scan, [&] {
    to_owner.exchange(comm, received);
    confirm_all(received);
    for (Padded<std::vector<Candidate>>& list : own) {
      confirm_all(list.value);
      list.value.clear();
    }
  });
  std::vector<std::int64_t> nedge(slots, 0);
  for (int s = 0; s < slots; ++s) {
    for (int t = 0; t < threads; ++t) {
      const std::size_t at = static_cast<std::size_t>(t) * slots + s;
      nedge[s] += thread_nedge[at];
      if (thread_failure[at].rule) failures[s].set(thread_failure[at].rule, thread_failure[at].message);
    }
    const Entry* rows = tree.row(part.begin());
    for (local_t i = 0; i < part.local_count(); ++i) {
      const std::uint32_t level = rows[i * stride + s].level();
      if (level != Entry::kUnreached && level > 0 && !confirmed[s].test(i)) {
        failures[s].set(5, "vertex " + vid(part.to_global(i)) + " has parent " + vid(parents[s][i]) +
                               ", which no input edge joins it to");
        break;
      }
    }
  }
  return nedge;
}

// scan_tuples with candidates in 32-bit ids whenever N allows.
template <class Entry>
std::vector<std::int64_t> scan_tuples_narrowest(const EdgeSource& source, const Partition1D& part,
                                                const mpi::Comm& comm, const TreeTable<Entry>& tree,
                                                std::span<const SlotParents> parents, std::int64_t chunk,
                                                std::span<Failure> failures) {
  if (fits_32_bit(part.num_vertices()))
    return scan_tuples<Entry, std::uint32_t>(source, part, comm, tree, parents, chunk, failures);
  return scan_tuples<Entry, vertex_t>(source, part, comm, tree, parents, chunk, failures);
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

ReachedTupleCounter::ReachedTupleCounter(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                         int batch, std::int64_t chunk)
    : source_(source), part_(part), comm_(comm), batch_(std::clamp(batch, 1, kMaxBatch)), chunk_(chunk) {}

void ReachedTupleCounter::wait(std::span<const vertex_t> parents) {
  if (used_ + 1 >= batch_) throw std::logic_error("ReachedTupleCounter::wait: the batch is full");
  add(parents);
}

void ReachedTupleCounter::add(std::span<const vertex_t> parents) {
  if (reached_.empty()) reached_.assign(static_cast<std::size_t>(part_.num_vertices()), 0);
  // This search's reached vertices, gathered from their owners into bit `used_` of every vertex.
  Bitmap mine(part_.local_count()), all(part_.num_vertices());
  for (local_t i = 0; i < part_.local_count(); ++i)
    if (parents[i] != kNoParent) mine.set(i);
  exchange::SliceGather(comm_, {part_.word_counts(), part_.word_displs()}).gather(mine, all, false);
  const std::uint16_t bit = static_cast<std::uint16_t>(1u << used_), keep = static_cast<std::uint16_t>(~bit);
  const vertex_t n = part_.num_vertices();
#pragma omp parallel for schedule(static)
  for (vertex_t v = 0; v < n; ++v) reached_[v] = static_cast<std::uint16_t>((reached_[v] & keep) | (all.test(v) ? bit : 0));
  ++used_;
}

std::vector<std::int64_t> ReachedTupleCounter::count(std::span<const vertex_t> parents) {
  add(parents);
  const int slots = used_;
  std::vector<std::int64_t> thread_nedge(static_cast<std::size_t>(omp_get_max_threads()) * slots, 0);
  scan_in_pieces(
      source_, comm_, chunk_,
      [&](int t, std::span<const Edge> edges) {
        std::int64_t nedge[kMaxBatch] = {};
        for (const Edge& e : edges) {
          const unsigned both = reached_[e.u] & reached_[e.v];
          for (int s = 0; s < slots; ++s) nedge[s] += (both >> s) & 1u;
        }
        for (int s = 0; s < slots; ++s) thread_nedge[static_cast<std::size_t>(t) * slots + s] += nedge[s];
      },
      [] {});
  std::vector<std::int64_t> nedge(slots, 0);
  for (std::size_t k = 0; k < thread_nedge.size(); ++k) nedge[k % slots] += thread_nedge[k];
  for (std::int64_t& c : nedge) c = comm_.allreduce(c, mpi::Op::sum);
  used_ = 0;
  return nedge;
}

std::int64_t count_reached_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                  std::span<const vertex_t> parents, std::int64_t chunk) {
  return ReachedTupleCounter(source, part, comm, 1, chunk).count(parents).front();
}

}  // namespace g500
