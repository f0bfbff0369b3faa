#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bfs/bfs_options.hpp"
#include "core/error.hpp"
#include "graph/arc_sketch.hpp"
#include "graph/csr_1d.hpp"
#include "graph/degree_code.hpp"
#include "graph/row_builder.hpp"
#include "graph/row_offsets.hpp"
#include "graph/row_codes.hpp"
#include "graph/sparse_rows.hpp"
#include "graph/vertex_count.hpp"
#include "test_graphs.hpp"

namespace g500 {
namespace {

using namespace g500::testing;

// Each vertex's arcs, duplicate tuples counted, self-loops not: what kernel 1 orders by.
std::vector<std::size_t> arc_counts(const std::vector<Edge>& edges, vertex_t n) {
  std::vector<std::size_t> arcs(n, 0);
  for (const Edge& e : edges) {
    if (e.u == e.v) continue;
    ++arcs[e.u];
    ++arcs[e.v];
  }
  return arcs;
}

// Both stored id widths: 32-bit (any N <= 2^32) and 64-bit.
template <class Column>
class Csr1DTest : public ::testing::Test {};
using ColumnTypes = ::testing::Types<std::uint32_t, vertex_t>;
TYPED_TEST_SUITE(Csr1DTest, ColumnTypes);

// Rows hold each distinct neighbour once, sorted, with self-loops gone, whatever the round size.
TYPED_TEST(Csr1DTest, RowsAreTheSortedDistinctNeighbours) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 4);
  const std::vector<Edge> edges = all_edges(gen);
  const std::vector<std::set<vertex_t>> expect = neighbour_sets(edges, gen.num_vertices());
  const SliceSource source = source_of(edges, world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (std::int64_t round : {std::int64_t{1000}, std::int64_t{1} << 22}) {
    const Csr1D<TypeParam> csr = build_csr_1d<TypeParam>(source, part, world, RowOrder::by_id, round);
    ASSERT_EQ(static_cast<local_t>(csr.offsets.size()), part.local_count() + 1);
    for (local_t i = 0; i < part.local_count(); ++i) {
      const auto& want = expect[part.to_global(i)];
      ASSERT_EQ(csr.degree(i), static_cast<edge_count_t>(want.size()));
      ASSERT_TRUE(std::equal(csr.begin(i), csr.end(i), want.begin()));
    }
  }
}

// Ordered by neighbour degree, each row holds the same distinct neighbours, highest arc count first
// (duplicate tuples counted, compared by their one-byte codes), ties by id, whatever the round size.
TYPED_TEST(Csr1DTest, RowsOrderedByNeighbourDegree) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(10, 16, 6);
  const std::vector<Edge> edges = all_edges(gen);
  const std::vector<std::set<vertex_t>> expect = neighbour_sets(edges, gen.num_vertices());
  const std::vector<std::size_t> arcs = arc_counts(edges, gen.num_vertices());
  const SliceSource source = source_of(edges, world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (std::int64_t round : {std::int64_t{7}, std::int64_t{500}, std::int64_t{1} << 22}) {
    const Csr1D<TypeParam> csr = build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round);
    for (local_t i = 0; i < part.local_count(); ++i) {
      const auto& want = expect[part.to_global(i)];
      ASSERT_EQ(csr.degree(i), static_cast<edge_count_t>(want.size()));
      ASSERT_EQ(std::set<vertex_t>(csr.begin(i), csr.end(i)), want);
      for (const TypeParam* it = csr.begin(i); it + 1 < csr.end(i); ++it) {
        const int d0 = degree_code(arcs[it[0]]), d1 = degree_code(arcs[it[1]]);
        ASSERT_TRUE(d0 > d1 || (d0 == d1 && it[0] < it[1])) << "row " << i << " round " << round;
      }
    }
  }
}

// Neighbour records asked of their owners entry by entry (past a few dozen ranks) give the rows
// the gathered table gives, plain and renumbered, with rounds short or long.
TYPED_TEST(Csr1DTest, NeighbourKeysByEntryAsTheTable) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(16, 2, 9);
  const SliceSource source = source_of(all_edges(gen), world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (bool renumbered : {false, true}) {
    for (std::int64_t round : {std::int64_t{3000}, std::int64_t{1} << 22}) {
      WindowOrder a_order, b_order;
      const Csr1D<TypeParam> table =
          build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round,
                                  renumbered ? &a_order : nullptr, nullptr, NeighbourKeys::table);
      const Csr1D<TypeParam> by_entry =
          build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round,
                                  renumbered ? &b_order : nullptr, nullptr, NeighbourKeys::by_entry);
      ASSERT_EQ(table.local_entries(), by_entry.local_entries());
      ASSERT_TRUE(std::equal(table.offsets.begin(), table.offsets.end(), by_entry.offsets.begin(),
                             by_entry.offsets.end()));
      ASSERT_TRUE(std::equal(table.columns.begin(), table.columns.begin() + table.local_entries(),
                             by_entry.columns.begin()))
          << (renumbered ? "renumbered" : "plain") << " round " << round;
    }
  }
  // The automatic choice: by entry once a rank's arcs are fewer than the vertices.
  EXPECT_FALSE(neighbour_keys_by_entry(1 << 20, 1 << 21));
  EXPECT_TRUE(neighbour_keys_by_entry(1 << 20, 1 << 19));
}

// Renumbered (hybrid-1d's --degree-order): each window of a rank's block is a permutation
// of itself, ordered by decreasing class of arc count with ties in their old order, and each row
// is the old vertex's neighbours in new ids, ordered by neighbour degree then new id.
TYPED_TEST(Csr1DTest, RowsRenumberedWithinWindows) {
  const mpi::Comm world = mpi::Comm::world();
  // 65536 vertices: two windows on one rank, windows cut by block ends on more.
  const KroneckerGenerator gen(16, 4, 8);
  const std::vector<Edge> edges = all_edges(gen);
  const std::vector<std::set<vertex_t>> expect = neighbour_sets(edges, gen.num_vertices());
  const std::vector<std::size_t> arcs = arc_counts(edges, gen.num_vertices());
  const SliceSource source = source_of(edges, world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  for (std::int64_t round : {std::int64_t{5000}, std::int64_t{1} << 22}) {
    WindowOrder order;
    const Csr1D<TypeParam> csr =
        build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round, &order);
    ASSERT_EQ(static_cast<local_t>(order.to_new.size()), part.local_count());
    // Every vertex's new global id, from every rank's deltas.
    std::vector<std::int16_t> to_new(gen.num_vertices());
    world.allgatherv<std::int16_t>(std::span<const std::int16_t>(order.to_new.data(), order.to_new.size()),
                                   to_new.data(), part.vertex_counts(), part.vertex_displs());
    std::vector<vertex_t> old_of_new(gen.num_vertices(), -1);
    for (vertex_t v = 0; v < gen.num_vertices(); ++v) old_of_new[v + to_new[v]] = v;
    ASSERT_EQ(std::count(old_of_new.begin(), old_of_new.end(), -1), 0) << "not a permutation";
    for (local_t i = 0; i < part.local_count(); ++i) {
      const local_t old = order.old_of(i);
      ASSERT_EQ(order.new_of(old), i);
      ASSERT_EQ(old / WindowOrder::kWindow, i / WindowOrder::kWindow) << "left its window";
      if (i % WindowOrder::kWindow != 0) {  // against the vertex before it in the same window
        const int here = degree_code(arcs[part.to_global(old)]), before = degree_code(arcs[part.to_global(order.old_of(i - 1))]);
        ASSERT_TRUE(before > here || (before == here && order.old_of(i - 1) < old)) << "position " << i;
      }
      std::set<vertex_t> want;
      for (vertex_t u : expect[part.to_global(old)]) want.insert(u + to_new[u]);
      ASSERT_EQ(csr.degree(i), static_cast<edge_count_t>(want.size()));
      ASSERT_EQ(std::set<vertex_t>(csr.begin(i), csr.end(i)), want);
      for (const TypeParam* it = csr.begin(i); it + 1 < csr.end(i); ++it) {
        const int d0 = degree_code(arcs[old_of_new[it[0]]]), d1 = degree_code(arcs[old_of_new[it[1]]]);
        ASSERT_TRUE(d0 > d1 || (d0 == d1 && it[0] < it[1])) << "row " << i << " round " << round;
      }
    }
  }
}

// Kernel 1's two placements (graph/row_builder.hpp) put every arc in its row: by row cursors, and
// by blocks of tagged entries (tags in the word, or partly in side bytes), each block sorted into
// its rows through scratch or, over the scratch limit (here 0 and 64 entries), in place. Rows are
// compared as sorted lists, duplicates kept.
TYPED_TEST(Csr1DTest, PlacementsPutEveryArcInItsRow) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(11, 16, 9);
  const std::vector<Edge> edges = all_edges(gen);
  const SliceSource source = source_of(edges, world);
  const Partition1D part(gen.num_vertices(), world.size(), world.rank());
  std::vector<std::vector<vertex_t>> expect(gen.num_vertices());
  for (const Edge& e : edges) {
    if (e.u == e.v) continue;
    expect[e.u].push_back(e.v);
    expect[e.v].push_back(e.u);
  }
  for (auto& row : expect) std::sort(row.begin(), row.end());
  const auto dest_of = [&](vertex_t row, vertex_t) { return part.owner(row); };
  const auto row_base = [&](int rank) { return part.begin_of(rank); };
  const auto check = [&](rows::Rows<TypeParam> placed, const std::string& how) {
    ASSERT_EQ(static_cast<local_t>(placed.offsets.size()), part.local_count() + 1) << how;
    ASSERT_EQ(placed.offsets[part.local_count()], static_cast<edge_count_t>(placed.columns.size())) << how;
    for (local_t i = 0; i < part.local_count(); ++i) {
      std::vector<vertex_t> row(placed.columns.begin() + placed.offsets[i], placed.columns.begin() + placed.offsets[i + 1]);
      std::sort(row.begin(), row.end());
      ASSERT_EQ(row, expect[part.to_global(i)]) << how << ", row " << i;
    }
  };
  const std::int64_t round = 700;
  check(rows::place_by_row<TypeParam>(source, world, round, part.local_count(), dest_of, row_base), "by row");
  const int to_bits = rows::id_bits(gen.num_vertices());
  for (int tag_bits : {1, 4, 8}) {
    const std::vector<std::int64_t> bases = rows::block_bases(world, part.local_count(), tag_bits);
    for (edge_count_t scratch : {edge_count_t{0}, edge_count_t{64}, rows::kBlockScratch}) {
      check(rows::place_by_block<TypeParam>(source, world, round, part.local_count(), to_bits, tag_bits, dest_of,
                                            row_base, bases, {}, scratch),
            "by block, tag bits " + std::to_string(tag_bits) + ", scratch " + std::to_string(scratch));
    }
  }
  // A column word with room for 2 tag bits above the id: the rest of the tag goes in side bytes.
  const int wide_to_bits = static_cast<int>(8 * sizeof(TypeParam)) - 2;
  for (int tag_bits : {3, 8, 10}) {
    const std::vector<std::int64_t> bases = rows::block_bases(world, part.local_count(), tag_bits);
    for (edge_count_t scratch : {edge_count_t{0}, rows::kBlockScratch}) {
      check(rows::place_by_block<TypeParam>(source, world, round, part.local_count(), wide_to_bits, tag_bits, dest_of,
                                            row_base, bases, {}, scratch),
            "by block with side tags, tag bits " + std::to_string(tag_bits) + ", scratch " + std::to_string(scratch));
    }
  }
}

// The vertex count's sketch of arcs per word of rows stands in for the build's first pass: the
// same rows, entry for entry, at SCALE 12 (tag blocks of 2^10 rows, 16 words) and with 500-tuple
// rounds; the sketch is released once the build has read it.
TYPED_TEST(Csr1DTest, SketchedCountsBuildTheSameRows) {
  const mpi::Comm world = mpi::Comm::world();
  const KroneckerGenerator gen(12, 16, 5);
  const SliceSource source = source_of(all_edges(gen), world);
  for (std::int64_t round : {std::int64_t{500}, exchange::kBuildRound}) {
    ArcSketch sketch;
    const vertex_t n = count_vertices(source, world, &sketch);
    ASSERT_EQ(n, gen.num_vertices());
    ASSERT_TRUE(sketch.usable());
    const Partition1D part(n, world.size(), world.rank());
    const Csr1D<TypeParam> plain = build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round);
    const Csr1D<TypeParam> sketched =
        build_csr_1d<TypeParam>(source, part, world, RowOrder::by_neighbour_degree, round, nullptr, &sketch);
    EXPECT_EQ(sketch.arcs_in_words(0, n / kWordBits), 0) << "not released";
    ASSERT_EQ(std::vector<edge_count_t>(sketched.offsets.begin(), sketched.offsets.end()),
              std::vector<edge_count_t>(plain.offsets.begin(), plain.offsets.end()));
    ASSERT_TRUE(std::equal(sketched.begin(0), sketched.end(part.local_count() - 1), plain.begin(0)));
  }
}

// The sketch counts each word's arcs exactly past its 16-bit counters' wrap, and gives up (on every
// rank) on a negative id or one of 2^28 and above.
TEST(ArcSketchTest, CountsPastWrapsAndGivesUpOnWideIds) {
  const mpi::Comm world = mpi::Comm::world();
  ArcSketch sketch;
  sketch.start(2);
  for (int k = 0; k < 70000; ++k) sketch.add(k % 2, 5, 70);  // rows 5 and 70: words 0 and 1
  for (int k = 0; k < 3; ++k) sketch.add(0, 200000, 64 * 9);
  sketch.finish(world);
  ASSERT_TRUE(sketch.usable());
  EXPECT_EQ(sketch.arcs_in_words(0, 1), 70000);
  EXPECT_EQ(sketch.arcs_in_words(1, 2), 70000);
  EXPECT_EQ(sketch.arcs_in_words(0, 2), 140000);
  EXPECT_EQ(sketch.arcs_in_words(9, 10), 3);
  EXPECT_EQ(sketch.arcs_in_words(200000 / 64, 200000 / 64 + 1), 3);
  EXPECT_EQ(sketch.arcs_in_words(2, 9), 0);
  EXPECT_EQ(sketch.arcs_in_words(0, ArcSketch::kMaxIds / kWordBits), 140006);
  for (vertex_t wide : {ArcSketch::kMaxIds, vertex_t{-1}}) {
    ArcSketch given_up;
    given_up.start(1);
    given_up.add(0, 1, 2);
    if (world.rank() == 0) given_up.add(0, 3, wide);
    given_up.finish(world);
    EXPECT_FALSE(given_up.usable()) << wide;
  }
}

TEST(Csr1DIds, ThirtyTwoBitsHoldUpTo2To32Vertices) {
  EXPECT_TRUE(fits_32_bit(vertex_t{1} << 32));
  EXPECT_FALSE(fits_32_bit((vertex_t{1} << 32) + 1));
  EXPECT_EQ(settle_ids(IdWidth::automatic, vertex_t{1} << 20), IdWidth::bits32);
  EXPECT_EQ(settle_ids(IdWidth::automatic, vertex_t{1} << 33), IdWidth::bits64);
  EXPECT_EQ(settle_ids(IdWidth::bits64, vertex_t{1} << 20), IdWidth::bits64);
  EXPECT_THROW(settle_ids(IdWidth::bits32, vertex_t{1} << 33), UserError);
  // Engines read only a settled width.
  BfsOptions unsettled;
  EXPECT_THROW(stores_32_bit_ids(unsettled), std::logic_error);
}

// 32-bit while the last offset fits, 64-bit past it; the same values either way.
TEST(RowOffsetsTest, NarrowWhileTheEntriesFit) {
  const std::vector<edge_count_t> fits = {0, 3, 3, (edge_count_t{1} << 32) - 1};
  const std::vector<edge_count_t> wide = {0, 3, (edge_count_t{1} << 32) - 1, edge_count_t{1} << 32};
  for (const std::vector<edge_count_t>& values : {fits, wide}) {
    const RowOffsets offsets(big_vector<edge_count_t>(values.begin(), values.end()));
    ASSERT_EQ(offsets.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(offsets[i], values[i]);
    EXPECT_EQ(offsets.back(), values.back());
  }
  EXPECT_TRUE(RowOffsets(big_vector<edge_count_t>(fits.begin(), fits.end())).narrow());
  EXPECT_FALSE(RowOffsets(big_vector<edge_count_t>(wide.begin(), wide.end())).narrow());
}

// Only rows with entries keep an offset; every row's range is what the full table says, across
// word boundaries, for an all-empty table and for one with no rows.
TEST(SparseRowsTest, RangesEqualTheFullTable) {
  std::vector<edge_count_t> lengths(200, 0);
  for (int u : {0, 1, 63, 64, 65, 127, 128, 190, 199}) lengths[u] = static_cast<edge_count_t>(u % 7 + 1);
  for (const bool empty : {false, true}) {
    big_vector<edge_count_t> dense(lengths.size() + 1, 0);
    for (std::size_t u = 0; u < lengths.size(); ++u) dense[u + 1] = dense[u] + (empty ? 0 : lengths[u]);
    const SparseRows<std::uint32_t> rows(dense);
    ASSERT_EQ(rows.rows(), 200);
    EXPECT_EQ(rows.filled_rows(), empty ? 0 : 9);
    EXPECT_EQ(rows.entries(), dense.back());
    std::int64_t filled = 0;
    for (local_t u = 0; u < rows.rows(); ++u) {
      const auto range = rows.range(u);
      EXPECT_EQ(range.first, dense[u]) << u;
      EXPECT_EQ(range.last, dense[u + 1]) << u;
      EXPECT_EQ(rows.filled(u), dense[u + 1] > dense[u]) << u;
      if (rows.filled(u)) {
        EXPECT_EQ(rows.rank(u), filled) << u;
        EXPECT_EQ(rows.offset(filled), dense[u]) << u;
        ++filled;
      }
    }
  }
  // 64-bit counts from a base every 2^2 words (2^26 in use), crossing many bases.
  std::vector<edge_count_t> many(2000, 0);
  for (std::size_t u = 0; u < many.size(); ++u) many[u] = (u * 2654435761u) % 5 < 2 ? u % 3 + 1 : 0;
  big_vector<edge_count_t> dense(many.size() + 1, 0);
  for (std::size_t u = 0; u < many.size(); ++u) dense[u + 1] = dense[u] + many[u];
  const SparseRows<std::uint64_t, 2> based(dense);
  const SparseRows<std::uint32_t> plain(dense);
  EXPECT_GT(based.filled_rows(), 500);
  for (local_t u = 0; u < based.rows(); ++u) {
    ASSERT_EQ(based.rank(u), plain.rank(u)) << u;
    ASSERT_EQ(based.range(u).first, dense[u]) << u;
    ASSERT_EQ(based.range(u).last, dense[u + 1]) << u;
  }
  for (std::int64_t w = 0; w * kWordBits < based.rows(); ++w) ASSERT_EQ(based.before(w), plain.before(w)) << w;

  // Listed (a sorted list of the rows with entries, by part): the same places and ranges, with
  // parts that start inside words, empty parts, and a part with nothing after it.
  for (const std::vector<local_t>& starts : {std::vector<local_t>{0}, {0, 100, 100, 1000, 1999}, {0, 63, 64, 1500}}) {
    SparseRows<std::uint64_t> listed(dense);
    listed.list_rows(starts);
    ASSERT_TRUE(listed.listed());
    ASSERT_EQ(listed.filled_rows(), plain.filled_rows());
    for (local_t u = 0; u < listed.rows(); ++u) {
      ASSERT_EQ(listed.filled(u), plain.filled(u)) << u;
      ASSERT_EQ(listed.rank(u), plain.rank(u)) << u;
      ASSERT_EQ(listed.range(u).first, dense[u]) << u;
      ASSERT_EQ(listed.range(u).last, dense[u + 1]) << u;
    }
    for (std::size_t p = 0; p < starts.size(); ++p) {  // each part's list: its rows with entries, rising
      const local_t end = p + 1 < starts.size() ? starts[p + 1] : listed.rows();
      ASSERT_EQ(listed.part_first(static_cast<int>(p)), plain.rank(starts[p]));
      std::int64_t k = listed.part_first(static_cast<int>(p));
      for (local_t u = starts[p]; u < end; ++u)
        if (plain.filled(u)) ASSERT_EQ(listed.list()[k++], u - starts[p]);
      ASSERT_EQ(k, listed.part_first(static_cast<int>(p) + 1));
    }
  }

  const SparseRows<std::uint64_t> none(big_vector<edge_count_t>(1, 0));
  EXPECT_EQ(none.rows(), 0);
  EXPECT_EQ(none.filled_rows(), 0);
  EXPECT_EQ(none.entries(), 0);
}

// Each row sorted, its first entry coded as the zigzag gap from the row's vertex, the others as
// gaps from the one before, 7 bits a byte.
TEST(RowCodes, CountsTheBytesOfSortedGaps) {
  EXPECT_EQ(vlq_bytes(0), 1);
  EXPECT_EQ(vlq_bytes(127), 1);
  EXPECT_EQ(vlq_bytes(128), 2);
  EXPECT_EQ(vlq_bytes(16383), 2);
  EXPECT_EQ(vlq_bytes(16384), 3);
  // Rows of vertices 200, 201, 202: {5, 1, 3} -> gaps 1 - 200 (zigzag 399: 2 bytes), 2, 2;
  // {} -> nothing; {0, 300} -> 0 - 202 (zigzag 403: 2 bytes), 300 (2 bytes).
  const std::vector<edge_count_t> offsets = {0, 3, 3, 5};
  const std::vector<std::uint32_t> columns = {5, 1, 3, 300, 0};
  const RowCodeSize size = measure_row_codes(offsets, columns.data(), 3, 200);
  EXPECT_EQ(size.entries, 5);
  EXPECT_EQ(size.bytes, 2 + 1 + 1 + 2 + 2);
}

}  // namespace
}  // namespace g500
