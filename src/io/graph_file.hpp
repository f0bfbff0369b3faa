#pragma once
// Graphs of your own as edge sources (`--input FILE`), read in parallel and never held whole:
//   - binary: the tuple list `g500 generate` writes (little-endian int64 pairs, docs/formats.md);
//   - edge list: SNAP-style text, one tuple "u v" or "u v w" a line, ids from 0, lines starting
//     with '#' or '%' and blank lines skipped;
//   - Matrix Market: "%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric",
//     comments, the size line "rows cols entries", then "i j [value]" from 1 (the value is the
//     weight). Every entry is an undirected tuple, as Graph500 reads edges.
// Each rank takes the lines that start in its byte range (MPI-IO), checks them once when the file
// is opened (a bad line is an error naming the file and line, on every rank) and keeps only where
// every 64Ki-th of its tuples starts, so that each later pass re-reads and re-parses its range.
// Vertex ids are taken as they are: N is the largest id + 1.
#include <memory>
#include <string>
#include <vector>

#include "graph/edge_source.hpp"
#include "mpi/comm.hpp"
#include "io/file_stamp.hpp"
#include "io/id_relabel.hpp"
#include "mpi/file.hpp"

namespace g500 {

enum class GraphFormat { binary, edge_list, matrix_market };

// Whether ids are renumbered 0..N-1 (io/id_relabel.hpp): always, never, or (auto) when the id range
// is over four times the tuple count, so that most of it cannot occur.
enum class Relabel { automatic, on, off };

// `format`: "auto" (from the extension: .bin binary, .mtx Matrix Market, .txt .el .edges .tsv
// .csv .snap edge list), "binary", "edgelist" or "mtx". UserError when it cannot tell.
GraphFormat graph_format(const std::string& path, const std::string& format);
const char* to_string(GraphFormat format);

class FileEdgeSource : public EdgeSource {
 public:
  // Collective: opens and checks the file (UserError on every rank, naming file and line), and
  // relabels its ids when asked to: the dense tuples then go to a scratch file beside the system's
  // temporary files ($TMPDIR), deleted when the source is.
  // `weights`: a binary edge file's weights (`g500 generate --weights`: little-endian float32 per
  // tuple), checked to hold one non-negative number per tuple; empty: none.
  static std::unique_ptr<FileEdgeSource> open(const mpi::Comm& comm, const std::string& path, GraphFormat format,
                                              Relabel relabel = Relabel::automatic, const std::string& weights = "");
  ~FileEdgeSource() override;

  vertex_t num_vertices() const { return vertices_; }
  // What the file calls vertex 0: 1 for Matrix Market, else 0.
  vertex_t id_base() const { return format_ == GraphFormat::matrix_market ? 1 : 0; }
  bool relabelled() const { return relabel_ != nullptr; }
  void to_file_ids(std::span<vertex_t> ids) const override;
  void to_internal_ids(std::span<vertex_t> ids) const override;
  void read(std::int64_t offset, std::span<Edge> out) const override;
  bool has_weights() const override { return weighted_; }
  void read_weights(std::int64_t offset, std::span<float> out) const override;
  std::string describe() const override;

  // What the opening pass found (public for open(); not part of the edge source's interface).
  struct Scan {
    Share share{};
    vertex_t vertices = 0;
    bool weighted = false;
    std::int64_t data_start = 0, range_begin = 0;
    std::vector<std::int64_t> checkpoints;  // byte where tuple k * kCheckpoint of this rank starts
  };
  FileEdgeSource(std::unique_ptr<mpi::File> file, std::string path, GraphFormat format, Scan scan);

 private:
  // Parses this rank's tuples first, first + 1, ... : (u, v, w) for each into `visit`.
  template <class Visit>
  void parse_from(std::int64_t first, std::int64_t count, Visit&& visit) const;

  // Ends the job (mpi::abort_job) when `path` is not the file it was when opened (rewritten in
  // place, replaced), whatever its tuples hold now.
  void check_unchanged(const std::string& path, const io::FileStamp& opened) const;
  // Ends the job (mpi::abort_job) when tuples read again name ids outside 0 .. N - 1.
  void check_ids_again(std::span<const Edge> edges, std::int64_t offset) const;
  // Relabels (collective): numbers the distinct ids and writes the dense tuples to a scratch file.
  void relabel(const mpi::Comm& comm);

  std::unique_ptr<mpi::File> file_;
  std::unique_ptr<IdRelabel> relabel_;   // with relabelling: the numbering
  std::unique_ptr<mpi::File> dense_;     // ... and the tuples in dense ids (binary)
  std::string dense_path_;               // where dense_ lives, removed should the run be stopped
  std::unique_ptr<mpi::File> weights_;   // a binary edge file's weights
  io::FileStamp opened_, weights_opened_;  // the files as they were before the opening pass
  std::string path_;
  GraphFormat format_;
  vertex_t vertices_;
  bool weighted_;
  std::int64_t range_begin_;
  std::vector<std::int64_t> checkpoints_;
};

}  // namespace g500
