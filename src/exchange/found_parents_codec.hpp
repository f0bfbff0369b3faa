#pragma once
// The parents one rank found for another rank's block of vertices, as one message: the vertices in
// increasing order, each as its gap from the one before (Rice code), followed by its parent in
// `bits` bits. hybrid-2d encodes one for each level's finds and sends them once per search, end to
// end, within a processor column (bfs/engines/grid_2d/). Against (parent, vertex) pairs sorted by parent and delta-coded as
// variable-length bytes, this needs no sort and decodes without a branch per byte; gaps and parents
// cost their bits and no more (fewer bits a vertex than a bitmap of the block in place of the gaps:
// docs/tuning.md).
//
// A message, in 64-bit little-endian words (bytes on the wire, so that the engine's byte buffers
// carry it): a header (the vertex count in the low 48 bits, the Rice parameter k
// above), then a bit stream, least significant bit first, the last word padded with zeros. Per
// vertex: the gap g (the vertex minus the previous one, minus one; the first one's from -1) as
// g >> k in unary (that many ones, then a zero) and g's low k bits; then the parent.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bitmap.hpp"

namespace g500::exchange {

// A message that cannot be what FoundParentsEncoder wrote: rejected before any word past its end
// is read.
class FoundParentsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace found_parents {

inline constexpr int kCountBits = 48;

// Words as bytes: the message travels in byte buffers (no aliasing of their storage as words).
inline void append_word(word_t w, std::vector<std::uint8_t>& out) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(word_t));
  std::memcpy(out.data() + at, &w, sizeof(word_t));
}
inline word_t word_at(std::span<const std::uint8_t> bytes, std::size_t w) {
  word_t v;
  std::memcpy(&v, bytes.data() + w * sizeof(word_t), sizeof(word_t));
  return v;
}

// Bits appended to `out`, which grows once, by the most the writer is told it will take, and is
// cut back to what it took by flush().
class BitWriter {
 public:
  BitWriter(std::vector<std::uint8_t>& out, std::uint64_t most_bits) : out_(out), at_(out.size()) {
    out.resize(at_ + (most_bits + kWordBits - 1) / kWordBits * sizeof(word_t));
  }
  // The low n bits of v (v < 2^n, n <= 63).
  void put(word_t v, int n) {
    packed_ |= v << filled_;
    filled_ += n;
    if (filled_ >= kWordBits) {
      store(packed_);
      filled_ -= kWordBits;
      packed_ = filled_ ? v >> (n - filled_) : 0;
    }
  }
  void unary(std::uint64_t q) {
    for (; q >= 63; q -= 63) put((word_t{1} << 63) - 1, 63);
    put((word_t{1} << q) - 1, static_cast<int>(q) + 1);  // q ones, then a zero
  }
  void flush() {
    if (filled_) store(packed_);
    filled_ = 0;
    packed_ = 0;
    out_.resize(at_);
  }

 private:
  void store(word_t w) {
    if (at_ + sizeof(word_t) > out_.size()) throw std::logic_error("found-parents message longer than its bound");
    std::memcpy(out_.data() + at_, &w, sizeof(word_t));
    at_ += sizeof(word_t);
  }

  std::vector<std::uint8_t>& out_;
  std::size_t at_;  // where the next word goes
  word_t packed_ = 0;
  int filled_ = 0;
};

class BitReader {
 public:
  // `bytes`: whole words.
  explicit BitReader(std::span<const std::uint8_t> bytes)
      : bytes_(bytes), end_(bytes.size() / sizeof(word_t) * kWordBits) {}
  // The next n bits (n <= 63).
  word_t get(int n) {
    if (n == 0) return 0;
    if (pos_ + static_cast<std::uint64_t>(n) > end_) throw FoundParentsError("found-parents message ends inside a vertex");
    const std::size_t w = pos_ / kWordBits;
    const int offset = static_cast<int>(pos_ % kWordBits);
    word_t v = word_at(bytes_, w) >> offset;
    if (offset + n > kWordBits) v |= word_at(bytes_, w + 1) << (kWordBits - offset);
    pos_ += n;
    return v & ((word_t{1} << n) - 1);
  }
  std::uint64_t unary() {
    std::uint64_t q = 0;
    for (;;) {
      if (pos_ >= end_) throw FoundParentsError("found-parents message ends inside a gap");
      const int offset = static_cast<int>(pos_ % kWordBits);
      const word_t zeros = ~word_at(bytes_, pos_ / kWordBits) >> offset;
      if (zeros) {
        const int ones = std::countr_zero(zeros);
        q += ones;
        pos_ += ones + 1;
        return q;
      }
      q += kWordBits - offset;
      pos_ += kWordBits - offset;
    }
  }
  std::uint64_t position() const { return pos_; }

  // One vertex's gap and parent in three loads and no loop, where the message has room past them
  // for whole-word reads and the codes are short (most vertices); false, having read nothing,
  // where not: get() and unary() then take it.
  bool quick_vertex(int k, int bits, std::uint64_t& q, word_t& low, word_t& parent) {
    if (pos_ + 2 * kWordBits > end_ || static_cast<std::uint64_t>(bits) > kQuickBits) return false;
    const word_t p = peek(pos_);
    q = static_cast<std::uint64_t>(std::countr_zero(~p));
    const std::uint64_t gap_bits = q + 1 + static_cast<std::uint64_t>(k);
    if (gap_bits > kQuickBits) return false;
    low = (p >> (q + 1)) & ((word_t{1} << k) - 1);
    const std::uint64_t all_bits = gap_bits + static_cast<std::uint64_t>(bits);
    // The parent from the same read where it fits in it (most vertices), else from its own.
    parent = (all_bits <= kQuickBits ? p >> gap_bits : peek(pos_ + gap_bits)) & ((word_t{1} << bits) - 1);
    pos_ += all_bits;
    return true;
  }

 private:
  // Bits from bit `at` on: at least kQuickBits of them (a byte-aligned 8-byte read, shifted).
  static constexpr std::uint64_t kQuickBits = 56;
  word_t peek(std::uint64_t at) const {
    word_t v;
    std::memcpy(&v, bytes_.data() + at / 8, sizeof v);
    return v >> (at % 8);
  }

  std::span<const std::uint8_t> bytes_;
  std::uint64_t end_;
  std::uint64_t pos_ = 0;
};

}  // namespace found_parents

// Appends the message for `vertices` vertices to `out`, given to add() in increasing order, each
// with its parent, below 2^bits (1 <= bits <= 63); `count`: the block's vertices.
class FoundParentsEncoder {
 public:
  // The gaps' unary parts sum to at most count >> k (the gaps sum to under count), so a message takes
  // at most that, and each vertex's zero, low bits and parent.
  FoundParentsEncoder(std::vector<std::uint8_t>& out, std::uint64_t vertices, std::int64_t count, int bits)
      : bits_(bits),
        k_(rice_parameter(vertices, count)),
        writer_(with_header(out, vertices, k_),
                vertices * static_cast<std::uint64_t>(1 + k_ + bits) + (static_cast<std::uint64_t>(count) >> k_)) {}
  void add(std::int64_t v, word_t parent) {
    const std::uint64_t gap = static_cast<std::uint64_t>(v - previous_ - 1);
    previous_ = v;
    const std::uint64_t q = gap >> k_;
    const word_t low = gap & ((word_t{1} << k_) - 1);
    if (q + 1 + static_cast<std::uint64_t>(k_) < kWordBits) {  // most gaps: q ones, a zero and low, at once
      writer_.put(((word_t{1} << q) - 1) | low << (q + 1), static_cast<int>(q) + 1 + k_);
    } else {
      writer_.unary(q);
      writer_.put(low, k_);
    }
    writer_.put(parent, bits_);
  }
  void finish() { writer_.flush(); }

 private:
  // Rice's parameter for gaps of mean m: about log2(m ln 2).
  static int rice_parameter(std::uint64_t vertices, std::int64_t count) {
    const double mean_gap = vertices ? static_cast<double>(count) / static_cast<double>(vertices) : 1;
    return std::max(0, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(mean_gap * 0.69))) - 1);
  }
  static std::vector<std::uint8_t>& with_header(std::vector<std::uint8_t>& out, std::uint64_t vertices, int k) {
    found_parents::append_word(vertices | (static_cast<word_t>(k) << found_parents::kCountBits), out);
    return out;
  }

  int bits_;
  int k_;
  found_parents::BitWriter writer_;
  std::int64_t previous_ = -1;
};

// Calls at(v, parent) for each vertex of the message at the front of `bytes` (whole words; other
// messages may follow it), for a block of `count` vertices, in order; returns the bytes it took.
template <class At>
std::size_t decode_found_parents_front(std::span<const std::uint8_t> bytes, std::int64_t count, int bits, At&& at) {
  if (bytes.size() < sizeof(word_t) || bytes.size() % sizeof(word_t)) {
    throw FoundParentsError("found-parents message of " + std::to_string(bytes.size()) + " bytes, not whole words");
  }
  const word_t header = found_parents::word_at(bytes, 0);
  const std::uint64_t vertices = header & ((word_t{1} << found_parents::kCountBits) - 1);
  const int k = static_cast<int>(header >> found_parents::kCountBits);
  if (vertices > static_cast<std::uint64_t>(count) || k > 62) {
    throw FoundParentsError("found-parents header (" + std::to_string(vertices) + " vertices, k " + std::to_string(k) +
                            ") impossible for a block of " + std::to_string(count));
  }
  found_parents::BitReader reader(bytes.subspan(sizeof(word_t)));
  std::int64_t previous = -1;
  for (std::uint64_t j = 0; j < vertices; ++j) {
    std::uint64_t q;
    word_t low, parent;
    const bool quick = reader.quick_vertex(k, bits, q, low, parent);
    if (!quick) q = reader.unary();
    if (q > (static_cast<std::uint64_t>(count) >> k)) throw FoundParentsError("found-parents gap past the block");
    if (!quick) low = reader.get(k);
    const std::int64_t v = previous + 1 + static_cast<std::int64_t>((q << k) | low);
    if (v >= count) throw FoundParentsError("found-parents vertex " + std::to_string(v) + " past the block");
    previous = v;
    at(v, quick ? parent : reader.get(bits));
  }
  return ((reader.position() + kWordBits - 1) / kWordBits + 1) * sizeof(word_t);
}

// Calls at(v, parent) for each vertex of one message for a block of `count` vertices, in order.
template <class At>
void decode_found_parents(std::span<const std::uint8_t> message, std::int64_t count, int bits, At&& at) {
  const std::size_t used = decode_found_parents_front(message, count, bits, at);
  if (used != message.size()) {
    throw FoundParentsError("found-parents message of " + std::to_string(message.size()) + " bytes, not the " +
                            std::to_string(used) + " its vertices take");
  }
}

// The same for messages laid end to end (none: no bytes), each in vertex order, in any order
// between them: a rank's finds of each level and thread, encoded as they were made.
template <class At>
void decode_found_parents_runs(std::span<const std::uint8_t> messages, std::int64_t count, int bits, At&& at) {
  while (!messages.empty()) messages = messages.subspan(decode_found_parents_front(messages, count, bits, at));
}

}  // namespace g500::exchange
