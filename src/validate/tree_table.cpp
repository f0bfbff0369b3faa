#include "validate/tree_table.hpp"

#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

namespace g500::validation {
namespace {

// What is wrong with parent p of vertex v, when it is not simply an other vertex; empty if nothing.
[[gnu::noinline]] std::string parent_id_problem(vertex_t v, vertex_t p, vertex_t root, vertex_t n) {
  if (p < kNoParent || p >= n) return "vertex " + vid(v) + " has parent " + vid(p) + ", not a vertex id";
  if (v == root) return p == root ? "" : "the root " + vid(root) + " has parent " + vid(p) + ", not itself";
  if (p == v) return "vertex " + vid(v) + " is its own parent but is not the root";
  return "";
}

}  // namespace

Bitmap check_parent_ids(const Partition1D& part, vertex_t root, std::span<const vertex_t> parents, Failure& failure) {
  const vertex_t n = part.num_vertices();
  const local_t count = part.local_count();
  Bitmap pending(count);
  // Whole words a thread, in order, so that the first failure in vertex order is the one kept.
  std::vector<Failure> failures(omp_get_max_threads());
#pragma omp parallel for schedule(static)
  for (std::int64_t w = 0; w < pending.num_words(); ++w) {
    Failure& mine = failures[omp_get_thread_num()];
    word_t bits = 0;
    for (local_t i = w * kWordBits; i < std::min<local_t>(count, (w + 1) * kWordBits); ++i) {
      const vertex_t v = part.to_global(i), p = parents[i];
      // The common cases without branches (whether a vertex was reached is a coin toss): a parent
      // in range, not the vertex itself, makes the vertex pending; anything else is looked at alone.
      const bool plain = (static_cast<std::uint64_t>(p) < static_cast<std::uint64_t>(n)) & (p != v) & (v != root);
      bits |= static_cast<word_t>(plain) << (i - w * kWordBits);
      if (__builtin_expect(!plain & (p != kNoParent), 0) == 0) continue;
      std::string problem = parent_id_problem(v, p, root, n);
      if (!problem.empty()) mine.set(1, std::move(problem));
    }
    pending.data()[w] = bits;
  }
  for (const Failure& f : failures)
    if (f.rule) failure.set(f.rule, f.message);
  if (part.owns(root) && parents[part.to_local(root)] == kNoParent) {
    failure.set(1, "the root " + vid(root) + " was not reached");
  }
  return pending;
}

}  // namespace g500::validation
