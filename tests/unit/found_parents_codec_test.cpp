#include <gtest/gtest.h>

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

}  // namespace
}  // namespace g500::exchange
