#pragma once
// Fold packets (exchange/fold_codec.hpp) in per-thread, per-destination buffers: threads add pairs
// without locks, and assemble() lays each destination's packets end to end for one alltoallv;
// since every packet decodes on its own, the receiver splits them again and decodes in parallel.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/padded.hpp"
#include "exchange/fold_codec.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

class PacketBuckets {
 public:
  PacketBuckets(int destinations, int threads, FoldCompression mode, int width, std::size_t packet_bytes)
      : destinations_(destinations),
        slots_(static_cast<std::size_t>(threads) * destinations, Slot{FoldEncoder(mode, width, packet_bytes), {}}) {}

  void clear() {
    for (auto& s : slots_) s.value.out.clear();
  }
  void add(int thread, int dest, std::uint64_t u, std::uint64_t v) {
    const std::size_t k = static_cast<std::size_t>(thread) * destinations_ + dest;
    slots_[k].value.encoder.add(u, v, slots_[k].value.out);
  }
  // Closes the thread's open packets; call once the thread has added its last pair.
  void finish(int thread) {
    for (int d = 0; d < destinations_; ++d) {
      const std::size_t k = static_cast<std::size_t>(thread) * destinations_ + d;
      slots_[k].value.encoder.finish(slots_[k].value.out);
    }
  }
  // Every destination's packets end to end in `send`, with byte counts and displacements.
  void assemble(std::vector<std::uint8_t>& send, mpi::Counts& counts, mpi::Counts& displs) const {
    counts.assign(destinations_, 0);
    for (std::size_t k = 0; k < slots_.size(); ++k) counts[k % destinations_] += static_cast<std::int64_t>(slots_[k].value.out.size());
    displs = mpi::Comm::displacements(counts);
    send.resize(static_cast<std::size_t>(displs.back() + counts.back()));
    mpi::Counts at = displs;
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      const int d = static_cast<int>(k % destinations_);
      const std::vector<std::uint8_t>& out = slots_[k].value.out;
      std::copy(out.begin(), out.end(), send.begin() + at[d]);
      at[d] += static_cast<std::int64_t>(out.size());
    }
  }

 private:
  int destinations_;
  struct Bucket {
    FoldEncoder encoder;
    std::vector<std::uint8_t> out;
  };
  using Slot = Padded<Bucket>;  // a line each: threads add side by side
  std::vector<Slot> slots_;
};

// Decodes, on the OpenMP team, every packet of an alltoallv's receive buffer (by source rank:
// counts and displacements in bytes): on_pair(thread, source, u, v). u_limit(source) and v_limit
// bound the ids; a malformed packet throws FoldPacketError after the team has finished.
template <class ULimit, class OnPair>
void decode_packets(std::span<const std::uint8_t> received, const mpi::Counts& counts,
                    const mpi::Counts& displs, FoldCompression mode, int width, ULimit&& u_limit,
                    std::uint64_t v_limit, OnPair&& on_pair) {
  struct Packet {
    std::span<const std::uint8_t> bytes;
    int source;
  };
  std::vector<Packet> packets;
  for (std::size_t r = 0; r < counts.size(); ++r)
    for (auto p : split_fold_packets(received.subspan(displs[r], counts[r]))) {
      packets.push_back({p, static_cast<int>(r)});
    }
  const std::int64_t n = static_cast<std::int64_t>(packets.size());
  std::string error;
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t k = 0; k < n; ++k) {
      const int src = packets[k].source;
      try {
        decode_fold_packet(packets[k].bytes, mode, width, u_limit(src), v_limit,
                           [&](std::uint64_t u, std::uint64_t v) { on_pair(t, src, u, v); });
      } catch (const FoldPacketError& e) {
#pragma omp critical
        error = e.what();
      }
    }
  }
  if (!error.empty()) throw FoldPacketError(error);
}

}  // namespace g500::exchange
