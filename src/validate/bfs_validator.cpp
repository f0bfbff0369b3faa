#include "validate/bfs_validator.hpp"

#include <omp.h>

#include <limits>
#include <optional>
#include <vector>

#include "core/big_vector.hpp"
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
// fingerprint sit side by side, so each endpoint costs one cache miss. Narrow entries (2 bytes, N
// of them per rank, as many as the engines' degree codes) serve trees of up to 254 levels; deeper
// trees (long paths in graph files) take wide ones.
template <class Level>
struct TreeEntry {
  static constexpr Level kUnreached = std::numeric_limits<Level>::max();
  static constexpr Level kDeepest = kUnreached - 1;
  Level level = kUnreached;
  Level fingerprint = 0;  // of the parent: a tuple (v, p) can be v's tree edge only if they match
};

template <class Level>
Level fingerprint_of(vertex_t parent) {
  return static_cast<Level>((static_cast<std::uint64_t>(parent) * 0x9E3779B97F4A7C15ull) >> 40);
}

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

// Rule 1 and the levels, replicated: pass d gives level d to each vertex whose parent has level
// d - 1, and every rank learns which vertices those were (as bitmap words, or as positions once
// few). Every rank then fills in the fingerprints of its own vertices and gathers them. nullopt
// when the tree is deeper than Level holds.
template <class Level>
std::optional<big_vector<TreeEntry<Level>>> replicate_tree(const Partition1D& part, const mpi::Comm& comm,
                                                            vertex_t root, std::span<const vertex_t> parents,
                                                            Failure& failure) {
  using Entry = TreeEntry<Level>;
  Bitmap pending = check_parent_ids(part, root, parents, failure);
  big_vector<Entry> tree(part.num_vertices());
  if (agree(comm, failure).rule) return tree;
  tree[root].level = 0;
  exchange::SliceGather gather(comm, {part.word_counts(), part.word_displs()});
  Bitmap fresh(part.local_count()), fresh_all(part.num_vertices());
  const bool positions_fit = exchange::SliceGather::positions_fit(part.count_of(0) + kWordBits);
  for (std::int64_t d = 1;; ++d) {
    std::int64_t found = 0;
#pragma omp parallel for schedule(static) reduction(+ : found)
    for (std::int64_t w = 0; w < pending.num_words(); ++w) {
      word_t& bits = pending.data()[w];
      word_t now = 0;
      for (word_t left = bits; left; left &= left - 1) {
        const int b = __builtin_ctzll(left);
        if (tree[parents[w * kWordBits + b]].level == d - 1) now |= word_t{1} << b;
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
    if (d > Entry::kDeepest) return std::nullopt;
    gather.gather(fresh, fresh_all, positions_fit && found_all < part.num_vertices() / 64);
    const Level level = static_cast<Level>(d);
#pragma omp parallel for schedule(static)
    for (std::int64_t w = 0; w < fresh_all.num_words(); ++w)
      for (word_t bits = fresh_all.word(w); bits; bits &= bits - 1) tree[w * kWordBits + __builtin_ctzll(bits)].level = level;
  }
  // (A chain that never reached the root is reported by the caller; its fingerprints do no harm.)
  Entry* mine = tree.data() + part.begin();
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part.local_count(); ++i)
    if (parents[i] != kNoParent) mine[i].fingerprint = fingerprint_of<Level>(parents[i]);
  comm.allgatherv_inplace(tree.data(), part.vertex_counts(), part.vertex_displs());
  return tree;
}

// Rules 3 and 4 on every tuple of this rank's share, where it is generated. Rule 5: a tuple (v, p)
// with v one level below p and p's fingerprint equal to v's parent's is a candidate tree edge of
// v; v's owner confirms it if p is v's parent. Only candidates travel (about one per vertex plus
// one in 2^(8 sizeof Level) of the other tuples). Returns this rank's nedge.
template <class Level, class Id>
std::int64_t scan_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                         std::span<const vertex_t> parents, const big_vector<TreeEntry<Level>>& tree,
                         std::int64_t chunk, Failure& failure) {
  using Entry = TreeEntry<Level>;
  struct Candidate {
    Id child, parent;
  };
  const int threads = omp_get_max_threads(), me = comm.rank();
  Bitmap confirmed(part.local_count());
  exchange::OwnerBuckets<Candidate> to_owner(comm.size(), threads, "validation.tree_edge_candidates");
  std::vector<Candidate> received;
  std::vector<Failure> thread_failure(threads);
  std::vector<std::int64_t> thread_nedge(threads, 0);
  // This rank's own candidates wait for the end of the round too, so that all are checked in one
  // prefetched sweep (each reads a parent at random).
  std::vector<Padded<std::vector<Candidate>>> own(threads);
  const auto candidate = [&](int t, vertex_t child, vertex_t parent) {
    const int owner = part.owner(child);
    const Candidate c{static_cast<Id>(child), static_cast<Id>(parent)};
    if (owner == me) own[t].value.push_back(c);
    else to_owner.push(t, owner, c);
  };
  const auto confirm_all = [&](const std::vector<Candidate>& list) {
    constexpr std::int64_t kAhead = 16;
    const std::int64_t m = static_cast<std::int64_t>(list.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kAhead < m) __builtin_prefetch(&parents[part.to_local(static_cast<vertex_t>(list[k + kAhead].child))]);
      const local_t i = part.to_local(static_cast<vertex_t>(list[k].child));
      if (parents[i] == static_cast<vertex_t>(list[k].parent)) confirmed.set_atomic(i);
    }
  };
  constexpr std::int64_t kAhead = 16;
  const auto scan = [&](int t, std::span<const Edge> edges) {
    Failure& f = thread_failure[t];
    std::int64_t nedge = 0;
    const std::int64_t n = static_cast<std::int64_t>(edges.size());
    for (std::int64_t k = 0; k < n; ++k) {
      if (k + kAhead < n) {
        __builtin_prefetch(&tree[edges[k + kAhead].u]);
        __builtin_prefetch(&tree[edges[k + kAhead].v]);
      }
      const vertex_t u = edges[k].u, v = edges[k].v;
      const Entry eu = tree[u], ev = tree[v];
      // Without branches on the levels, which vary at random from tuple to tuple; only a broken
      // rule or a candidate (a few percent of tuples) branches.
      const bool in_u = eu.level != Entry::kUnreached, in_v = ev.level != Entry::kUnreached;
      const std::int64_t diff = std::int64_t{eu.level} - std::int64_t{ev.level};
      const bool both = in_u & in_v;
      nedge += both;
      const bool up = both & (diff == 1) & (eu.fingerprint == fingerprint_of<Level>(v));
      const bool down = both & (diff == -1) & (ev.fingerprint == fingerprint_of<Level>(u));
      if (__builtin_expect(up | down, 0)) {
        if (up) candidate(t, u, v);
        else candidate(t, v, u);
      }
      const bool broken = (in_u != in_v) | (both & (diff * diff > 1));
      if (__builtin_expect(broken, 0)) {
        if (in_u != in_v) {
          const vertex_t in = in_u ? u : v, out = in_u ? v : u;
          f.set(4, "edge (" + vid(u) + ", " + vid(v) + ") joins reached vertex " + vid(in) + " to unreached vertex " +
                       vid(out));
        } else {
          f.set(3, "edge (" + vid(u) + ", " + vid(v) + ") spans levels " + std::to_string(eu.level) + " and " +
                       std::to_string(ev.level));
        }
      }
    }
    thread_nedge[t] += nedge;
  };
  scan_in_pieces(source, comm, chunk, scan, [&] {
    to_owner.exchange(comm, received);
    confirm_all(received);
    for (Padded<std::vector<Candidate>>& list : own) {
      confirm_all(list.value);
      list.value.clear();
    }
  });
  std::int64_t nedge = 0;
  for (int t = 0; t < threads; ++t) {
    nedge += thread_nedge[t];
    if (thread_failure[t].rule) failure.set(thread_failure[t].rule, thread_failure[t].message);
  }
  const Entry* mine = tree.data() + part.begin();
  for (local_t i = 0; i < part.local_count(); ++i) {
    if (mine[i].level != Entry::kUnreached && mine[i].level > 0 && !confirmed.test(i)) {
      failure.set(5, "vertex " + vid(part.to_global(i)) + " has parent " + vid(parents[i]) +
                         ", which no input edge joins it to");
      break;
    }
  }
  return nedge;
}

template <class Level>
std::optional<ValidationResult> validate_with(const EdgeSource& source, const Partition1D& part,
                                              const mpi::Comm& comm, vertex_t root, std::span<const vertex_t> parents,
                                              std::int64_t chunk) {
  Failure failure;
  std::optional<big_vector<TreeEntry<Level>>> tree = replicate_tree<Level>(part, comm, root, parents, failure);
  if (!tree) return std::nullopt;
  Failure agreed = agree(comm, failure);
  if (agreed.rule) return ValidationResult{false, agreed.rule, agreed.message, 0};
  const std::int64_t nedge = fits_32_bit(part.num_vertices())
                                 ? scan_tuples<Level, std::uint32_t>(source, part, comm, parents, *tree, chunk, failure)
                                 : scan_tuples<Level, vertex_t>(source, part, comm, parents, *tree, chunk, failure);
  agreed = agree(comm, failure);
  if (agreed.rule) return ValidationResult{false, agreed.rule, agreed.message, 0};
  return ValidationResult{true, 0, "", comm.allreduce(nedge, mpi::Op::sum)};
}

}  // namespace

ValidationResult validate_bfs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                              std::span<const vertex_t> parents, std::int64_t chunk) {
  if (auto result = validate_with<std::uint8_t>(source, part, comm, root, parents, chunk)) return *result;
  return *validate_with<std::uint32_t>(source, part, comm, root, parents, chunk);
}

std::vector<std::int32_t> tree_depths(const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                                      std::span<const vertex_t> parents) {
  Failure ignored;  // a broken tree leaves its detached vertices at -1
  const auto tree = replicate_tree<std::uint32_t>(part, comm, root, parents, ignored);
  std::vector<std::int32_t> depth(part.local_count(), -1);
  for (local_t i = 0; i < part.local_count(); ++i) {
    const auto& e = (*tree)[part.to_global(i)];
    if (e.level != TreeEntry<std::uint32_t>::kUnreached) depth[i] = static_cast<std::int32_t>(e.level);
  }
  return depth;
}

std::int64_t count_reached_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                  std::span<const vertex_t> parents, std::int64_t chunk) {
  // Every rank holds the reached bitmap (N bits) and counts its own share of the tuples.
  Bitmap mine(part.local_count()), reached(part.num_vertices());
  for (local_t i = 0; i < part.local_count(); ++i)
    if (parents[i] != kNoParent) mine.set(i);
  exchange::SliceGather(comm, {part.word_counts(), part.word_displs()}).gather(mine, reached, false);
  std::vector<std::int64_t> thread_nedge(omp_get_max_threads(), 0);
  scan_in_pieces(
      source, comm, chunk,
      [&](int t, std::span<const Edge> edges) {
        std::int64_t nedge = 0;
        for (const Edge& e : edges) nedge += reached.test(e.u) && reached.test(e.v);
        thread_nedge[t] += nedge;
      },
      [] {});
  std::int64_t nedge = 0;
  for (std::int64_t c : thread_nedge) nedge += c;
  return comm.allreduce(nedge, mpi::Op::sum);
}

}  // namespace g500
