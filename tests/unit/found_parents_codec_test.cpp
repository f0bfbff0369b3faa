#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "core/bitmap.hpp"
#include "exchange/found_parents_codec.hpp"

namespace g500::exchange {
namespace {

using Found = std::vector<std::pair<std::int64_t, std::uint64_t>>;  // (vertex, parent)

// A block of `count` vertices, each found with probability `density`, parents below 2^bits (the
// extremes 0 and 2^bits - 1 among them).
struct Block {
  Bitmap found;
  std::vector<std::uint64_t> parent_of;
  Found expect;
};

Block random_block(std::int64_t count, double density, int bits, std::mt19937_64& rng) {
  Block b{Bitmap(count), std::vector<std::uint64_t>(count, 0), {}};
  const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
  std::bernoulli_distribution take(density);
  for (std::int64_t v = 0; v < count; ++v) {
    if (!take(rng)) continue;
    const std::uint64_t p = v % 3 == 0 ? top : v % 3 == 1 ? 0 : rng() & top;
    b.found.set(v);
    b.parent_of[v] = p;
    b.expect.emplace_back(v, p);
  }
  return b;
}

std::vector<std::uint8_t> encode(const Block& b, int bits) {
  std::vector<std::uint8_t> out;
  FoundParentsEncoder encoder(out, b.expect.size(), b.found.size(), bits);
  for (const auto& [v, p] : b.expect) encoder.add(v, p);
  encoder.finish();
  return out;
}

Found decode(const std::vector<std::uint8_t>& message, std::int64_t count, int bits) {
  Found got;
  decode_found_parents(message, count, bits, [&](std::int64_t v, word_t p) { got.emplace_back(v, p); });
  return got;
}

// Every found vertex comes back with its parent, in vertex order, for blocks that end inside or at
// the end of a word, empty and full blocks, and parent widths from 1 to 63 bits.
TEST(FoundParentsCodec, RoundTrip) {
  std::mt19937_64 rng(11);
  for (std::int64_t count : {0, 1, 63, 64, 65, 1000, 4096, 4097, 70000}) {
    for (double density : {0.0, 0.01, 0.5, 1.0}) {
      for (int bits : {1, 17, 22, 32, 42, 63}) {
        const Block b = random_block(count, density, bits, rng);
        const std::vector<std::uint8_t> message = encode(b, bits);
        EXPECT_EQ(decode(message, count, bits), b.expect) << count << " " << density << " " << bits;
      }
    }
  }
}

// Gaps far longer than the mean (a unary code past a word, or just past the decoder's quick
// reach) and parents as wide as the quick path takes and one bit wider, around runs of short gaps.
TEST(FoundParentsCodec, LongGapsBesideShortOnes) {
  const std::int64_t count = std::int64_t{1} << 20;
  for (int bits : {22, 56, 57}) {
    // 1,301 vertices: the encoder's k is 9, so the far gap's unary part is `ones` long.
    for (std::int64_t ones : {0, 45, 46, 47, 60, 200, 1900}) {
      const std::int64_t far = (ones << 9) + 1;
      Block b{Bitmap(count), std::vector<std::uint64_t>(count, 0), {}};
      const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
      auto take = [&](std::int64_t v) {
        b.found.set(v);
        b.expect.emplace_back(v, v % 2 ? top : static_cast<std::uint64_t>(v));
      };
      for (std::int64_t v = 0; v < 1000; ++v) take(v);
      take(999 + far);
      for (std::int64_t v = count - 900; v < count; v += 3) take(v);
      ASSERT_EQ(b.expect.size(), 1301u);
      EXPECT_EQ(decode(encode(b, bits), count, bits), b.expect) << bits << " " << ones;
    }
  }
}

// A vertex costs its parent's bits and about log2(1 / density) + 1.5 bits of gap: dense or sparse,
// far below a bitmap of the block's (1 / density bits a vertex) once found vertices are sparse.
TEST(FoundParentsCodec, AVertexCostsItsParentAndAShortGap) {
  std::mt19937_64 rng(12);
  for (const auto& [density, gap_bits] : {std::pair{0.5, 2.5}, std::pair{0.1, 5.0}, std::pair{0.01, 8.5}}) {
    const Block b = random_block(1 << 16, density, 22, rng);
    const double per_vertex = 8.0 * static_cast<double>(encode(b, 22).size()) / static_cast<double>(b.expect.size());
    EXPECT_LT(per_vertex, 22 + gap_bits) << density;
    EXPECT_GT(per_vertex, 22) << density;
  }
}

// A message that encode could not have written is rejected, whole, before anything past its end is
// read: every shortening, a byte or a word too many, a header with more vertices than the block or than the
// message holds, a vertex past the block.
TEST(FoundParentsCodec, MalformedMessagesRejected) {
  std::mt19937_64 rng(13);
  const std::int64_t count = 1000;
  const int bits = 22;
  const Block b = random_block(count, 0.3, bits, rng);
  const std::vector<std::uint8_t> good = encode(b, bits);
  ASSERT_EQ(decode(good, count, bits), b.expect);
  for (std::size_t keep = 0; keep < good.size(); ++keep) {  // whole words or not
    const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(keep));
    EXPECT_THROW(decode(cut, count, bits), FoundParentsError) << "kept " << keep;
  }
  for (std::size_t extra : {1, 8}) {
    std::vector<std::uint8_t> longer = good;
    longer.resize(good.size() + extra, 0);
    EXPECT_THROW(decode(longer, count, bits), FoundParentsError) << extra;
  }
  // The header's low six bytes hold the vertex count (little-endian).
  const auto with_count = [&](std::uint64_t vertices) {
    std::vector<std::uint8_t> m = good;
    for (int byte = 0; byte < 6; ++byte) m[byte] = static_cast<std::uint8_t>(vertices >> (8 * byte));
    return m;
  };
  EXPECT_THROW(decode(with_count(count + 1), count, bits), FoundParentsError);
  EXPECT_THROW(decode(with_count(b.expect.size() + 40), count, bits), FoundParentsError);
  EXPECT_EQ(decode(with_count(b.expect.size()), count, bits), b.expect);
  Block last{Bitmap(count), std::vector<std::uint64_t>(count, 5), {}};
  last.found.set(count - 1);
  last.expect.emplace_back(count - 1, 5);
  EXPECT_EQ(decode(encode(last, bits), count, bits).size(), 1u);
  EXPECT_THROW(decode(encode(last, bits), count - 1, bits), FoundParentsError);
}

// Messages laid end to end, as hybrid-2d sends a search's runs (a level's finds each, an empty one
// among them, in any order): every vertex comes back, run by run; no bytes are no runs; cut at a
// message's end, the whole messages before decode; cut anywhere else, the bytes are rejected.
TEST(FoundParentsCodec, RunsEndToEnd) {
  std::mt19937_64 rng(14);
  const std::int64_t count = 5000;
  const int bits = 22;
  const Block b = random_block(count, 0.4, bits, rng);
  const std::size_t n = b.expect.size(), cuts[] = {0, n / 5, n / 2, n, n};
  std::vector<Found> runs;
  for (int r = 0; r + 1 < 5; ++r) runs.emplace_back(b.expect.begin() + cuts[r], b.expect.begin() + cuts[r + 1]);
  std::swap(runs[0], runs[2]);
  std::vector<std::uint8_t> messages;
  std::vector<std::size_t> ends;  // of each message
  std::vector<Found> before;      // the vertices of the messages up to each end
  Found expect;
  for (const Found& run : runs) {
    FoundParentsEncoder encoder(messages, run.size(), count, bits);
    for (const auto& [v, p] : run) encoder.add(v, p);
    encoder.finish();
    expect.insert(expect.end(), run.begin(), run.end());
    ends.push_back(messages.size());
    before.push_back(expect);
  }
  Found got;
  const auto keep = [&](std::int64_t v, word_t p) { got.emplace_back(v, p); };
  decode_found_parents_runs(messages, count, bits, keep);
  EXPECT_EQ(got, expect);
  got.clear();
  decode_found_parents_runs({}, count, bits, keep);
  EXPECT_TRUE(got.empty());
  for (std::size_t cut = 1; cut < messages.size(); ++cut) {
    const std::vector<std::uint8_t> shorter(messages.begin(), messages.begin() + static_cast<std::ptrdiff_t>(cut));
    got.clear();
    const auto end = std::find(ends.begin(), ends.end(), cut);
    if (end == ends.end()) {
      EXPECT_THROW(decode_found_parents_runs(shorter, count, bits, keep), FoundParentsError) << "cut at " << cut;
    } else {
      decode_found_parents_runs(shorter, count, bits, keep);
      EXPECT_EQ(got, before[static_cast<std::size_t>(end - ends.begin())]) << "cut at " << cut;
    }
  }
}

}  // namespace
}  // namespace g500::exchange
