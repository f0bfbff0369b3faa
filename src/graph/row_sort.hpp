#pragma once
// Kernel 1's last step, for any layout of rows: each row sorted by a key of its entries, copies of a
// neighbour dropped, and the rows slid together in place (graph/row_builder.hpp places them).
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/big_vector.hpp"
#include "core/key_sort.hpp"
#include "core/types.hpp"

namespace g500::rows {

// Slides the rows together: row r keeps its first kept[r] entries. The room duplicates took is
// handed back to the system in place (shrinking would copy the rows, doubling the peak). Offset:
// 64-bit, or 32-bit where a rank's entries number below 2^32.
template <class Column, class Offset>
void close_up_rows(big_vector<Offset>& offsets, big_vector<Column>& columns, const std::vector<Offset>& kept) {
  const local_t n_rows = static_cast<local_t>(offsets.size()) - 1;
  Offset at = 0;
  for (local_t r = 0; r < n_rows; ++r) {
    if (at != offsets[r]) std::memmove(columns.data() + at, columns.data() + offsets[r], kept[r] * sizeof(Column));
    offsets[r] = at;
    at += kept[r];
  }
  offsets[n_rows] = at;
  columns.resize(at);
  release_spare_capacity(columns);
}

// Sorts each row by key_at(k), entry k's key, drops entries whose keys repeat (copies of one
// neighbour) and slides the rows together. Integer keys go by vectorised sort (core/key_sort.hpp).
// When a key reads a table at random (a neighbour's degree code), prefetch_at(k) is called a few
// entries ahead.
template <class Column, class Key, class Offset, class KeyAt, class EntryOf, class PrefetchAt>
void sort_rows_by_entry_key(big_vector<Offset>& offsets, big_vector<Column>& columns, KeyAt&& key_at,
                            EntryOf&& entry_of, PrefetchAt&& prefetch_at) {
  // Far ahead: the table is N entries, past L2, and a short distance leaves the loop waiting on
  // its reads (docs/tuning.md).
  constexpr edge_count_t kPrefetchDistance = 128;
  const local_t n_rows = static_cast<local_t>(offsets.size()) - 1;
  const edge_count_t n_entries = offsets[n_rows];
  std::vector<Offset> kept(n_rows);
#pragma omp parallel
  {
    std::vector<Key> keyed;
#pragma omp for schedule(dynamic, 256)
    for (local_t i = 0; i < n_rows; ++i) {
      keyed.clear();
      for (edge_count_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        if (k + kPrefetchDistance < n_entries) prefetch_at(k + kPrefetchDistance);
        keyed.push_back(key_at(k));
      }
      if constexpr (std::is_integral_v<Key>) sort_keys(keyed);
      else std::sort(keyed.begin(), keyed.end());
      // Without a branch: copies of one neighbour are common, and at random.
      Column* out = columns.data() + offsets[i];
      Offset len = 0;
      for (std::size_t k = 0; k < keyed.size(); ++k) {
        out[len] = entry_of(keyed[k]);
        len += k == 0 || !(keyed[k] == keyed[k - 1]);
      }
      kept[i] = len;
    }
  }
  close_up_rows(offsets, columns, kept);
}

// sort_rows_by_entry_key with each entry's key from its value: key_of(entry), prefetch(entry).
template <class Column, class Key, class Offset, class KeyOf, class EntryOf, class Prefetch = void (*)(Column)>
void sort_rows_by_key(
    big_vector<Offset>& offsets, big_vector<Column>& columns, KeyOf&& key_of, EntryOf&& entry_of,
    Prefetch&& prefetch = [](Column) {}) {
  const Column* entries = columns.data();
  sort_rows_by_entry_key<Column, Key>(
      offsets, columns, [&](edge_count_t k) { return key_of(entries[k]); }, entry_of,
      [&](edge_count_t k) { prefetch(entries[k]); });
}

// Each row sorted by value, duplicates dropped.
template <class Column, class Offset>
void sort_rows_by_id(big_vector<Offset>& offsets, big_vector<Column>& columns) {
  using Key = std::make_unsigned_t<Column>;
  sort_rows_by_key<Column, Key>(
      offsets, columns, [](Column v) { return static_cast<Key>(v); },
      [](Key key) { return static_cast<Column>(key); });
}

}  // namespace g500::rows
