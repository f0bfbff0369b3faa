#include "validate/bfs_validator.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "core/big_vector.hpp"
#include "core/bitmap.hpp"
#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"
#include "validate/failure.hpp"
#include "validate/tuple_relay.hpp"

namespace g500 {
namespace {

using level_t = std::int32_t;
constexpr level_t kUnreached = -1;

// Rule 1 and the levels: level[v] = depth of v in the tree, found by asking the owner of each
// parent for the parent's level, pass after pass, until no vertex is waiting (each pass in rounds
// of at most `chunk` questions, so the buffers stay small).
big_vector<level_t> tree_levels(const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                                 std::span<const vertex_t> parents, std::int64_t chunk, Failure& failure) {
  const local_t n_local = part.local_count();
  const vertex_t n = part.num_vertices();
  big_vector<level_t> level(n_local, kUnreached);
  std::vector<local_t> pending;
  for (local_t i = 0; i < n_local; ++i) {
    const vertex_t v = part.to_global(i), p = parents[i];
    if (p == kNoParent) continue;
    if (p < kNoParent || p >= n) {
      failure.set(1, "vertex " + vid(v) + " has parent " + vid(p) + ", not a vertex id");
    } else if (v == root) {
      if (p != root) failure.set(1, "the root " + vid(root) + " has parent " + vid(p) + ", not itself");
      else level[i] = 0;
    } else if (p == v) {
      failure.set(1, "vertex " + vid(v) + " is its own parent but is not the root");
    } else {
      pending.push_back(i);
    }
  }
  if (part.owns(root) && parents[part.to_local(root)] == kNoParent) {
    failure.set(1, "the root " + vid(root) + " was not reached");
  }
  if (agree(comm, failure).rule) return level;

  exchange::OwnerQuery<vertex_t, level_t, Partition1D> query(comm, part);
  std::vector<vertex_t> asked;
  std::vector<level_t> parent_level;
  for (;;) {
    const std::int64_t open = comm.allreduce<std::int64_t>(pending.size(), mpi::Op::sum);
    if (open == 0) break;
    // Vertices still waiting move to the front of `pending` as each round is answered.
    std::size_t waiting = 0;
    const std::int64_t n_pending = static_cast<std::int64_t>(pending.size());
    exchange::in_rounds(comm, n_pending, chunk, [&](std::int64_t first, std::int64_t last) {
      asked.resize(last - first);
      parent_level.resize(last - first);
      for (std::int64_t k = first; k < last; ++k) asked[k - first] = parents[pending[k]];
      query.ask(asked, parent_level, [](vertex_t v) { return v; }, [&](vertex_t p) { return level[part.to_local(p)]; });
      for (std::int64_t k = first; k < last; ++k) {
        if (parent_level[k - first] == kUnreached) pending[waiting++] = pending[k];
        else level[pending[k]] = parent_level[k - first] + 1;
      }
    });
    const std::int64_t resolved = comm.allreduce<std::int64_t>(pending.size() - waiting, mpi::Op::sum);
    pending.resize(waiting);
    if (resolved == 0) {
      if (!pending.empty()) {
        const vertex_t v = part.to_global(pending.front());
        failure.set(1, "the parent chain of vertex " + vid(v) + " (parent " + vid(parents[pending.front()]) +
                           ") never reaches the root: a cycle or a detached branch");
      }
      break;
    }
  }
  return level;
}

// Rules 3 and 4 on every tuple, and rule 5 by marking each vertex whose parent some tuple joins it
// to; returns this rank's nedge. Each tuple travels to its endpoints' owners one way
// (validate/tuple_relay.hpp). Parent and level sit side by side so that each look costs one
// cache miss, not two; with ParentId 32-bit (N <= 2^32) an entry is 8 bytes, so more of them stay
// in cache.
template <class ParentId>
std::int64_t scan_rules(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                        std::span<const vertex_t> parents, big_vector<level_t>& level, std::int64_t chunk,
                        Failure& failure) {
  struct TreeEntry {
    ParentId parent;
    level_t level;
  };
  big_vector<TreeEntry> tree(part.local_count());
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part.local_count(); ++i) tree[i] = {static_cast<ParentId>(parents[i]), level[i]};
  big_vector<level_t>().swap(level);  // the tree holds the levels now
  Bitmap confirmed(part.local_count());
  // Each endpoint's owner sees the tuple's other end: rule 5 is the endpoint's parent being it.
  const auto look = [&](local_t i, vertex_t other) {
    const TreeEntry entry = tree[i];
    if (entry.level > 0 && entry.parent == static_cast<ParentId>(other)) confirmed.set_atomic(i);
    return entry.level;
  };
  const int threads = omp_get_max_threads();
  std::vector<Failure> thread_failure(threads);
  std::vector<std::int64_t> thread_nedge(threads, 0);
  relay_tuples<ParentId, level_t>(
      source, part, comm, chunk, [&](local_t i, vertex_t, vertex_t v) { return look(i, v); },
      [&](int t, local_t j, vertex_t v, vertex_t u, level_t lu) {
        const level_t lv = look(j, u);
        const bool in_u = lu != kUnreached, in_v = lv != kUnreached;
        Failure& f = thread_failure[t];
        if (in_u != in_v && f.wants(4)) {
          const vertex_t in = in_u ? u : v, out = in_u ? v : u;
          f.set(4, "edge (" + vid(u) + ", " + vid(v) + ") joins reached vertex " + vid(in) + " to unreached vertex " +
                       vid(out));
        } else if (in_u && in_v) {
          ++thread_nedge[t];
          if (std::abs(lu - lv) > 1 && f.wants(3)) {
            f.set(3, "edge (" + vid(u) + ", " + vid(v) + ") spans levels " + std::to_string(lu) + " and " +
                         std::to_string(lv));
          }
        }
      },
      [&](local_t i) { __builtin_prefetch(&tree[i]); });
  std::int64_t nedge = 0;
  for (int t = 0; t < threads; ++t) {
    nedge += thread_nedge[t];
    if (thread_failure[t].rule) failure.set(thread_failure[t].rule, thread_failure[t].message);
  }
  for (local_t i = 0; i < part.local_count(); ++i) {
    if (tree[i].level > 0 && !confirmed.test(i)) {
      failure.set(5, "vertex " + vid(part.to_global(i)) + " has parent " + vid(parents[i]) +
                         ", which no input edge joins it to");
      break;
    }
  }
  return nedge;
}

}  // namespace

ValidationResult validate_bfs(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                              std::span<const vertex_t> parents, std::int64_t chunk) {
  Failure failure;
  big_vector<level_t> level = tree_levels(part, comm, root, parents, chunk, failure);
  Failure agreed = agree(comm, failure);
  if (agreed.rule) return {false, agreed.rule, agreed.message, 0};
  // Rule 1 has passed, so every parent is a vertex id, or -1 on an unreached vertex (level -1),
  // whose parent is never compared.
  const std::int64_t nedge =
      fits_32_bit(part.num_vertices())
          ? scan_rules<std::uint32_t>(source, part, comm, parents, level, chunk, failure)
          : scan_rules<vertex_t>(source, part, comm, parents, level, chunk, failure);
  agreed = agree(comm, failure);
  if (agreed.rule) return {false, agreed.rule, agreed.message, 0};
  return {true, 0, "", comm.allreduce(nedge, mpi::Op::sum)};
}

std::vector<std::int32_t> tree_depths(const Partition1D& part, const mpi::Comm& comm, vertex_t root,
                                      std::span<const vertex_t> parents) {
  Failure ignored;  // a broken tree leaves its detached vertices at -1
  const big_vector<level_t> level = tree_levels(part, comm, root, parents, exchange::kValidationRound, ignored);
  return std::vector<std::int32_t>(level.begin(), level.end());
}

std::int64_t count_reached_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                  std::span<const vertex_t> parents, std::int64_t chunk) {
  std::vector<std::int64_t> thread_nedge(omp_get_max_threads(), 0);
  const auto reached = [&](local_t i) -> std::uint8_t { return parents[i] != kNoParent; };
  const auto count = [&](int t, local_t j, vertex_t, vertex_t, std::uint8_t in_u) { thread_nedge[t] += in_u && reached(j); };
  const auto prefetch = [&](local_t i) { __builtin_prefetch(&parents[i]); };
  if (fits_32_bit(part.num_vertices())) {
    relay_tuples<std::uint32_t, std::uint8_t>(source, part, comm, chunk, [&](local_t i, vertex_t, vertex_t) { return reached(i); }, count, prefetch);
  } else {
    relay_tuples<vertex_t, std::uint8_t>(source, part, comm, chunk, [&](local_t i, vertex_t, vertex_t) { return reached(i); }, count, prefetch);
  }
  std::int64_t nedge = 0;
  for (std::int64_t c : thread_nedge) nedge += c;
  return comm.allreduce(nedge, mpi::Op::sum);
}

}  // namespace g500
