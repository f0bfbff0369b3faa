// The graph file parsers' pure functions (src/io/graph_parse.hpp), on the cases a hostile sweep
// found: malformed Matrix Market files, byte order marks, NUL bytes and huge tokens in messages.
#include <gtest/gtest.h>

#include <string>

#include "io/graph_parse.hpp"

namespace g500 {
namespace {

const std::string kPattern = "%%MatrixMarket matrix coordinate pattern general\n";

TEST(MatrixMarket, AWellFormedFileIsAGraph) {
  EXPECT_EQ(check_matrix_market_text(kPattern + "% comment\n10 10 3\n1 2\n2 3\n\n10 1\n"), "");
  EXPECT_EQ(check_matrix_market_text("%%MatrixMarket matrix coordinate real general\n10 10 2\n1 2 0.5\n2 3 1\n"), "");
}

TEST(MatrixMarket, EntriesOutsideTheDeclaredMatrixAreRefusedWithTheirLine) {
  EXPECT_EQ(check_matrix_market_text(kPattern + "5 5 2\n1 2\n1000 3\n"),
            "line 4: entry (1000, 3) lies outside the 5 x 5 matrix the size line declares");
  EXPECT_EQ(check_matrix_market_text(kPattern + "5 3 1\n1 4\n"),
            "line 3: entry (1, 4) lies outside the 5 x 3 matrix the size line declares");
}

TEST(MatrixMarket, EntryCountsMustMatchTheSizeLine) {
  EXPECT_EQ(check_matrix_market_text(kPattern + "10 10 2\n1 2\n2 3\n3 4\n"),
            "line 5: more entries than the 2 the size line (line 2) declares");
  EXPECT_EQ(check_matrix_market_text(kPattern + "10 10 5\n1 2\n2 3\n3 4\n"),
            "the size line (line 2) declares 5 entries, and the file holds 3");
}

TEST(MatrixMarket, ValuesMustMatchTheBanner) {
  EXPECT_EQ(check_matrix_market_text(kPattern + "10 10 1\n1 2 0.5\n"),
            "line 3: a pattern matrix's entries carry no value, and this one has one");
  EXPECT_EQ(check_matrix_market_text("%%MatrixMarket matrix coordinate real general\n10 10 1\n1 2\n"),
            "line 3: the banner gives entries a value, and this one has none");
}

// The banner is read word by word: a matrix g500 would read unfaithfully, or a word it does not
// know, is refused (skew-symmetric entries are negated across the diagonal; no weight is negative).
TEST(MatrixMarket, BannerIsReadWordByWord) {
  EXPECT_TRUE(parse_banner("%%MatrixMarket matrix coordinate real symmetric").error.empty());
  EXPECT_TRUE(parse_banner("%%MatrixMarket matrix coordinate integer general\r").error.empty());
  EXPECT_FALSE(parse_banner("%%MatrixMarket matrix coordinate pattern general").valued);
  EXPECT_EQ(parse_banner("%%MatrixMarket matrix coordinate real skew-symmetric").error,
            "a skew-symmetric matrix is no undirected graph with non-negative weights");
  EXPECT_EQ(parse_banner("%%MatrixMarket matrix coordinate real hermitian").error,
            "a hermitian matrix is no undirected graph with non-negative weights");
  EXPECT_EQ(parse_banner("%%MatrixMarket matrix coordinate real general extra").error,
            "the banner has a word too many: 'extra'");
  EXPECT_EQ(parse_banner("%%MatrixMarket matrix coordinate real").error,
            "the banner names no symmetry (general or symmetric)");
  EXPECT_EQ(parse_banner("%%MatrixMarket matrix coordinate reals general").error,
            "the field 'reals' is none of real, integer or pattern");
  EXPECT_EQ(parse_banner("%%MatrixMarket vector coordinate real general").error,
            "the banner's object must be 'matrix'");
  EXPECT_EQ(parse_banner("%%MatrixMarketmatrix coordinate real general").error, "no %%MatrixMarket banner");
}

TEST(MatrixMarket, SizeLineKeepsAllThreeNumbers) {
  const std::optional<MatrixMarketSize> size = parse_size_line("7 9 120");
  ASSERT_TRUE(size);
  EXPECT_EQ(size->rows, 7);
  EXPECT_EQ(size->cols, 9);
  EXPECT_EQ(size->entries, 120);
  EXPECT_EQ(size->vertices(), 9);
  EXPECT_FALSE(parse_size_line("7 9"));
}

TEST(TextFiles, AByteOrderMarkIsSkipped) {
  EXPECT_EQ(without_bom("\xEF\xBB\xBF" "331 332"), "331 332");
  EXPECT_EQ(without_bom("331 332"), "331 332");
  EXPECT_EQ(check_matrix_market_text("\xEF\xBB\xBF" + kPattern + "10 10 1\n1 2\n"), "");
}

TEST(TextFiles, OffendingTextIsEscapedAndClipped) {
  const ParsedLine nul = parse_edge_line(std::string("2\0" "3 4", 5), 0);
  ASSERT_EQ(nul.kind, ParsedLine::bad);
  EXPECT_EQ(nul.why, "'2\\x003' is not a vertex id");
  const ParsedLine huge = parse_edge_line(std::string(100000, '9') + " 3", 0);
  ASSERT_EQ(huge.kind, ParsedLine::bad);
  EXPECT_LT(huge.why.size(), 80u);
  EXPECT_NE(huge.why.find("..."), std::string::npos);
  EXPECT_EQ(shown_text("\xEF\xBB\xBF" "1"), "\\xef\\xbb\\xbf1");
}

}  // namespace
}  // namespace g500
