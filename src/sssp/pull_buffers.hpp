#pragma once
// What the heavy step's pulls (sssp/heavy_pull.cpp) keep from one bucket to the next within a
// search: the bucket's copy on every rank, the vertices still open, and, pulling by asking, the
// questions and replies. They own their memory, so the engine releases them in one call between
// searches, in the room a batch's validation needs.
#include <vector>

#include "core/padded.hpp"
#include "core/big_vector.hpp"
#include "core/types.hpp"
#include "exchange/owner_query.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "sssp/bucket_copy.hpp"

namespace g500 {

template <class Column>
struct PullBuffers {
  PullBuffers(const mpi::Comm& comm, const Partition1D& part) : asker(comm, part) {}

  // Gives back every buffer; the next pull lists the open vertices again.
  void release() {
    bucket_copy = BucketCopy{};
    release_storage(open);
    for (auto& list : still_open) release_storage(list.value);
    open_ready = false;
    asker.release();
    release_storage(asks);
    release_storage(questions);
    release_storage(replies);
  }

  BucketCopy bucket_copy;                                // whole replicas: the current bucket's members, on every rank
  std::vector<local_t> open;                             // this rank's vertices with edges not yet settled
  std::vector<Padded<std::vector<local_t>>> still_open;  // each thread's share of open after a pull
  bool open_ready = false;                               // open lists this search's vertices
  // Pulling by asking (hubs replicas): the least distance among the bucket's fresh members, and
  // the owners asked for their members' distances (a distance, or infinity for a non-member).
  float asked_lowest = 0;
  exchange::OwnerQuery<Column, float, Partition1D> asker;
  std::vector<edge_count_t> asks;  // count_asks's, by place in open
  std::vector<Column> questions;
  std::vector<float> replies;
};

}  // namespace g500
