#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "exchange/fold_codec.hpp"

namespace g500::exchange {
namespace {

using Edges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

std::vector<std::uint8_t> encode(const Edges& edges, FoldCompression mode, int width, std::size_t packet_bytes) {
  FoldEncoder enc(mode, width, packet_bytes);
  std::vector<std::uint8_t> out;
  for (const auto& [u, v] : edges) enc.add(u, v, out);
  enc.finish(out);
  return out;
}

Edges decode(const std::vector<std::uint8_t>& buffer, FoldCompression mode, int width, std::uint64_t u_limit,
             std::uint64_t v_limit) {
  Edges got;
  for (auto packet : split_fold_packets(buffer))
    decode_fold_packet(packet, mode, width, u_limit, v_limit,
                       [&](std::uint64_t u, std::uint64_t v) { got.emplace_back(u, v); });
  return got;
}

// Whatever goes in comes out, in order, in both modes and for packets small and large: random
// edges, runs of one u (v rising and falling), zeros, the largest values and ids above 2^32.
TEST(FoldCodec, RoundTrip) {
  std::mt19937_64 rng(7);
  const std::uint64_t big = ~std::uint64_t{0};
  Edges edges = {{0, 0}, {0, 0}, {0, 5}, {0, 3}, {1, big - 1}, {1, big - 1}, {big - 1, 0}, {big - 1, big - 1},
                 {std::uint64_t{1} << 32, (std::uint64_t{1} << 32) + 1}, {5, 0}};
  for (int k = 0; k < 5000; ++k) edges.emplace_back((rng() >> (rng() % 64)) % big, (rng() >> (rng() % 64)) % big);
  for (std::uint64_t u = 100; u < 140; ++u)
    for (std::uint64_t v = 0; v < 300; v += 7) edges.emplace_back(u, v);
  for (std::size_t packet : {std::size_t{32}, std::size_t{1} << 16}) {
    EXPECT_EQ(decode(encode(edges, FoldCompression::vlq, 8, packet), FoldCompression::vlq, 8, big, big), edges);
    EXPECT_EQ(decode(encode(edges, FoldCompression::none, 8, packet), FoldCompression::none, 8, big, big), edges);
  }
  Edges small = {{3, 4}, {3, 9}, {4, 1}, {0xffffffff, 0xfffffffe}};
  EXPECT_EQ(decode(encode(small, FoldCompression::none, 4, 64), FoldCompression::none, 4, big, big), small);
}

TEST(FoldCodec, EmptyBufferAndEmptyPacket) {
  EXPECT_TRUE(decode({}, FoldCompression::vlq, 4, 10, 10).empty());
  const std::vector<std::uint8_t> empty_packet(kFoldHeaderBytes, 0);
  EXPECT_TRUE(decode(empty_packet, FoldCompression::vlq, 4, 10, 10).empty());
}

// Rising u with a sorted run of v per u costs about a byte each: the compression the fold relies on.
TEST(FoldCodec, SortedRunsAreSmall) {
  Edges edges;
  for (std::uint64_t u = 1000; u < 2000; ++u)
    for (std::uint64_t v = u * 50; v < u * 50 + 400; v += 40) edges.emplace_back(u, v);
  const auto vlq = encode(edges, FoldCompression::vlq, 4, 1 << 16);
  const auto none = encode(edges, FoldCompression::none, 4, 1 << 16);
  EXPECT_LT(vlq.size() * 10, none.size() * 4) << vlq.size() << " vs " << none.size();
}

// Every way a packet can lie is caught, and nothing past its end is read (ASan watches the tests).
TEST(FoldCodec, MalformedPacketsAreRejected) {
  const Edges edges = {{3, 4}, {3, 9}, {300, 1}};
  const auto good = encode(edges, FoldCompression::vlq, 4, 1 << 16);
  auto decode_exact = [](std::vector<std::uint8_t> bytes, std::uint64_t u_limit = 1000, std::uint64_t v_limit = 1000) {
    // A heap copy of exactly the bytes, so that reading one past the end is an ASan error.
    return decode(bytes, FoldCompression::vlq, 4, u_limit, v_limit);
  };
  EXPECT_EQ(decode_exact(good), edges);
  for (std::size_t cut = 1; cut < good.size(); ++cut) {
    EXPECT_THROW(decode_exact(std::vector<std::uint8_t>(good.begin(), good.begin() + cut)), FoldPacketError) << cut;
  }
  // The header promises more edges than the payload holds: the last number runs off the end.
  auto more = good;
  more[4] = 4;
  EXPECT_THROW(decode_exact(more), FoldPacketError);
  auto fewer = good;
  fewer[4] = 2;
  EXPECT_THROW(decode_exact(fewer), FoldPacketError);
  // A continuation bit on the last byte.
  auto open_end = good;
  open_end.back() |= 0x80;
  EXPECT_THROW(decode_exact(open_end), FoldPacketError);
  // Ids beyond the receiver's ranges.
  EXPECT_THROW(decode_exact(good, 300), FoldPacketError);
  EXPECT_THROW(decode_exact(good, 1000, 9), FoldPacketError);
  // Eleven continuation bytes: more than 64 bits.
  std::vector<std::uint8_t> overflow(kFoldHeaderBytes, 0);
  overflow[0] = 12;
  overflow[4] = 1;
  for (int k = 0; k < 11; ++k) overflow.push_back(0xff);
  overflow.push_back(0);
  EXPECT_THROW(decode(overflow, FoldCompression::vlq, 4, ~0ULL, ~0ULL), FoldPacketError);
  // A difference that takes u below zero, around to the top.
  std::vector<std::uint8_t> below(kFoldHeaderBytes, 0);
  below.push_back(1);  // zigzag 1: u = 0 - 1
  below.push_back(0);
  const std::uint32_t header[2] = {2, 1};
  std::memcpy(below.data(), header, kFoldHeaderBytes);
  EXPECT_THROW(decode(below, FoldCompression::vlq, 4, 1000, 1000), FoldPacketError);
  // none: a fixed-width id cut short.
  auto fixed = encode(edges, FoldCompression::none, 4, 1 << 16);
  fixed.pop_back();
  EXPECT_THROW(decode(fixed, FoldCompression::none, 4, 1000, 1000), FoldPacketError);
}

}  // namespace
}  // namespace g500::exchange
