#include "sssp/delta_stepping.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/timer.hpp"
#include "exchange/rounds.hpp"
#include "graph/degree_code.hpp"
#include "sssp/flat_parents.hpp"

namespace g500 {
namespace {

// Clears `listed` set bits of `bits`: through `each_id`, which calls its argument with each one's
// index, or all the words at once when the ids are so many that this costs less.
template <class EachId>
void unmark(Bitmap& bits, std::size_t listed, EachId&& each_id) {
  if (listed * kWordBits < static_cast<std::size_t>(bits.num_words())) each_id([&](local_t v) { bits.reset(v); });
  else bits.clear();
}

}  // namespace

template <class Column>
DeltaStepping<Column>::DeltaStepping(const mpi::Comm& comm, const Partition1D& part, SsspOptions options)
    : comm_(comm),
      part_(part),
      options_(options),
      per_delta_(1.0 / static_cast<double>(options.delta)),
      csr_{part, {}, {}},
      bins_(omp_get_max_threads()),
      shares_(omp_get_max_threads()),
      requests_(comm.size(), omp_get_max_threads(), "sssp.relaxations"),
      form_(replicas_form(options)) {}

template <class Column>
void DeltaStepping<Column>::build(const EdgeSource& source) {
  csr_ = build_weighted_csr_1d<Column>(source, part_, comm_, exchange::build_round(comm_.size()));
  light_.resize(part_.local_count());
#pragma omp parallel for schedule(static)
  for (local_t i = 0; i < part_.local_count(); ++i) {
    light_[i] = static_cast<std::uint32_t>(csr_.light_end(i, options_.delta) - csr_.offsets[i]);
  }
  with_edges_ = 0;
#pragma omp parallel for reduction(+ : with_edges_)
  for (local_t i = 0; i < part_.local_count(); ++i) with_edges_ += csr_.degree(i) > 0;
  const bool sparse = settle_sssp_exchange(options_.exchange, comm_.size()) == SsspExchange::sparse;
  if (sparse && !sparse_) sparse_ = std::make_unique<exchange::SparseExchange<Relaxation>>(comm_);
  in_round_ = Bitmap(part_.local_count());
  in_bucket_ = Bitmap(part_.local_count());
  if (options_.prune && form_ == Replicas::hubs) {
    finished_.keep_hubs_only(comm_, part_, [&](local_t i) { return degree_code(csr_.degree(i)); });
  }
  if (form_ == Replicas::ghosts) ghosts_.build(comm_, part_, csr_, sparse);
}

template <class Column>
template <class First, class Last>
void DeltaStepping<Column>::relax(std::span<const local_t> from, First&& first, Last&& last, Counts& counts) {
  if (form_ == Replicas::ghosts)
    relax_rows<true>(from, first, last, counts);
  else
    relax_rows<false>(from, first, last, counts);
}

template <class Column>
template <bool kGhosts, class First, class Last>
void DeltaStepping<Column>::relax_rows(std::span<const local_t> from, First&& first, Last&& last, Counts& counts) {
  const int me = comm_.rank();
  const bool prune = options_.prune;
  std::int64_t relaxations = 0, useful = 0, remote = 0, pruned = 0, reached = 0;
#pragma omp parallel reduction(+ : relaxations, useful, remote, pruned, reached)
  {
    const int t = omp_get_thread_num();
#pragma omp for schedule(dynamic, 64)
    for (std::size_t i = 0; i < from.size(); ++i) {
      // The vertices lie scattered: each one's label, offsets and light count are a miss, then
      // its row's entries. Ask for the first three 2 * kRowPrefetch vertices ahead,
      // and for the row kRowPrefetch ahead, whose offsets have arrived by then.
      if (i + 2 * kRowPrefetch < from.size()) {
        const local_t later = from[i + 2 * kRowPrefetch];
        __builtin_prefetch(&csr_.offsets[later]);
        __builtin_prefetch(&light_[later]);
        __builtin_prefetch(labels_.address(later));
      }
      if (i + kRowPrefetch < from.size()) {
        const edge_count_t soon = first(from[i + kRowPrefetch]);
        __builtin_prefetch(csr_.address(soon));
      }
      const local_t u = from[i];
      const Column parent = static_cast<Column>(part_.to_global(u));
      const float du = labels_.dist(u);
      const edge_count_t end = last(u);
      relaxations += end - first(u);
      for (edge_count_t k = first(u); k < end; ++k) {
        const Column to = csr_.column(k);
        const vertex_t v = static_cast<vertex_t>(to);
        // Pruning: v settled in a bucket before this one, as the form knows it.
        bool finished;
        if constexpr (kGhosts)
          finished = prune && bucket_of(ghosts_.dist(k)) < bucket_now_;
        else
          finished = prune && finished_.contains(v);
        if (finished) {
          ++pruned;
          continue;
        }
        const float d = du + csr_.weight(k);
        const int owner = part_.owner(v);
        if (owner == me) {
          const local_t lv = part_.to_local(v);
          if (const Offered offered = labels_.offer(lv, d, parent, is_flat(du, d))) {
            ++useful;
            reached += offered == kReached;
            bins_.push(t, bucket_of(d), lv);
          }
        } else {
          requests_.push(t, owner, Relaxation{to, parent, with_flat_bit(d, is_flat(du, d))});
          ++remote;
        }
      }
    }
  }
  counts.relaxations += relaxations;
  counts.useful += useful;
  counts.remote += remote;
  counts.pruned += pruned;
  counts.reached += reached;
}

template <class Column>
void DeltaStepping<Column>::exchange(Counts& counts) {
  if (sparse_)
    requests_.exchange_sparse(*sparse_, arrived_);
  else
    requests_.exchange(comm_, arrived_);
  std::int64_t useful = 0, reached = 0;
#pragma omp parallel reduction(+ : useful, reached)
  {
    const int t = omp_get_thread_num();
#pragma omp for schedule(static)
    for (std::size_t i = 0; i < arrived_.size(); ++i) {
      const Relaxation& r = arrived_[i];
      const local_t v = part_.to_local(static_cast<vertex_t>(r.vertex));
      const float d = without_flat_bit(r.dist);
      if (const Offered offered = labels_.offer(v, d, r.parent, flat_bit(r.dist))) {
        ++useful;
        reached += offered == kReached;
        bins_.push(t, bucket_of(d), v);
      }
    }
  }
  counts.useful += useful;
  counts.reached += reached;
  remote_at_exchange_ = counts.remote;
}

template <class Column>
template <class First, class Last>
std::int64_t DeltaStepping<Column>::pieces(std::span<const local_t> from, First&& first, Last&& last,
                                           std::int64_t entries, std::vector<std::size_t>& ends) {
  if (entries < exchange::kRelaxRound) {  // one piece, without a scan of the rows
    ends.assign(from.empty() ? 0 : 1, from.size());
  } else {
    exchange::piece_ends(from.size(), [&](std::size_t i) { return last(from[i]) - first(from[i]); },
                         exchange::kRelaxRound, ends);
  }
  // Alone, a rank has nothing to agree on.
  if (comm_.size() == 1) return static_cast<std::int64_t>(ends.size());
  return comm_.allreduce<std::int64_t>(static_cast<std::int64_t>(ends.size()), mpi::Op::max);
}

template <class Column>
template <class First, class Last>
std::int64_t DeltaStepping<Column>::relax_in_pieces(std::span<const local_t> from, First&& first, Last&& last,
                                                    std::int64_t entries, Counts& counts,
                                                    const std::function<void()>& before_last_exchange) {
  std::vector<std::size_t> ends;
  // Alone, a rank queues nothing to send: one piece whatever its size.
  const std::int64_t n = pieces(from, first, last, comm_.size() == 1 ? 0 : entries, ends);
  for (std::int64_t p = 0; p < n; ++p) {
    const auto [lo, hi] = exchange::piece_range(ends, p);
    relax(from.subspan(lo, hi - lo), first, last, counts);
    if (p == n - 1 && before_last_exchange) before_last_exchange();
    exchange(counts);
  }
  return n;
}

template <class Column>
void DeltaStepping<Column>::search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist,
                                   SsspProfile* profile) {
  const std::size_t first_record = profile ? profile->size() : 0;
  start_search(root, parents, dist);
  for (std::int64_t b = 0;;) {
    const Timer timer;
    BucketRecord rec;
    rec.bucket = b;
    bucket_now_ = b;
    const BucketPlan plan = plan_bucket(b);
    rec.whole_rows = plan.whole_rows;
    Counts light, heavy;
    std::int64_t next = b;
    start_bucket();
    // A heavy edge may round down into b itself (du + w just under (b + 1) delta), so the bucket
    // is done only when no rank holds a vertex in it after its heavy edges.
    for (std::size_t heavy_done = 0; next == b; heavy_done = members_.size()) {
      relax_light(b, plan, rec, light);
      // The members' distances are final: their heavy edges once (unless relaxed with the rows).
      const std::span<const local_t> fresh(members_.data() + heavy_done, members_.size() - heavy_done);
      settled_here_ += static_cast<std::int64_t>(fresh.size());
      // Ghosts: the ranks whose rows reach them learn their distances, for pruning and pulls.
      if (form_ == Replicas::ghosts) ghosts_.notify(comm_, fresh, [&](local_t v) { return labels_.dist(v); });
      if (!plan.whole_rows) rec.pulled = relax_heavy(b, fresh, heavy) || rec.pulled;
      const std::int64_t mine = bins_.holds(b) ? b : bins_.next_after(b, [&](local_t v) { return bucket_of_vertex(v); });
      next = comm_.allreduce(mine, mpi::Op::min);
    }
    record_bucket(rec, light, heavy, timer.seconds(), profile);
    if (next == Bins::kNone) break;
    b = next_bucket(next);
  }
  finish_search(parents, dist);
  if (profile) sum_over_ranks(std::span(*profile).subspan(first_record));
}

template <class Column>
void DeltaStepping<Column>::release_search_buffers() {
  // The lists below name the bits still set: cleared whole first.
  in_round_.clear();
  in_bucket_.clear();
  bins_.release();
  for (auto& share : shares_) {
    release_storage(share.value.frontier);
    release_storage(share.value.members);
    share.value.entries = 0;
  }
  requests_.release();
  for (auto* list : {&frontier_, &round_vertices_, &members_}) release_storage(*list);
  release_storage(arrived_);
  pull_.release();
  ghosts_.release_search_buffers();
}

template <class Column>
void DeltaStepping<Column>::start_search(vertex_t root, std::span<vertex_t> parents, std::span<float> dist) {
  labels_.reset(parents, dist);
  bins_.clear(0);
  settled_here_ = 0;
  reached_here_ = part_.owns(root) ? 1 : 0;
  tail_from_ = kLastBucket;
  pull_.open_ready = false;
  pulled_before_ = past_peak_ = false;
  if (form_ == Replicas::ghosts)
    ghosts_.reset();
  else if (options_.prune)
    finished_.reset(part_);
  if (part_.owns(root)) {
    const local_t r = part_.to_local(root);
    labels_.offer(r, 0, static_cast<Column>(root), false);
    bins_.push(0, 0, r);
  }
}

template <class Column>
typename DeltaStepping<Column>::BucketPlan DeltaStepping<Column>::plan_bucket(std::int64_t b) const {
  BucketPlan plan;
  plan.fuse = options_.fusion == Fusion::on || (options_.fusion == Fusion::automatic && comm_.size() == 1);
  // The last bucket (bucket_of) always relaxes whole rows: every edge there is light.
  plan.whole_rows = b == kLastBucket || options_.whole_rows == WholeRows::on ||
                    (options_.whole_rows == WholeRows::automatic && past_peak_);
  return plan;
}

template <class Column>
void DeltaStepping<Column>::start_bucket() {
  unmark(in_bucket_, members_.size(), [&](auto&& reset) {
    for (const local_t v : members_) reset(v);
  });
  members_.clear();
}

template <class Column>
void DeltaStepping<Column>::take_round(std::int64_t b, bool whole_rows) {
  // The last round's vertices leave it.
  std::size_t last_round = 0;
  for (const auto& share : shares_) last_round += share.value.frontier.size();
  unmark(in_round_, last_round, [&](auto&& reset) {
    for (const auto& share : shares_)
      for (const local_t v : share.value.frontier) reset(v);
  });
  for (auto& share : shares_) share.value.frontier.clear(), share.value.members.clear(), share.value.entries = 0;
#pragma omp parallel num_threads(static_cast<int>(shares_.size()))
  {
    const bool alone = omp_get_num_threads() == 1;
    TakeShare& mine = shares_[omp_get_thread_num()].value;
    const auto keep = [&](local_t v) {
      if (in_round_.test(v) || bucket_of_vertex(v) != b) return false;
      if (alone) in_round_.set(v);  // no lock prefix for one thread
      else if (!in_round_.set_atomic(v)) return false;
      if (!in_bucket_.test(v)) {  // only the thread that took v in the round reaches here
        if (alone) in_bucket_.set(v);
        else in_bucket_.set_atomic(v);  // other bits of the word may be set meanwhile
        mine.members.push_back(v);
      }
      mine.entries += whole_rows ? csr_.degree(v) : light_[v];
      return true;
    };
    const auto ahead = [&](local_t v) {
      __builtin_prefetch(labels_.address(v));
      __builtin_prefetch(&csr_.offsets[v]);
      __builtin_prefetch(&light_[v]);
    };
    bins_.take_share(b, keep, ahead, mine.frontier);
  }
  bins_.drop(b);
  frontier_.clear();
  frontier_entries_ = 0;
  for (const auto& share : shares_) {
    frontier_entries_ += share.value.entries;
    frontier_.insert(frontier_.end(), share.value.frontier.begin(), share.value.frontier.end());
    members_.insert(members_.end(), share.value.members.begin(), share.value.members.end());
  }
}

template <class Column>
void DeltaStepping<Column>::relax_light(std::int64_t b, const BucketPlan& plan, BucketRecord& rec, Counts& light) {
  const edge_count_t* offsets = csr_.offsets.data();
  const std::uint32_t* light_count = light_.data();
  const auto row_begin = [offsets](local_t u) { return offsets[u]; };
  const auto round_end = [offsets, light_count, whole = plan.whole_rows](local_t u) {
    return whole ? offsets[u + 1] : offsets[u] + light_count[u];
  };
  // A global round each, until no distance in the bucket changes anywhere.
  for (take_round(b, plan.whole_rows);; take_round(b, plan.whole_rows)) {
    round_vertices_.swap(frontier_);  // the fused passes below refill frontier_
    const std::int64_t pieces_sent = relax_in_pieces(round_vertices_, row_begin, round_end, frontier_entries_, light, [&] {
      // Fusion: this rank's own vertices that fell back into b, relaxed before the exchange
      // while the queued requests stay within a piece's size.
      while (plan.fuse && light.remote - remote_at_exchange_ < exchange::kRelaxRound && bins_.holds(b)) {
        take_round(b, plan.whole_rows);
        if (frontier_.empty()) break;
        relax(frontier_, row_begin, round_end, light);
        ++rec.fused_rounds;
      }
    });
    if (pieces_sent == 0) break;  // no rank had a vertex in b
    ++rec.light_rounds;
  }
}

template <class Column>
bool DeltaStepping<Column>::relax_heavy(std::int64_t b, std::span<const local_t> fresh, Counts& heavy) {
  const std::int64_t heavy_here = heavy_entries(fresh);
  if (pull_heavy(b, fresh, heavy_here)) {
    pull(b, fresh, heavy);
    return true;
  }
  const edge_count_t* offsets = csr_.offsets.data();
  const std::uint32_t* light_count = light_.data();
  relax_in_pieces(
      fresh, [offsets, light_count](local_t u) { return offsets[u] + light_count[u]; },
      [offsets](local_t u) { return offsets[u + 1]; }, heavy_here, heavy, nullptr);
  return false;
}

template <class Column>
void DeltaStepping<Column>::record_bucket(BucketRecord& rec, const Counts& light, const Counts& heavy, double seconds,
                                          SsspProfile* profile) {
  // This rank's counts; summed over ranks once the search is done.
  rec.settled = static_cast<std::int64_t>(members_.size());
  reached_here_ += light.reached + heavy.reached;
  rec.light_relaxations = light.relaxations;
  rec.heavy_relaxations = heavy.relaxations;
  rec.useful_relaxations = light.useful + heavy.useful;
  rec.pruned_relaxations = light.pruned + heavy.pruned;
  rec.bytes_sent = (light.remote + heavy.remote) * static_cast<std::int64_t>(sizeof(Relaxation)) + heavy.asked_bytes;
  rec.seconds = seconds;
  if (profile) profile->push_back(rec);
  // WholeRows::automatic's measure: past the peak once a pushed bucket follows a pulled one (every
  // rank decided alike).
  past_peak_ = past_peak_ || (pulled_before_ && !rec.pulled);
  pulled_before_ = pulled_before_ || rec.pulled;
}

template <class Column>
std::int64_t DeltaStepping<Column>::next_bucket(std::int64_t next) {
  // The bucket just done is finished: its members' distances are final on every rank.
  if (options_.prune && form_ != Replicas::ghosts) finished_.add(comm_, part_, members_);
  if (options_.tail && next != kLastBucket) {
    // Open: reached and not yet settled (not the bins' entries, whose stale copies depend on the
    // order offers arrived in, and so on the rank count).
    std::int64_t open_settled[2] = {reached_here_ - settled_here_, settled_here_};
    comm_.allreduce_inplace<std::int64_t>(open_settled, mpi::Op::sum);
    if (static_cast<double>(open_settled[0]) < kTailShare * static_cast<double>(open_settled[1])) {
      tail_from_ = next;
      bins_.collapse_to(kLastBucket);
      next = kLastBucket;
    }
  }
  if (next - bins_.base() >= Bins::kWindow) bins_.advance_to(next, [&](local_t v) { return bucket_of_vertex(v); });
  return next;
}

template <class Column>
void DeltaStepping<Column>::finish_search(std::span<vertex_t> parents, std::span<float> dist) {
  labels_.finish(parents, dist);
  // Overflows and flat labels, summed in one call: most searches have neither.
  std::int64_t found[2] = {labels_.overflowed() ? 1 : 0, static_cast<std::int64_t>(labels_.flat().size())};
  comm_.allreduce_inplace<std::int64_t>(found, mpi::Op::sum);
  // A distance past the largest float cannot be told from unreached: refuse the graph.
  if (found[0]) {
    throw UserError("SSSP: a path's weights sum past the largest float (3.4e38), so its distance cannot be held; "
                    "scale the weights down");
  }
  if (found[1]) order_flat_parents(comm_, part_, csr_, labels_.flat(), parents, dist);
}

template <class Column>
void DeltaStepping<Column>::sum_over_ranks(std::span<BucketRecord> records) const {
  constexpr int kFields = 7;
  std::vector<std::int64_t> sums(records.size() * kFields), most(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const BucketRecord& r = records[i];
    const std::int64_t fields[kFields] = {r.settled, r.light_relaxations, r.heavy_relaxations,
                                          r.useful_relaxations, r.bytes_sent, r.pulled, r.pruned_relaxations};
    std::copy(fields, fields + kFields, sums.begin() + static_cast<std::ptrdiff_t>(i * kFields));
    most[i] = r.fused_rounds;
  }
  comm_.allreduce_inplace<std::int64_t>(sums, mpi::Op::sum);
  comm_.allreduce_inplace<std::int64_t>(most, mpi::Op::max);
  for (std::size_t i = 0; i < records.size(); ++i) {
    BucketRecord& r = records[i];
    const std::int64_t* f = sums.data() + i * kFields;
    r.settled = f[0], r.light_relaxations = f[1], r.heavy_relaxations = f[2];
    r.useful_relaxations = f[3], r.bytes_sent = f[4], r.pulled = f[5] > 0, r.pruned_relaxations = f[6];
    r.fused_rounds = static_cast<int>(most[i]);
  }
}

template class DeltaStepping<std::uint32_t>;
template class DeltaStepping<vertex_t>;

std::unique_ptr<SsspEngine> make_delta_stepping(const mpi::Comm& comm, const Partition1D& part,
                                                const SsspOptions& options, bool ids_32_bit) {
  if (ids_32_bit) return std::make_unique<DeltaStepping<std::uint32_t>>(comm, part, options);
  return std::make_unique<DeltaStepping<vertex_t>>(comm, part, options);
}

EngineMemory delta_stepping_memory_bytes(double vertices, double tuples, int ranks, double id_bytes,
                                         const SsspOptions& options) {
  const double n_local = vertices / ranks + 64, m_local = tuples / ranks + 1;
  const WeightedCsrBytes rows = weighted_csr_1d_bytes(vertices, tuples, ranks, id_bytes);
  const Replicas form = replicas_form(options);
  // Ghosts: each entry's place, each ghost's distance, who to tell (sssp/ghost_replicas.hpp).
  const auto ghosts = form == Replicas::ghosts
                          ? GhostReplicas<std::uint32_t>::bytes(vertices, 2 * m_local, ranks, id_bytes)
                          : GhostReplicas<std::uint32_t>::Bytes{};
  // Kept: the rows, their light counts, the round's and bucket's bits, the ghosts.
  const double kept = rows.kept + 4 * n_local + 2 * n_local / 8 + ghosts.kept;
  // Searching: bins (a vertex in about two at a time), a round and the members,
  double bytes = kept + 8 * n_local + 2 * 4 * n_local;
  // pulling: the open vertices and, with whole replicas, the replicated bucket (bitmap and word
  // counts over all N, distances); with ghosts, the open vertices and a heavy step's notices;
  // or (hubs) by asking: the open vertices twice (before and after a pull) and their counts of
  // entries to ask about, and a piece's questions and replies with what the OwnerQuery holds for
  // them (an owner, a slot, the questions ordered and received, answers and replies back)
  if (form == Replicas::whole)
    bytes += 8 * n_local + 2 * vertices / 8 + 4 * n_local;
  else if (form == Replicas::ghosts)
    bytes += 8 * n_local + ghosts.search;
  else bytes += 3 * 8 * n_local + (4 + 8 + 3 * id_bytes + 3 * 4) * static_cast<double>(exchange::kRelaxRound);
  // pruning: the finished vertices' bits, in their form (ghosts: their distances, counted above)
  if (options.prune && form != Replicas::ghosts)
    bytes += FinishedBits<std::uint32_t>::bytes(form == Replicas::whole, vertices, ranks);
  // relaxation requests (buckets, sent, received, and the sparse exchange's inbox): one piece, plus
  // room for a hub's row that ends it
  const double copies = settle_sssp_exchange(options.exchange, ranks) == SsspExchange::sparse ? 4 : 3;
  bytes += copies * (2 * id_bytes + 4) * std::min(2 * m_local, 2.0 * exchange::kRelaxRound);
  // Building: the rows as they are placed, then the ghosts found from the built rows.
  const double build = std::max(rows.build, rows.kept + 4 * n_local + ghosts.kept + ghosts.build);
  return EngineMemory::of(build, bytes, kept);
}

}  // namespace g500
