#include "validate/reached_tuple_counter.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/padded.hpp"
#include "validate/routed_scan.hpp"

namespace g500 {

namespace {

// Bytes a tuple of a round takes: to its first owner and, with the 16 bits of its first end, to
// its second (buckets, sent, received).
double round_bytes_per_tuple(vertex_t n, int ranks) {
  const double id = fits_32_bit(n) ? 4 : 8;
  return 3 * validation::RoutedShare(ranks).bytes(2 * id, 2 * id + 2);
}

}  // namespace

ReachedTupleCounter::ReachedTupleCounter(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                         int batch, std::int64_t chunk)
    : source_(source), part_(part), comm_(comm), batch_(std::clamp(batch, 1, kMaxBatch)),
      chunk_(exchange::validation_round(chunk, round_bytes_per_tuple(part.num_vertices(), comm.size()),
                                        validation::tuples_per_rank(source, comm))) {}

void ReachedTupleCounter::wait(std::span<const vertex_t> parents) {
  if (used_ + 1 >= batch_) throw std::logic_error("ReachedTupleCounter::wait: the batch is full");
  add(parents);
}

void ReachedTupleCounter::add(std::span<const vertex_t> parents) {
  if (reached_.empty()) reached_.assign(static_cast<std::size_t>(part_.local_count()) + 1, 0);
  const std::uint16_t bit = static_cast<std::uint16_t>(1u << used_), keep = static_cast<std::uint16_t>(~bit);
  const local_t count = part_.local_count();
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < count; ++i)
    reached_[i] = static_cast<std::uint16_t>((reached_[i] & keep) | (parents[i] != kNoParent ? bit : 0));
  ++used_;
}

namespace {

// The marks as the routed scan reads them: a vertex's row is its 16 bits.
struct Marks {
  struct Row {
    std::uint16_t bits;
  };
  const std::uint16_t* reached;
  Row row(local_t i) const { return {reached[i]}; }
  const void* address(local_t i) const { return reached + i; }
};

template <class Id>
std::vector<std::int64_t> count_both_reached(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                             std::int64_t chunk, const Marks& marks, int slots) {
  using Batch = std::array<std::int64_t, ReachedTupleCounter::kMaxBatch>;
  std::vector<Padded<Batch>> thread_nedge(omp_get_max_threads());
  validation::RoutedScan<Marks::Row, Id, false>(part, comm).run(
      source, chunk, marks,
      [&](int t, vertex_t, vertex_t, float, const Marks::Row& row_u, local_t v_local) {
        const unsigned both = row_u.bits & marks.reached[v_local];
        Batch& nedge = thread_nedge[t].value;
        for (int s = 0; s < slots; ++s) nedge[s] += (both >> s) & 1u;
      },
      [] {});
  std::vector<std::int64_t> nedge(slots, 0);
  for (const Padded<Batch>& mine : thread_nedge)
    for (int s = 0; s < slots; ++s) nedge[s] += mine.value[s];
  return nedge;
}

}  // namespace

std::vector<std::int64_t> ReachedTupleCounter::count(std::span<const vertex_t> parents) {
  add(parents);
  const int slots = used_;
  const Marks marks{reached_.data()};
  std::vector<std::int64_t> nedge =
      fits_32_bit(part_.num_vertices()) ? count_both_reached<std::uint32_t>(source_, part_, comm_, chunk_, marks, slots)
                                        : count_both_reached<vertex_t>(source_, part_, comm_, chunk_, marks, slots);
  for (std::int64_t& c : nedge) c = comm_.allreduce(c, mpi::Op::sum);
  used_ = 0;
  return nedge;
}

std::int64_t count_reached_tuples(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm,
                                  std::span<const vertex_t> parents, std::int64_t chunk) {
  return ReachedTupleCounter(source, part, comm, 1, chunk).count(parents).front();
}

namespace {

class ReachedTupleValidator final : public SearchValidator {
 public:
  ReachedTupleValidator(const EdgeSource& source, const Partition1D& part, const mpi::Comm& comm, int batch,
                        std::span<const vertex_t> parents)
      : counter_(source, part, comm, batch), parents_(parents) {}
  int batch() const override { return counter_.batch(); }
  void wait(vertex_t) override { counter_.wait(parents_); }
  std::vector<ValidationResult> check(vertex_t) override {
    std::vector<ValidationResult> results;
    for (const std::int64_t nedge : counter_.count(parents_)) results.push_back({true, 0, "", nedge});
    return results;
  }

 private:
  ReachedTupleCounter counter_;
  std::span<const vertex_t> parents_;
};

}  // namespace

std::unique_ptr<SearchValidator> reached_tuple_validator(const EdgeSource& source, const Partition1D& part,
                                                         const mpi::Comm& comm, int batch,
                                                         std::span<const vertex_t> parents) {
  return std::make_unique<ReachedTupleValidator>(source, part, comm, batch, parents);
}

}  // namespace g500
