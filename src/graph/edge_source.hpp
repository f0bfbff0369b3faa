#pragma once
// The edge list as every stage after the options reads it: rank r's share of the global tuple list,
// [first, first + count), which can be read again, range by range, as often as a stage needs.
// Nothing has to keep the list: kernel 1 reads it twice (degrees, then rows), the roots once, the
// validator once per search. Producers: the Kronecker generator, which makes any range again
// (generator/kronecker_source.hpp); tuples held in memory (SliceSource, for `generate` and tests);
// a file reader will re-read its byte range.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/pass_progress.hpp"
#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/rounds.hpp"
#include "graph/edge_slice.hpp"
#include "mpi/comm.hpp"

namespace g500 {

class EdgeSource {
 public:
  virtual ~EdgeSource() = default;

  std::int64_t global_tuples() const { return global_; }
  std::int64_t first() const { return first_; }
  std::int64_t count() const { return count_; }

  // Tuples first() + offset, ... into `out`, in order. Uses the OpenMP team; the tuples do not
  // depend on its size.
  virtual void read(std::int64_t offset, std::span<Edge> out) const = 0;
  // Whether the tuples carry weights (in [0, 1), for SSSP), and those of tuples first() + offset, ...
  virtual bool has_weights() const { return false; }
  virtual void read_weights(std::int64_t offset, std::span<float> out) const {
    throw std::logic_error("this edge source has no weights");
  }
  // Whether read() of a small range is cheap and safe on several threads at once (a generator, or
  // tuples in memory; not a file, whose reads re-parse from a checkpoint through MPI-IO).
  virtual bool reads_in_pieces() const { return false; }
  // Where the tuples come from, for the report.
  virtual std::string describe() const = 0;
  // Internal ids (0 .. N-1) to the ids the user knows (a graph file's own, from 1 in Matrix Market,
  // or its sparse ids before relabelling), and back (-1 for an id no vertex has). -1 stays -1.
  // Collective for a source that relabels; the identity by default.
  virtual void to_file_ids(std::span<vertex_t> ids) const {}
  virtual void to_internal_ids(std::span<vertex_t> ids) const {}

 protected:
  // Rank `rank` of `ranks` reads [global * rank / ranks, global * (rank + 1) / ranks).
  EdgeSource(std::int64_t global, int rank, int ranks)
      : global_(global), first_(slice_begin(global, rank, ranks)), count_(slice_begin(global, rank + 1, ranks) - first_) {}
  // A share the source has chosen itself (a text file's lines that start in the rank's bytes).
  struct Share {
    std::int64_t global, first, count;
  };
  explicit EdgeSource(Share share) : global_(share.global), first_(share.first), count_(share.count) {}

 private:
  std::int64_t global_;
  std::int64_t first_;
  std::int64_t count_;
};

// Tuples held in memory: an EdgeSlice.
class SliceSource : public EdgeSource {
 public:
  SliceSource(EdgeSlice slice, int rank, int ranks) : EdgeSource(slice.global_edges, rank, ranks), slice_(std::move(slice)) {}
  void read(std::int64_t offset, std::span<Edge> out) const override {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = slice_.edges[offset + i];
  }
  bool has_weights() const override { return !slice_.weights.empty(); }
  void read_weights(std::int64_t offset, std::span<float> out) const override {
    if (!has_weights()) EdgeSource::read_weights(offset, out);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = slice_.weights[offset + i];
  }
  bool reads_in_pieces() const override { return true; }
  std::string describe() const override { return "in memory"; }
  const EdgeSlice& slice() const { return slice_; }

 private:
  EdgeSlice slice_;
};

// Collective: visit(offset, span of tuples) over this rank's share in rounds of at most `round`
// tuples, read into one reused buffer. Every rank runs as many rounds as the busiest one (with
// empty spans after its share), since visits may be collective.
template <class Visit>
void for_each_round(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, Visit&& visit) {
  big_vector<Edge> buffer;
  exchange::in_rounds(comm, source.count(), round, [&](std::int64_t first, std::int64_t last) {
    buffer.resize(last - first);
    source.read(first, buffer);
    visit(first, std::span<const Edge>(buffer.data(), buffer.size()));
    report_pass(last, source.count());
  });
}

// for_each_round with the weights of each round's tuples too: visit(offset, tuples, weights).
template <class Visit>
void for_each_weighted_round(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, Visit&& visit) {
  big_vector<float> weights;
  for_each_round(source, comm, round, [&](std::int64_t first, std::span<const Edge> edges) {
    weights.resize(edges.size());
    source.read_weights(first, weights);
    visit(first, edges, std::span<const float>(weights.data(), weights.size()));
  });
}

namespace detail {

// scan_in_pieces, with each piece's weights (Weighted) or without.
template <bool Weighted, class Scan, class AfterRound>
void scan_pieces(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, Scan&& scan,
                 AfterRound&& after_round) {
  constexpr std::int64_t kPiece = 4096;  // 64 KB of tuples: inside L2 beside what the scan reads
  const auto visit = [&](std::span<const Edge> edges, std::span<const float> weights) {
    if constexpr (Weighted) scan(omp_get_thread_num(), edges, weights);
    else scan(omp_get_thread_num(), edges);
  };
  if (!source.reads_in_pieces()) {
    const auto whole_round = [&](std::int64_t, std::span<const Edge> edges, std::span<const float> weights) {
      const std::int64_t n = static_cast<std::int64_t>(edges.size());
#pragma omp parallel for schedule(static)
      for (std::int64_t p = 0; p < n; p += kPiece) {
        const std::int64_t len = std::min(kPiece, n - p);
        visit(edges.subspan(p, len), Weighted ? weights.subspan(p, len) : weights);
      }
      after_round();
    };
    if constexpr (Weighted) for_each_weighted_round(source, comm, round, whole_round);
    else for_each_round(source, comm, round, [&](std::int64_t first, std::span<const Edge> edges) { whole_round(first, edges, {}); });
    return;
  }
  exchange::in_rounds(comm, source.count(), round, [&](std::int64_t first, std::int64_t last) {
#pragma omp parallel
    {
      std::vector<Edge> piece(kPiece);
      std::vector<float> piece_weights(Weighted ? kPiece : 0);
#pragma omp for schedule(dynamic, 4)
      for (std::int64_t p = first; p < last; p += kPiece) {
        const std::int64_t len = std::min(kPiece, last - p);
        const std::span<Edge> edges(piece.data(), len);
        source.read(p, edges);  // the team is busy, so the source's own loop runs on this thread
        std::span<float> weights;
        if constexpr (Weighted) {
          weights = std::span<float>(piece_weights.data(), len);
          source.read_weights(p, weights);
        }
        visit(std::span<const Edge>(edges), std::span<const float>(weights));
      }
    }
    after_round();
    report_pass(last, source.count());
  });
}

}  // namespace detail

// Collective: scan(thread, tuples) on the OpenMP team over all of this rank's share, and
// after_round() once per round of at most `round` tuples (for collective work, an exchange say),
// as many rounds on every rank. A source that reads in pieces is made piece by piece on each
// thread, so a piece is scanned while it is still in cache; any other is read a round at a time.
template <class Scan, class AfterRound>
void scan_in_pieces(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, Scan&& scan,
                    AfterRound&& after_round) {
  detail::scan_pieces<false>(source, comm, round, scan, after_round);
}

// scan_in_pieces with the pieces' weights: scan(thread, tuples, weights).
template <class Scan, class AfterRound>
void scan_weighted_in_pieces(const EdgeSource& source, const mpi::Comm& comm, std::int64_t round, Scan&& scan,
                             AfterRound&& after_round) {
  detail::scan_pieces<true>(source, comm, round, scan, after_round);
}

}  // namespace g500
