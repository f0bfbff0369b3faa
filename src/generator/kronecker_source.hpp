#pragma once
// The Kronecker generator as an edge source: any range of tuples is made again on demand, so no
// rank keeps its share of the list between passes.
#include <string>

#include "generator/kronecker.hpp"
#include "graph/edge_source.hpp"

namespace g500 {

class KroneckerSource : public EdgeSource {
 public:
  KroneckerSource(const KroneckerGenerator& gen, int rank, int ranks) : EdgeSource(gen.num_edges(), rank, ranks), gen_(gen) {}
  void read(std::int64_t offset, std::span<Edge> out) const override { gen_.edges(first() + offset, out); }
  bool has_weights() const override { return true; }
  void read_weights(std::int64_t offset, std::span<float> out) const override {
    const std::int64_t n = static_cast<std::int64_t>(out.size()), first = this->first() + offset;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) out[i] = gen_.weight(first + i);
  }
  bool reads_in_pieces() const override { return true; }
  std::string describe() const override { return "kronecker (regenerated on each pass)"; }

 private:
  KroneckerGenerator gen_;
};

}  // namespace g500
