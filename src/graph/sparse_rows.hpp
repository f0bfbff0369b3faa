#pragma once
// Row offsets for layouts where most rows may be empty. A 2D rank holds a row for each vertex of
// its processor column (N/C rows) but only M/P entries, so past a few hundred ranks most of its
// rows are empty. One bit a row says which rows have entries; a count every 64 rows says how many
// such rows come before (32 bits: past 2^32 rows, counted from a base every 2^32 rows); and only
// rows with entries have an offset. That is 1.5 bits a row plus one offset a filled row, where a
// table of every row costs 32 or 64 bits a row.
//
// Past a few thousand ranks even the bits outweigh the rows with entries (a rank's column range
// grows as sqrt(P) at a fixed share, its arcs do not). Listed, the bits and counts give way to a
// sorted list of the rows with entries, 32 bits each as its offset in its part (the column range's
// blocks, each under 2^32 rows), found by binary search: memory that follows the arcs, not P.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/big_vector.hpp"
#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "graph/row_offsets.hpp"

namespace g500 {

// Rows with entries listed by part: parts begin at part_starts (then the row count), each under
// 2^32 rows; part p's rows with entries, as offsets in it, rising, are list[part_first[p],
// part_first[p + 1]).
struct RowList {
  std::vector<local_t> part_starts;
  big_vector<std::uint32_t> list;
  std::vector<std::int64_t> part_first;

  RowList() = default;
  // Room for `count` rows with entries of `rows` rows in parts beginning at `starts`; then add()
  // each of them, rising, and finish().
  RowList(std::span<const local_t> starts, local_t rows, std::int64_t count)
      : part_starts(starts.begin(), starts.end()),
        list(static_cast<std::size_t>(count)),
        part_first(starts.size() + 1, 0) {
    part_starts.push_back(rows);
  }
  void add(local_t u) {
    while (u >= part_starts[part_ + 1]) part_first[++part_] = added_;
    list[static_cast<std::size_t>(added_++)] = static_cast<std::uint32_t>(u - part_starts[part_]);
  }
  void finish() {
    while (part_ + 1 < part_starts.size()) part_first[++part_] = added_;
  }

 private:
  std::size_t part_ = 0;    // the part of the last row added
  std::int64_t added_ = 0;  // rows added
};

// Count: wide enough for the number of rows (a row id's type). With 32 bits there are at most
// 2^32 rows, so no base is needed. BaseShift: log2 of the words a base spans (smaller in tests).
template <class Count, int BaseShift = 26>
class SparseRows {
 public:
  SparseRows() = default;

  // From the offsets of every row (rows + 1 entries).
  explicit SparseRows(const big_vector<edge_count_t>& dense)
      : rows_(static_cast<local_t>(dense.size()) - 1), filled_(rows_ + 1) {  // a word even with no rows
    for (local_t u = 0; u < rows_; ++u)
      if (dense[u + 1] > dense[u]) filled_.set(u);
    const std::int64_t count = count_before();
    big_vector<edge_count_t> compact(static_cast<std::size_t>(count) + 1);
    std::int64_t k = 0;
    for (local_t u = 0; u < rows_; ++u)
      if (filled_.test(u)) compact[k++] = dense[u];
    compact[k] = rows_ > 0 ? dense[rows_] : 0;
    offsets_ = RowOffsets(std::move(compact));
  }

  // From the bits of the rows with entries and their offsets (their count + 1), 64- or 32-bit.
  template <class Offset>
  SparseRows(local_t rows, Bitmap filled, big_vector<Offset> offsets) : rows_(rows), filled_(std::move(filled)) {
    if (filled_.size() < rows_ + 1) {  // a word even with no rows, as above
      Bitmap wider(rows_ + 1);
      for (std::int64_t w = 0; w < filled_.num_words(); ++w) wider.data()[w] = filled_.word(w);
      filled_ = std::move(wider);
    }
    count_before();
    offsets_ = RowOffsets(std::move(offsets));
  }

  // Listed: from the rows with entries listed by part and their offsets (their count + 1).
  template <class Offset>
  SparseRows(local_t rows, RowList listed, big_vector<Offset> offsets)
      : rows_(rows),
        offsets_(std::move(offsets)),
        listed_(true),
        list_(std::move(listed.list)),
        part_starts_(std::move(listed.part_starts)),
        part_first_(std::move(listed.part_first)) {}

  // Listed from here on: the bits and counts become the list of rows with entries, by part; parts
  // begin at `part_starts` (rising from 0, each under 2^32 rows).
  void list_rows(std::span<const local_t> part_starts) {
    RowList listed(part_starts, rows_, filled_rows());
    for (std::int64_t w = 0; w < filled_.num_words(); ++w)
      for (word_t bits = filled_.word(w); bits; bits &= bits - 1) listed.add(w * kWordBits + __builtin_ctzll(bits));
    listed.finish();
    listed_ = true;
    list_ = std::move(listed.list);
    part_starts_ = std::move(listed.part_starts);
    part_first_ = std::move(listed.part_first);
    filled_ = Bitmap();
    release_storage(before_);
    base_.clear();
  }
  bool listed() const { return listed_; }
  // Listed: the rows with entries of part p, as offsets in it, at places [part_first(p), part_first(p + 1)).
  const std::uint32_t* list() const { return list_.data(); }
  std::int64_t part_first(int p) const { return part_first_[static_cast<std::size_t>(p)]; }

  local_t rows() const { return rows_; }
  std::int64_t filled_rows() const { return static_cast<std::int64_t>(offsets_.size()) - 1; }
  edge_count_t entries() const { return offsets_.size() ? offsets_.back() : 0; }
  bool filled(local_t u) const {
    if (listed_) return listed_place(u).second;
    return filled_.test(u);
  }
  // The bits of rows with entries, and the count of such rows before each word of them: before
  // word w, before_low()[w] plus, with 64-bit counts, before_base()[w >> kBaseShift].
  static constexpr bool kBased = sizeof(Count) > 4;
  static constexpr int kBaseShift = BaseShift;  // 2^26 words: 2^32 rows, whose counts fit 32 bits
  const word_t* filled_words() const { return filled_.data(); }
  const std::uint32_t* before_low() const { return before_.data(); }
  const std::int64_t* before_base() const { return base_.data(); }
  std::int64_t before(std::int64_t w) const {
    if constexpr (kBased)
      return base_[static_cast<std::size_t>(w >> kBaseShift)] + before_[w];
    else
      return before_[w];
  }

  // Rows with entries before row u: u's place among them, when it has entries.
  std::int64_t rank(local_t u) const {
    if (listed_) return listed_place(u).first;
    const std::int64_t w = u / kWordBits;
    return before(w) + __builtin_popcountll(filled_.word(w) & ((word_t{1} << (u % kWordBits)) - 1));
  }
  // Where the k-th row with entries starts (k = filled_rows(): the end of the last).
  edge_count_t offset(std::int64_t k) const { return offsets_[static_cast<std::size_t>(k)]; }
  const std::uint32_t* narrow_offsets() const { return offsets_.narrow_data(); }  // or null
  // Row u's entries: [first, last), with one lookup of its place.
  struct Range {
    edge_count_t first, last;
  };
  Range range(local_t u) const {
    if (listed_) {
      const auto [k, filled] = listed_place(u);
      return {offset(k), offset(k + (filled ? 1 : 0))};
    }
    const std::int64_t k = rank(u);
    return {offset(k), offset(k + (filled(u) ? 1 : 0))};
  }

 private:
  // Listed: rows with entries before row u, and whether u is one.
  std::pair<std::int64_t, bool> listed_place(local_t u) const {
    const std::size_t p = static_cast<std::size_t>(std::upper_bound(part_starts_.begin(), part_starts_.end() - 1, u) -
                                                   part_starts_.begin() - 1);
    const std::uint32_t low = static_cast<std::uint32_t>(u - part_starts_[p]);
    const std::uint32_t* const first = list_.data() + part_first_[p];
    const std::uint32_t* const last = list_.data() + part_first_[p + 1];
    const std::uint32_t* const at = std::lower_bound(first, last, low);
    return {at - list_.data(), at != last && *at == low};
  }

  // The rows with entries before each word; returns their total.
  std::int64_t count_before() {
    const std::int64_t words = filled_.num_words();
    before_.resize(static_cast<std::size_t>(words) + 1);
    base_.clear();
    std::int64_t count = 0;
    for (std::int64_t w = 0; w <= words; ++w) {
      if (kBased && w % (std::int64_t{1} << kBaseShift) == 0) base_.push_back(count);
      before_[w] = static_cast<std::uint32_t>(kBased ? count - base_.back() : count);
      if (w < words) count += __builtin_popcountll(filled_.word(w));
    }
    return count;
  }

  local_t rows_ = 0;
  Bitmap filled_;
  big_vector<std::uint32_t> before_;  // one a word, and the total last
  std::vector<std::int64_t> base_;    // 64-bit counts: the count before every 2^kBaseShift words
  RowOffsets offsets_;         // of the rows with entries, + 1
  bool listed_ = false;
  big_vector<std::uint32_t> list_;        // listed: each row with entries, as its offset in its part
  std::vector<local_t> part_starts_;      // listed: each part's first row, then the row count
  std::vector<std::int64_t> part_first_;  // listed: each part's first place in the list, then the count
};

}  // namespace g500
