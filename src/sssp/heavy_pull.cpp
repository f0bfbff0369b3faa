// The heavy step's choice between pushing and pulling, and the pull (Chakaravarthy et al., IPDPS
// 2014): DeltaStepping's members that read the bucket's copy (sssp/bucket_copy.hpp), kept apart
// from the bucket loop of delta_stepping.cpp.
#include <omp.h>

#include <algorithm>
#include <limits>

#include "sssp/delta_stepping.hpp"

namespace g500 {

template <class Column>
std::int64_t DeltaStepping<Column>::heavy_entries(std::span<const local_t> fresh) const {
  std::int64_t heavy = 0;
#pragma omp parallel for schedule(static) reduction(+ : heavy)
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    const local_t u = fresh[i];
    heavy += csr_.offsets[u + 1] - csr_.offsets[u] - light_[u];
  }
  return heavy;
}

template <class Column>
bool DeltaStepping<Column>::pull_heavy(std::int64_t b, std::span<const local_t> fresh, std::int64_t heavy) {
  if (options_.heavy == HeavyDirection::push) return false;
  const bool told = options_.heavy == HeavyDirection::pull;
  if (!told) {
    std::int64_t work[2] = {heavy, with_edges_ - settled_here_};  // entries to push, vertices to pull
    comm_.allreduce_inplace<std::int64_t>(work, mpi::Op::sum);
    if (static_cast<double>(work[0]) <= kPullEdgesPerUnsettled * static_cast<double>(work[1])) return false;
  }
  if (form_ != Replicas::hubs) return true;
  // Pulling by asking: the bucket's nearest member bounds what can be asked about. A question and
  // its reply cost about what a pushed request does, so automatic pulls only when it asks about
  // fewer entries than a push would send.
  pull_.asked_lowest = nearest_member(fresh);
  if (!pull_.open_ready) list_open_vertices(omp_get_max_threads());
  const std::int64_t asking = count_asks(b, pull_.asked_lowest);
  if (told) return true;
  std::int64_t work[2] = {heavy, asking};
  comm_.allreduce_inplace<std::int64_t>(work, mpi::Op::sum);
  return work[1] < work[0];
}

template <class Column>
float DeltaStepping<Column>::nearest_member(std::span<const local_t> fresh) const {
  float lowest = std::numeric_limits<float>::infinity();
  for (const local_t v : fresh) lowest = std::min(lowest, labels_.dist(v));
  return comm_.allreduce(lowest, mpi::Op::min);
}

template <class Column>
edge_count_t DeltaStepping<Column>::pull_end(local_t v, float lowest, float dv) const {
  edge_count_t lo = csr_.offsets[v] + light_[v], hi = csr_.offsets[v + 1];
  while (lo < hi) {  // the first entry whose weight from `lowest` offers no less than dv
    const edge_count_t mid = lo + (hi - lo) / 2;
    if (lowest + csr_.weight(mid) > dv) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

template <class Column>
std::int64_t DeltaStepping<Column>::count_asks(std::int64_t b, float lowest) {
  pull_.asks.resize(pull_.open.size());
  std::int64_t entries = 0;
#pragma omp parallel for schedule(static) reduction(+ : entries)
  for (std::size_t i = 0; i < pull_.open.size(); ++i) {
    const local_t v = pull_.open[i];
    const float dv = labels_.dist(v);
    pull_.asks[i] = bucket_of(dv) > b ? pull_end(v, lowest, dv) - (csr_.offsets[v] + light_[v]) : 0;
    entries += pull_.asks[i];
  }
  return entries;
}

template <class Column>
void DeltaStepping<Column>::list_open_vertices(int threads) {
  if (static_cast<int>(pull_.still_open.size()) < threads) pull_.still_open.resize(threads);
#pragma omp parallel num_threads(threads)
  {
    std::vector<local_t>& mine = pull_.still_open[omp_get_thread_num()].value;
    mine.clear();
#pragma omp for schedule(static)
    for (local_t v = 0; v < part_.local_count(); ++v)
      if (csr_.offsets[v] + light_[v] < csr_.offsets[v + 1]) mine.push_back(v);
  }
  pull_.open.clear();
  for (const auto& mine : pull_.still_open) pull_.open.insert(pull_.open.end(), mine.value.begin(), mine.value.end());
  pull_.open_ready = true;
}

template <class Column>
template <bool kGhosts>
typename DeltaStepping<Column>::PullOffer DeltaStepping<Column>::best_pull_offer(std::int64_t b, edge_count_t begin,
                                                                                 edge_count_t end, float lowest,
                                                                                 float dv,
                                                                                 std::int64_t& examined) const {
  PullOffer best;
  // Rows ascend by weight: past lowest + w >= what v has, no member can offer less.
  for (edge_count_t k = begin; k < end; ++k) {
    const float w = csr_.weight(k);
    if (lowest + w > std::min(best.dist, dv)) break;
    ++examined;
    const vertex_t u = static_cast<vertex_t>(csr_.column(k));
    float du;
    if constexpr (kGhosts) {
      // A ghost settled in b: of this heavy step, or of an earlier one of b's, whose offer (made
      // then) is made again and changes nothing.
      du = ghosts_.dist(k);
      if (bucket_of(du) != b) continue;
    } else {
      if (!pull_.bucket_copy.contains(u)) continue;
      du = pull_.bucket_copy.dist(u);
    }
    const float d = du + w;
    const bool flat = is_flat(du, d);
    // Least (distance, flat, parent), the order of Labels::offer.
    if (d < best.dist || (d == best.dist && (flat < best.flat || (flat == best.flat && u < best.parent)))) {
      best = {d, u, flat};
    }
  }
  return best;
}

template <class Column>
void DeltaStepping<Column>::pull(std::int64_t b, std::span<const local_t> fresh, Counts& counts) {
  if (form_ == Replicas::hubs) return pull_by_asking(b, counts);
  // Ghosts: every ghost settled in b knows its distance already (the notices before the heavy step).
  if (form_ == Replicas::ghosts) return pull_open<true>(b, nearest_member(fresh), counts);
  pull_.bucket_copy.gather(comm_, part_, fresh, [&](local_t v) { return labels_.dist(v); });
  pull_open<false>(b, pull_.bucket_copy.lowest(), counts);
}

template <class Column>
template <bool kGhosts>
void DeltaStepping<Column>::pull_open(std::int64_t b, float lowest, Counts& counts) {
  // Each thread keeps its contiguous share's vertices still open after a pull, in order.
  const int threads = omp_get_max_threads();
  pull_.still_open.resize(threads);  // kept from pull to pull: fresh pages cost more than the scan
  if (!pull_.open_ready) list_open_vertices(threads);
  std::int64_t examined = 0, useful = 0, reached = 0;
#pragma omp parallel num_threads(threads) reduction(+ : examined, useful, reached)
  {
    const int t = omp_get_thread_num(), n_threads = omp_get_num_threads();
    // This thread's contiguous share, its still open vertices written without a branch.
    const std::size_t lo = pull_.open.size() * t / n_threads, hi = pull_.open.size() * (t + 1) / n_threads;
    std::vector<local_t>& keep = pull_.still_open[t].value;
    keep.resize(hi - lo);
    std::size_t kept = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      // Open vertices ascend, but their heavy rows start far apart: a miss each, asked ahead.
      if (i + kRowPrefetch < hi) {
        const local_t soon = pull_.open[i + kRowPrefetch];
        const edge_count_t heavy = csr_.offsets[soon] + light_[soon];
        __builtin_prefetch(csr_.address(heavy));
      }
      const local_t v = pull_.open[i];
      const float dv = labels_.dist(v);
      const bool open = bucket_of(dv) > b;  // else settled: never pulls again
      const edge_count_t begin = csr_.offsets[v] + light_[v], end = csr_.offsets[v + 1];
      keep[kept] = v;
      // Most vertices cannot gain (past the first pull, even v's lightest heavy edge from the
      // bucket's nearest member offers no less than v has) or are settled: decided with one branch
      // that guesses well, and `open` counted rather than tested.
      if (lowest + csr_.weight(begin) > dv || !open) {
        kept += open;
        continue;
      }
      const PullOffer best = best_pull_offer<kGhosts>(b, begin, end, lowest, dv, examined);
      const Offered offered =
          best.parent >= 0 ? labels_.offer(v, best.dist, static_cast<Column>(best.parent), best.flat) : kRefused;
      if (offered) {
        ++useful;
        reached += offered == kReached;
        bins_.push(t, bucket_of(best.dist), v);
      }
      kept += bucket_of(std::min(best.dist, dv)) > b;
    }
    keep.resize(kept);
  }
  pull_.open.clear();
  for (const auto& keep : pull_.still_open) pull_.open.insert(pull_.open.end(), keep.value.begin(), keep.value.end());
  counts.relaxations += examined;
  counts.useful += useful;
  counts.reached += reached;
}

// Pulling without a copy of the bucket: each open vertex asks the owners of its heavy neighbours
// that could still offer less than it has (those within its distance of the bucket's nearest
// member, a prefix of its heavy row) for their distance if they are members of the bucket (settled
// in it: in_bucket_), in pieces of about kRelaxRound questions, each rank as many as the busiest;
// then takes the best offer as the copy's pull does. Each vertex's count of questions is
// count_asks's, made by pull_heavy for this bucket. Memory: a piece's questions and replies.
template <class Column>
void DeltaStepping<Column>::pull_by_asking(std::int64_t b, Counts& counts) {
  const auto heavy_begin = [&](local_t v) { return csr_.offsets[v] + light_[v]; };
  std::vector<std::size_t> ends;
  exchange::piece_ends(
      pull_.open.size(), [&](std::size_t i) { return pull_.asks[i]; }, exchange::kRelaxRound, ends);
  const std::int64_t pieces = comm_.allreduce<std::int64_t>(static_cast<std::int64_t>(ends.size()), mpi::Op::max);
  std::vector<local_t> still_open;
  std::int64_t asked = 0, remote = 0, useful = 0, reached = 0;
  const int me = comm_.rank();
  for (std::int64_t p = 0; p < pieces; ++p) {
    const auto [lo, hi] = exchange::piece_range(ends, p);
    pull_.questions.clear();
    for (std::size_t i = lo; i < hi; ++i) {
      const local_t v = pull_.open[i];
      for (edge_count_t k = heavy_begin(v), end = heavy_begin(v) + pull_.asks[i]; k < end; ++k) {
        pull_.questions.push_back(csr_.column(k));
        remote += part_.owner(static_cast<vertex_t>(csr_.column(k))) != me;
      }
    }
    pull_.replies.resize(pull_.questions.size());
    pull_.asker.ask(
        std::span<const Column>(pull_.questions), std::span<float>(pull_.replies),
        [](Column u) { return static_cast<vertex_t>(u); },
        [&](Column u) {
          const local_t lu = part_.to_local(static_cast<vertex_t>(u));
          return in_bucket_.test(lu) ? labels_.dist(lu) : std::numeric_limits<float>::infinity();
        });
    asked += static_cast<std::int64_t>(pull_.questions.size());
    // Each vertex's best offer, in the order of Labels::offer: least (distance, flat, parent).
    std::size_t q = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const local_t v = pull_.open[i];
      const float dv = labels_.dist(v);
      const bool open = bucket_of(dv) > b;
      PullOffer best;
      for (edge_count_t k = heavy_begin(v), end = heavy_begin(v) + pull_.asks[i]; k < end; ++k, ++q) {
        const float du = pull_.replies[q], d = du + csr_.weight(k);
        const bool flat = is_flat(du, d);
        const vertex_t u = static_cast<vertex_t>(csr_.column(k));
        if (d < best.dist || (d == best.dist && (flat < best.flat || (flat == best.flat && u < best.parent)))) {
          best = {d, u, flat};
        }
      }
      if (best.parent >= 0) {
        if (const Offered offered = labels_.offer(v, best.dist, static_cast<Column>(best.parent), best.flat)) {
          ++useful;
          reached += offered == kReached;
          bins_.push(0, bucket_of(best.dist), v);
        }
      }
      if (open && bucket_of(std::min(best.dist, dv)) > b) still_open.push_back(v);
    }
  }
  // Every open vertex was in one piece, so still_open holds all that stay open.
  pull_.open.swap(still_open);
  counts.relaxations += asked;
  counts.useful += useful;
  counts.reached += reached;
  counts.asked_bytes += remote * static_cast<std::int64_t>(sizeof(Column) + sizeof(float));
}

template std::int64_t DeltaStepping<std::uint32_t>::heavy_entries(std::span<const local_t>) const;
template std::int64_t DeltaStepping<vertex_t>::heavy_entries(std::span<const local_t>) const;
template bool DeltaStepping<std::uint32_t>::pull_heavy(std::int64_t, std::span<const local_t>, std::int64_t);
template bool DeltaStepping<vertex_t>::pull_heavy(std::int64_t, std::span<const local_t>, std::int64_t);
template void DeltaStepping<std::uint32_t>::pull(std::int64_t, std::span<const local_t>, Counts&);
template void DeltaStepping<vertex_t>::pull(std::int64_t, std::span<const local_t>, Counts&);

}  // namespace g500
