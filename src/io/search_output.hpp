#pragma once
// `--output FILE`: every search's tree, written by all ranks at once (MPI-IO), each its own
// vertices, root after root. Text: one line "bfs ROOT VERTEX PARENT DEPTH" or "sssp ROOT VERTEX
// PARENT DISTANCE" per reached vertex. Binary: 40-byte little-endian records {int64 kernel (0 bfs,
// 1 sssp), int64 root, int64 vertex, int64 parent, float64 depth or distance}. Ids are the graph's
// own (from 1 in Matrix Market files, before any relabelling). The file appears under its name only
// once complete.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "graph/edge_source.hpp"
#include "io/output_file.hpp"
#include "io/staged_file.hpp"
#include "mpi/comm.hpp"
#include "mpi/file.hpp"
#include "partition/partition_1d.hpp"

namespace g500 {

class SearchOutput {
 public:
  // Collective. binary: records, else text lines. `ids` names vertices as the graph does.
  SearchOutput(const mpi::Comm& comm, const std::string& path, bool binary, const EdgeSource& ids);
  ~SearchOutput();
  SearchOutput(const SearchOutput&) = delete;
  SearchOutput& operator=(const SearchOutput&) = delete;

  // Collective: appends one search; value(i) is the depth or distance of local vertex i.
  template <class Value>
  void write(const char* kernel, vertex_t root, const Partition1D& part, std::span<const vertex_t> parents,
             Value&& value) {
    // Reached vertices and their parents, then all of them (and the root) in the graph's ids.
    std::vector<vertex_t> ids{root};
    std::vector<double> values;
    for (local_t i = 0; i < part.local_count(); ++i) {
      if (parents[i] == kNoParent) continue;
      ids.push_back(part.to_global(i));
      ids.push_back(parents[i]);
      values.push_back(static_cast<double>(value(i)));
    }
    ids_.to_file_ids(ids);
    std::string bytes;
    const bool sssp = std::string(kernel) == "sssp";
    for (std::size_t k = 0; k < values.size(); ++k) append(bytes, sssp, ids[0], ids[1 + 2 * k], ids[2 + 2 * k], values[k]);
    write_bytes(bytes);
  }
  // Collective: the file is complete and joins `pending`, to land with the run's other outputs;
  // UserError on every rank when it could not be written.
  void close(io::PendingOutputs& pending);

 private:
  void append(std::string& out, bool sssp, vertex_t root, vertex_t v, vertex_t parent, double value) const;
  void write_bytes(const std::string& bytes);

  const mpi::Comm& comm_;
  io::StagedPath staged_;
  std::unique_ptr<mpi::File> file_;
  bool binary_;
  const EdgeSource& ids_;
  std::int64_t written_ = 0;  // bytes of the whole file so far
};

}  // namespace g500
