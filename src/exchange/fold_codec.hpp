#pragma once
// The fold phase's wire format (paper 004 §4.2): edges (u, v) in packets that decode on their own,
// so receiving threads can take packets in parallel. u is an offset in the sender's column range,
// v an index in the receiver's block.
//
// A packet is an 8-byte header (payload bytes, edges; little-endian uint32 each) and its edges:
//   vlq:  u as the signed difference from the packet's previous u (zigzag: 0, -1, 1, -2 ... as
//         0, 1, 2, 3 ...) in a variable-length quantity (7 bits a byte, least significant first,
//         high bit set on all bytes but the last); then v, as the signed difference from the
//         previous v when u repeated (a row's entries for one receiver come in increasing order),
//         else whole. Both restart from 0 in each packet.
//   none: u and v as fixed-width integers of `width` bytes (the engine's id width).
// Senders walk the frontier bitmap in order, so u rises and its differences are mostly one byte.
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

namespace g500::exchange {

enum class FoldCompression { vlq, none };

inline constexpr std::size_t kFoldHeaderBytes = 8;

// A packet that cannot be what a sender wrote: rejected before any byte past its end is read.
class FoldPacketError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline std::uint64_t zigzag(std::uint64_t difference) {
  return (difference << 1) ^ static_cast<std::uint64_t>(static_cast<std::int64_t>(difference) >> 63);
}
inline std::uint64_t unzigzag(std::uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }

class FoldEncoder {
 public:
  FoldEncoder(FoldCompression mode, int width, std::size_t packet_bytes)
      : mode_(mode), width_(width), packet_bytes_(packet_bytes) {}

  // Appends edge (u, v) to `out`, opening a packet when none is open or the open one is full.
  void add(std::uint64_t u, std::uint64_t v, std::vector<std::uint8_t>& out) {
    if (!open_ || out.size() - header_at_ - kFoldHeaderBytes + kMaxEdgeBytes > packet_bytes_) {
      finish(out);
      header_at_ = out.size();
      out.resize(out.size() + kFoldHeaderBytes);
      open_ = true;
      edges_ = 0;
      prev_u_ = prev_v_ = 0;
      first_ = true;
    }
    if (mode_ == FoldCompression::vlq) {
      const bool same_u = !first_ && u == prev_u_;
      put_vlq(zigzag(u - prev_u_), out);
      put_vlq(same_u ? zigzag(v - prev_v_) : v, out);
    } else {
      put_fixed(u, out);
      put_fixed(v, out);
    }
    prev_u_ = u;
    prev_v_ = v;
    first_ = false;
    ++edges_;
  }

  // Closes the open packet, if any, by writing its header.
  void finish(std::vector<std::uint8_t>& out) {
    if (!open_) return;
    const std::uint32_t header[2] = {static_cast<std::uint32_t>(out.size() - header_at_ - kFoldHeaderBytes), edges_};
    std::memcpy(out.data() + header_at_, header, kFoldHeaderBytes);
    open_ = false;
  }

 private:
  static constexpr std::size_t kMaxEdgeBytes = 20;  // two 10-byte quantities, or two 8-byte ids

  void put_vlq(std::uint64_t x, std::vector<std::uint8_t>& out) {
    while (x >= 0x80) {
      out.push_back(static_cast<std::uint8_t>(x | 0x80));
      x >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(x));
  }
  void put_fixed(std::uint64_t x, std::vector<std::uint8_t>& out) {
    for (int b = 0; b < width_; ++b) out.push_back(static_cast<std::uint8_t>(x >> (8 * b)));
  }

  FoldCompression mode_;
  int width_;
  std::size_t packet_bytes_;
  bool open_ = false, first_ = true;
  std::size_t header_at_ = 0;
  std::uint32_t edges_ = 0;
  std::uint64_t prev_u_ = 0, prev_v_ = 0;
};

// The packets of a buffer of whole packets, in order; throws FoldPacketError when a header or a
// payload runs past the end.
inline std::vector<std::span<const std::uint8_t>> split_fold_packets(std::span<const std::uint8_t> buffer) {
  std::vector<std::span<const std::uint8_t>> packets;
  std::size_t at = 0;
  while (at < buffer.size()) {
    if (buffer.size() - at < kFoldHeaderBytes) throw FoldPacketError("fold packet: truncated header");
    std::uint32_t payload;
    std::memcpy(&payload, buffer.data() + at, sizeof payload);
    if (buffer.size() - at - kFoldHeaderBytes < payload) throw FoldPacketError("fold packet: payload past the buffer");
    packets.push_back(buffer.subspan(at, kFoldHeaderBytes + payload));
    at += kFoldHeaderBytes + payload;
  }
  return packets;
}

// Calls on_edge(u, v) for each edge of one packet (as split_fold_packets gives it). Throws
// FoldPacketError, having read nothing past the packet, when a value runs past its end or past
// 64 bits, when u >= u_limit or v >= v_limit, or when the header's edge count does not match.
template <class OnEdge>
void decode_fold_packet(std::span<const std::uint8_t> packet, FoldCompression mode, int width, std::uint64_t u_limit,
                        std::uint64_t v_limit, OnEdge&& on_edge) {
  if (packet.size() < kFoldHeaderBytes) throw FoldPacketError("fold packet: truncated header");
  std::uint32_t header[2];
  std::memcpy(header, packet.data(), kFoldHeaderBytes);
  if (header[0] != packet.size() - kFoldHeaderBytes) throw FoldPacketError("fold packet: wrong payload length");
  const std::uint8_t* p = packet.data() + kFoldHeaderBytes;
  const std::uint8_t* const end = packet.data() + packet.size();
  auto vlq = [&]() {
    std::uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
      if (p == end) throw FoldPacketError("fold packet: a number runs past the end");
      const std::uint64_t byte = *p++;
      if (shift == 63 && byte > 1) throw FoldPacketError("fold packet: a number overflows 64 bits");
      x |= (byte & 0x7f) << shift;
      if (!(byte & 0x80)) return x;
    }
  };
  auto fixed = [&]() {
    if (end - p < width) throw FoldPacketError("fold packet: a number runs past the end");
    std::uint64_t x = 0;
    for (int b = 0; b < width; ++b) x |= std::uint64_t{p[b]} << (8 * b);
    p += width;
    return x;
  };
  // Differences wrap modulo 2^64; what they give is checked against the limits.
  std::uint64_t u = 0, v = 0;
  bool first = true;
  for (std::uint32_t e = 0; e < header[1]; ++e) {
    if (mode == FoldCompression::vlq) {
      const std::uint64_t next_u = u + unzigzag(vlq());
      const std::uint64_t v_field = vlq();
      v = (!first && next_u == u) ? v + unzigzag(v_field) : v_field;
      u = next_u;
    } else {
      u = fixed();
      v = fixed();
    }
    if (u >= u_limit || v >= v_limit) throw FoldPacketError("fold packet: an id out of range");
    first = false;
    on_edge(u, v);
  }
  if (p != end) throw FoldPacketError("fold packet: bytes left after the last edge");
}

}  // namespace g500::exchange
