#include "io/id_relabel.hpp"

#include <algorithm>

#include "exchange/owner_buckets.hpp"
#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"

namespace g500 {
namespace {

// Owner by sorted range bounds: rank r holds [bounds[r], bounds[r + 1]).
struct RangeOwners {
  const std::vector<vertex_t>* bounds;
  int me;
  int owner(vertex_t v) const {
    const auto it = std::upper_bound(bounds->begin(), bounds->end() - 1, v);
    return std::max(0, static_cast<int>(it - bounds->begin()) - 1);
  }
  bool owns(vertex_t v) const { return owner(v) == me; }
  local_t to_local(vertex_t v) const { return v - (*bounds)[me]; }  // only a prefetch hint
};

}  // namespace

IdRelabel::IdRelabel(const EdgeSource& source, vertex_t id_limit, const mpi::Comm& comm) : comm_(comm) {
  const int p = comm.size();
  bounds_.resize(p + 1);
  for (int r = 0; r <= p; ++r) bounds_[r] = static_cast<vertex_t>(static_cast<__int128>(id_limit) * r / p);
  const RangeOwners owners{&bounds_, comm.rank()};
  exchange::OwnerBuckets<vertex_t> outgoing(p, 1, "relabel.ids");
  std::vector<vertex_t> arrived;
  std::size_t unique_size = 0;
  for_each_round(source, comm, exchange::kBuildRound, [&](std::int64_t, std::span<const Edge> edges) {
    for (const Edge& e : edges) {
      outgoing.push(0, owners.owner(e.u), e.u);
      outgoing.push(0, owners.owner(e.v), e.v);
    }
    outgoing.exchange(comm, arrived);
    mine_.insert(mine_.end(), arrived.begin(), arrived.end());
    // Deduplicate whenever the list has doubled since the last time: linear amortised cost.
    if (mine_.size() > 2 * unique_size + exchange::kBuildRound) {
      std::sort(mine_.begin(), mine_.end());
      mine_.erase(std::unique(mine_.begin(), mine_.end()), mine_.end());
      unique_size = mine_.size();
    }
  });
  std::sort(mine_.begin(), mine_.end());
  mine_.erase(std::unique(mine_.begin(), mine_.end()), mine_.end());
  mine_.shrink_to_fit();
  const std::vector<vertex_t> counts = comm.allgather(static_cast<vertex_t>(mine_.size()));
  first_dense_.assign(p + 1, 0);
  for (int r = 0; r < p; ++r) first_dense_[r + 1] = first_dense_[r] + counts[r];
}

void IdRelabel::to_dense(std::span<vertex_t> ids) const {
  const RangeOwners owners{&bounds_, comm_.rank()};
  exchange::OwnerQuery<vertex_t, vertex_t, RangeOwners> query(comm_, owners);
  const vertex_t first = first_dense_[comm_.rank()];
  std::vector<vertex_t> asked(ids.begin(), ids.end());
  query.ask(std::span<const vertex_t>(asked), ids, [](vertex_t v) { return v; }, [&](vertex_t v) -> vertex_t {
    const auto it = std::lower_bound(mine_.begin(), mine_.end(), v);
    return it != mine_.end() && *it == v ? first + (it - mine_.begin()) : kNoParent;
  });
}

void IdRelabel::to_original(std::span<vertex_t> ids) const {
  const RangeOwners owners{&first_dense_, comm_.rank()};
  exchange::OwnerQuery<vertex_t, vertex_t, RangeOwners> query(comm_, owners);
  const vertex_t first = first_dense_[comm_.rank()];
  std::vector<vertex_t> asked(ids.begin(), ids.end());
  // -1 asks rank 0, which answers -1.
  query.ask(std::span<const vertex_t>(asked), ids, [](vertex_t d) { return std::max<vertex_t>(d, 0); },
            [&](vertex_t d) -> vertex_t { return d < 0 ? kNoParent : mine_[d - first]; });
}

}  // namespace g500
