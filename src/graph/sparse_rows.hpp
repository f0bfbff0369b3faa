#pragma once
// Row offsets for layouts where most rows may be empty. A 2D rank holds a row for each vertex of
// its processor column (N/C rows) but only M/P entries, so past a few hundred ranks most of its
// rows are empty. One bit a row says which rows have entries; a count every 64 rows says how many
// such rows come before; and only rows with entries have an offset. That is about two bits a row
// plus one offset a filled row, where a table of every row costs 32 or 64 bits a row.
#include <cstdint>
#include <utility>

#include "core/big_vector.hpp"
#include "core/bitmap.hpp"
#include "core/types.hpp"
#include "graph/row_offsets.hpp"

namespace g500 {

// Count: wide enough for the number of rows (a row id's type).
template <class Count>
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

  // From the bits of the rows with entries and their offsets (their count + 1).
  SparseRows(local_t rows, Bitmap filled, big_vector<edge_count_t> offsets)
      : rows_(rows), filled_(std::move(filled)) {
    if (filled_.size() < rows_ + 1) {  // a word even with no rows, as above
      Bitmap wider(rows_ + 1);
      for (std::int64_t w = 0; w < filled_.num_words(); ++w) wider.data()[w] = filled_.word(w);
      filled_ = std::move(wider);
    }
    count_before();
    offsets_ = RowOffsets(std::move(offsets));
  }

  local_t rows() const { return rows_; }
  std::int64_t filled_rows() const { return static_cast<std::int64_t>(offsets_.size()) - 1; }
  edge_count_t entries() const { return offsets_.size() ? offsets_.back() : 0; }
  bool filled(local_t u) const { return filled_.test(u); }
  // The bits of rows with entries, and the count of such rows before each word of them.
  const word_t* filled_words() const { return filled_.data(); }
  const Count* before_words() const { return before_.data(); }

  // Rows with entries before row u: u's place among them, when it has entries.
  std::int64_t rank(local_t u) const {
    const std::int64_t w = u / kWordBits;
    return static_cast<std::int64_t>(before_[w]) +
           __builtin_popcountll(filled_.word(w) & ((word_t{1} << (u % kWordBits)) - 1));
  }
  // Where the k-th row with entries starts (k = filled_rows(): the end of the last).
  edge_count_t offset(std::int64_t k) const { return offsets_[static_cast<std::size_t>(k)]; }
  const std::uint32_t* narrow_offsets() const { return offsets_.narrow_data(); }  // or null
  // Row u's entries: [first, last), with one lookup of its place.
  struct Range {
    edge_count_t first, last;
  };
  Range range(local_t u) const {
    const std::int64_t k = rank(u);
    return {offset(k), offset(k + (filled(u) ? 1 : 0))};
  }

 private:
  // The rows with entries before each word; returns their total.
  std::int64_t count_before() {
    before_.resize(static_cast<std::size_t>(filled_.num_words()) + 1);
    std::int64_t count = 0;
    for (std::int64_t w = 0; w < filled_.num_words(); ++w) {
      before_[w] = static_cast<Count>(count);
      count += __builtin_popcountll(filled_.word(w));
    }
    before_[filled_.num_words()] = static_cast<Count>(count);
    return count;
  }

  local_t rows_ = 0;
  Bitmap filled_;
  big_vector<Count> before_;  // one a word, and the total last
  RowOffsets offsets_;         // of the rows with entries, + 1
};

}  // namespace g500
