#pragma once
// How the bulk exchanges (exchange/owner_buckets.hpp) keep items before they leave: per-rank
// buckets or queues sorted by destination; the choice and what each costs a rank for the memory
// estimate. A plain header, for the harness and the estimate.
#include <cstdint>

#include "core/padded.hpp"

namespace g500::exchange {

enum class BucketLayout { automatic, per_rank, queued };

// The run's choice (--owner-buckets), set once by the harness before any exchange is made.
inline BucketLayout g_bucket_layout = BucketLayout::automatic;

// Per-rank buckets while threads x ranks of them stay within this many (4 MiB of lines a set).
inline constexpr std::int64_t kMostBuckets = std::int64_t{1} << 16;

inline bool queues_items(int num_ranks, int num_threads, BucketLayout layout = g_bucket_layout) {
  if (layout != BucketLayout::automatic) return layout == BucketLayout::queued;
  return static_cast<std::int64_t>(num_ranks) * num_threads > kMostBuckets;
}

// What a rank holds for each rank, for the memory estimate: up to four sets of buckets at once (the
// validation's routed scan holds two, its confirmer one, the levels' pairs one), a cache line each
// for each thread, or nothing where items are queued; the traffic counters' bytes to and node of
// every peer and the exchanges' counts and displacements, about ten vectors of 8 bytes a rank.
inline double bytes_for_each_rank(int num_ranks, int num_threads) {
  return (queues_items(num_ranks, num_threads) ? 0.0 : 4.0 * num_threads * kCacheLine) + 10 * 8;
}
// Queued: beside a round's items, each one's destination and the round's sorted copy, kept from
// round to round: about a round of 2^19 items of up to 24 bytes with two 4-byte destinations each
// (exchange/rounds.hpp), for two sets at once (the validation's routed scan sorts two).
inline double queued_round_bytes(int num_ranks, int num_threads) {
  return queues_items(num_ranks, num_threads) ? 2 * 32.0 * (1 << 19) : 0.0;
}

}  // namespace g500::exchange
