#include "harness/roots.hpp"

#include <sys/stat.h>


#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <bit>
#include <unordered_set>

#include "core/error.hpp"
#include "graph/arc_routing.hpp"
#include "exchange/rounds.hpp"
#include "generator/counter_rng.hpp"

namespace g500 {

Bitmap connected_vertices(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm) {
  Bitmap connected(part.local_count());
  struct Endpoint {
    vertex_t row;
  };
  route_arcs<Endpoint>(source, part, comm, exchange::kRootScanRound, "roots.endpoints",
                       [](vertex_t row, vertex_t) { return Endpoint{row}; },
                       [&](std::span<const Endpoint> ends) {
                         const std::int64_t n = static_cast<std::int64_t>(ends.size());
#pragma omp parallel for schedule(static)
                         for (std::int64_t i = 0; i < n; ++i) connected.set_atomic(part.to_local(ends[i].row));
                       });
  return connected;
}

std::vector<vertex_t> choose_roots(const Bitmap& connected, const Partition1D& part, const mpi::Comm& comm, int count,
                                   std::uint64_t seed) {
  const std::int64_t available = comm.allreduce<std::int64_t>(connected.count(), mpi::Op::sum);
  const std::int64_t target = std::min<std::int64_t>(count, available);
  std::vector<vertex_t> roots;
  if (target == available) {
    // Every qualifying vertex is a root: gather them in id order.
    std::vector<vertex_t> mine;
    for (local_t i = 0; i < part.local_count(); ++i)
      if (connected.test(i)) mine.push_back(part.to_global(i));
    const mpi::Counts counts = comm.allgather(static_cast<std::int64_t>(mine.size()));
    roots.resize(available);
    comm.allgatherv<vertex_t>(mine, roots.data(), counts, mpi::Comm::displacements(counts));
    return roots;
  }
  // Draw candidates in batches; the owner of each says whether it qualifies.
  const CounterRng rng(seed ^ 0x726f6f7473ULL);
  std::unordered_set<vertex_t> taken;
  const std::int64_t batch = 4 * target + 64;
  const std::uint64_t span = std::bit_ceil(static_cast<std::uint64_t>(part.num_vertices()));
  for (std::uint64_t draw = 0; static_cast<std::int64_t>(roots.size()) < target; draw += batch) {
    std::vector<vertex_t> candidate(batch);
    std::vector<std::uint8_t> ok(batch, 0);
    for (std::int64_t k = 0; k < batch; ++k) {
      // Drawn from the power of two that covers N, so the roots of a Kronecker graph (N found from
      // its edges, at most 2^SCALE) are the same whichever way N was found.
      candidate[k] = static_cast<vertex_t>(rng.stream(draw + k) % span);
      if (part.owns(candidate[k])) ok[k] = connected.test(part.to_local(candidate[k]));
    }
    comm.allreduce_inplace<std::uint8_t>(ok, mpi::Op::max);
    for (std::int64_t k = 0; k < batch && static_cast<std::int64_t>(roots.size()) < target; ++k) {
      if (ok[k] && taken.insert(candidate[k]).second) roots.push_back(candidate[k]);
    }
  }
  return roots;
}

std::vector<vertex_t> given_roots(const std::vector<vertex_t>& ids, const EdgeSource& source, const Bitmap& connected,
                                  const Partition1D& part, const mpi::Comm& comm) {
  std::vector<vertex_t> roots = ids;
  source.to_internal_ids(roots);
  for (std::size_t k = 0; k < roots.size(); ++k) {
    const vertex_t v = roots[k];
    if (v < 0 || v >= part.num_vertices()) {
      throw UserError("root " + std::to_string(ids[k]) + " is not a vertex of the graph");
    }
    const int has_edge = comm.allreduce(part.owns(v) && connected.test(part.to_local(v)) ? 1 : 0, mpi::Op::max);
    if (!has_edge) {
      throw UserError("root " + std::to_string(ids[k]) + " has no edge to another vertex: nothing to search");
    }
  }
  return roots;
}

std::vector<vertex_t> read_roots_file(const std::string& path, const mpi::Comm& comm) {
  std::string text, failure;
  if (comm.is_root()) {
    struct stat st;
    // A pipe with no writer, or a device such as /dev/random, would never end: regular files only.
    if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      failure = "roots file '" + path;
      failure += "' is not a regular file";  // appended: GCC 12 warns (wrongly) on the one expression
    } else {
      std::ifstream in(path);
      std::ostringstream all;
      if (in) all << in.rdbuf();
      if (!in) failure = "cannot open roots file '" + path + "'";
      text = all.str();
    }
  }
  failure = comm.broadcast_string(failure, 0);
  if (!failure.empty()) throw UserError(failure);
  text = comm.broadcast_string(text, 0);
  std::vector<vertex_t> ids;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::size_t at = line.find_first_not_of(" \t\r");
    if (at == std::string::npos || line[at] == '#') continue;
    const std::size_t end = line.find_last_not_of(" \t\r") + 1;
    vertex_t id = 0;
    const auto [ptr, ec] = std::from_chars(line.data() + at, line.data() + end, id);
    if (ec != std::errc() || ptr != line.data() + end) {
      throw UserError("roots file '" + path + "' line " + std::to_string(number) + ": '" + line.substr(at, end - at) +
                      "' is not a vertex id");
    }
    ids.push_back(id);
  }
  if (ids.empty()) throw UserError("roots file '" + path + "' names no root");
  return ids;
}

}  // namespace g500
