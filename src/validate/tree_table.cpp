#include "validate/tree_table.hpp"

namespace g500::validation {

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

}  // namespace g500::validation
