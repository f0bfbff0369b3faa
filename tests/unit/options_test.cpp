#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "bfs/engine_choice.hpp"
#include "harness/memory_check.hpp"
#include "harness/resolve.hpp"
#include "validate/bfs_validator.hpp"
#include "validate/sssp_validator.hpp"
#include "core/error.hpp"
#include "exchange/rounds.hpp"
#include "harness/traffic_summary.hpp"

namespace g500 {
namespace {

Command parse(std::vector<std::string> args) {
  args.insert(args.begin(), "g500");
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

std::string error_of(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(Options, DefaultsFollowTheIssue) {
  const Command c = parse({});
  EXPECT_EQ(c.kind, Command::Kind::run);
  EXPECT_EQ(c.run.scale, 20);
  EXPECT_EQ(c.run.edgefactor, 16);
  EXPECT_EQ(c.run.roots, 64);
  EXPECT_EQ(c.run.bfs.engine, "auto");
  EXPECT_EQ(c.run.bfs.auto_candidates, (std::vector<std::string>{"hybrid-1d", "hybrid-2d"}));
  EXPECT_EQ(c.run.bfs.bottom_up.summary_granularity, 64);
  EXPECT_FALSE(c.run.skip_validation);
}

TEST(Options, ParsesEveryRunOption) {
  const Command c = parse({"--scale", "12", "--edgefactor", "8", "--roots", "5", "--alpha", "3", "--beta", "4",
                           "--summary-granularity", "256", "--skip-validation", "--json", "x.json", "-q", "--ids", "64",
                           "--comm-matrix"});
  EXPECT_EQ(c.run.scale, 12);
  EXPECT_EQ(c.run.edgefactor, 8);
  EXPECT_EQ(c.run.roots, 5);
  EXPECT_DOUBLE_EQ(c.run.bfs.direction.alpha, 3);
  EXPECT_DOUBLE_EQ(c.run.bfs.direction.beta, 4);
  EXPECT_EQ(c.run.bfs.bottom_up.summary_granularity, 256);
  EXPECT_TRUE(c.run.skip_validation);
  EXPECT_EQ(c.run.json_path, "x.json");
  EXPECT_TRUE(c.run.quiet);
  EXPECT_EQ(c.run.bfs.ids, IdWidth::bits64);
  EXPECT_TRUE(c.run.comm_matrix);
  EXPECT_EQ(parse({}).run.bfs.ids, IdWidth::automatic);
}

TEST(Options, GenerateSubcommand) {
  const Command c = parse({"generate", "--scale", "9", "-o", "g.bin", "--weights", "g.w"});
  EXPECT_EQ(c.kind, Command::Kind::generate);
  EXPECT_EQ(c.generate.scale, 9);
  EXPECT_EQ(c.generate.output, "g.bin");
  EXPECT_EQ(c.generate.weights_output, "g.w");
  EXPECT_NE(error_of({"generate", "--scale", "9"}), "");  // -o is required
}

TEST(Options, BadInputIsOneLineNamingTheProblem) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--scale", "abc"}, "scale"},
      {{"--scale", "0"}, "--scale must be between 1 and 62"},
      {{"--scale", "63"}, "--scale must be between 1 and 62"},
      {{"--edgefactor", "0"}, "--edgefactor must be at least 1"},
      {{"--roots", "0"}, "--roots must be at least 1"},
      {{"--bfs", "nope"}, "unknown BFS engine 'nope'"},
      {{"--summary-granularity", "48"}, "power of two"},
      {{"--alpha", "-1"}, "--alpha must be positive"},
      {{"--no-such-flag"}, "no-such-flag"},
  };
  for (const auto& [args, expect] : cases) {
    const std::string msg = error_of(args);
    EXPECT_NE(msg.find(expect), std::string::npos) << "args " << args[0] << " gave: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

// One rule: an option that cannot change the run is refused, naming the option and why.
TEST(Options, OptionsThatDoNotApplyAreRefused) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--bfs", "top-down-2d", "--hubs", "3"}, "--hubs does not apply to --bfs top-down-2d"},
      {{"--bfs", "top-down-2d", "--node-shared"}, "--node-shared does not apply to --bfs top-down-2d"},
      {{"--bfs", "top-down-2d", "--relay", "auto"}, "--relay does not apply to --bfs top-down-2d"},
      {{"--bfs", "top-down-2d", "--coalescing-size", "5"}, "--coalescing-size does not apply to --bfs top-down-2d"},
      {{"--bfs", "top-down-1d", "--grid", "2x1"}, "--grid does not apply to --bfs top-down-1d"},
      {{"--bfs", "top-down-1d", "--compress", "none"}, "--compress does not apply to --bfs top-down-1d"},
      {{"--bfs", "hybrid-2d", "--summary-check"}, "--summary-check does not apply to --bfs hybrid-2d"},
      {{"--bfs", "top-down-1d", "--hubs", "4"}, "--hubs does not apply to --bfs top-down-1d"},
      {{"--input-weights", "g.w"}, "--input-weights does not apply without --input"},
      {{"--format", "mtx"}, "--format does not apply without --input"},
      {{"--relabel", "on"}, "--relabel does not apply without --input"},
      {{"--comm-matrix"}, "--comm-matrix does not apply without --json"},
      {{"--output-format", "binary"}, "--output-format does not apply without --output"},
      {{"--delta", "0.5"}, "--delta does not apply without --kernels sssp"},
      {{"--kernels", "sssp", "--alpha", "3"}, "--alpha does not apply without the BFS kernel"},
      {{"--kernels", "sssp", "--bfs", "hybrid-2d"}, "--bfs does not apply without the BFS kernel"},
      {{"--kernels", "bfs,bfs"}, "--kernels names bfs twice"},
      {{"--root", "5", "--root", "5"}, "--root 5 is given twice"},
      {{"--json", ""}, "--json needs a file name"},
      {{"--output", ""}, "--output needs a file name"},
      {{"--input", ""}, "--input needs a file name"},
      {{"--json", "r.json", "--output", "./r.json"}, "--json and --output name the same file"},
      {{"generate", "-o", ""}, "--output needs a file name"},
  };
  for (const auto& [args, expect] : cases) {
    const std::string msg = error_of(args);
    EXPECT_NE(msg.find(expect), std::string::npos) << "args " << args[0] << " " << args.back() << " gave: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  // ... and what does apply still parses.
  EXPECT_EQ(parse({"--bfs", "hybrid-2d", "--grid", "1x1", "--alpha", "9"}).run.bfs.grid.grid, "1x1");
  EXPECT_TRUE(parse({"--kernels", "sssp", "--ids", "64", "--delta", "0.5"}).run.kernels.sssp);
  EXPECT_TRUE(parse({"--bfs", "top-down-1d", "--coalescing-size", "5", "--ids", "32"}).run.kernels.bfs);
}

// --bfs auto: the options given narrow the engines it may choose; the rank count picks among them.
TEST(Options, AutoChoosesAmongTheEnginesThatReadTheOptions) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(parse({"--hubs", "4"}).run.bfs.auto_candidates, Names{"hybrid-1d"});
  EXPECT_EQ(parse({"--summary-check"}).run.bfs.auto_candidates, Names{"hybrid-1d"});
  EXPECT_EQ(parse({"--grid", "2x2"}).run.bfs.auto_candidates, Names{"hybrid-2d"});
  EXPECT_EQ(parse({"--alpha", "30", "--ids", "64"}).run.bfs.auto_candidates, (Names{"hybrid-1d", "hybrid-2d"}));
  EXPECT_TRUE(parse({"--bfs", "hybrid-1d"}).run.bfs.auto_candidates.empty());
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--coalescing-size", "9"}, "--coalescing-size does not apply to --bfs auto"},
      {{"--bfs", "auto", "--coalescing-size", "9"}, "(it is read by top-down-1d); name the engine"},
      {{"--hubs", "2", "--grid", "2x2"}, "no engine reads both --hubs (hybrid-1d) and --grid (hybrid-2d)"},
      {{"--summary-check", "--compress", "none"}, "no engine reads both --summary-check"},
  };
  for (const auto& [args, expect] : refused) {
    const std::string msg = error_of(args);
    EXPECT_NE(msg.find(expect), std::string::npos) << "args " << args[0] << " gave: " << msg;
  }

  const Names both = {"hybrid-1d", "hybrid-2d"};
  EXPECT_EQ(choose_engine(both, 1, "auto"), "hybrid-1d");
  EXPECT_EQ(choose_engine(both, 64, "auto"), "hybrid-1d");
  EXPECT_EQ(choose_engine(both, kAutoTwoDRanks, "auto"), "hybrid-2d");
  EXPECT_EQ(choose_engine(both, 256, "auto"), "hybrid-2d");
  EXPECT_EQ(choose_engine(both, 1024, "auto"), "hybrid-2d");
  EXPECT_EQ(choose_engine(both, 131, "auto"), "hybrid-1d");  // a prime: a 1 x 131 grid
  EXPECT_EQ(choose_engine(both, 2 * 67, "auto"), "hybrid-1d");  // 2 x 67: too thin
  EXPECT_EQ(choose_engine(Names{"hybrid-1d"}, 256, "auto"), "hybrid-1d");
  EXPECT_EQ(choose_engine(Names{"hybrid-2d"}, 2, "2x1"), "hybrid-2d");
}

// Words only, each option naming its words; the values they stand for are not words.
TEST(Options, ChoicesTakeTheirWordsOnly) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--ids", "1"}, "--ids: must be auto|32|64, got '1'"},
      {{"--input", "g.mtx", "--relabel", "foo"}, "--relabel: must be auto|on|off, got 'foo'"},
      {{"--input", "g.mtx", "--relabel", "0"}, "--relabel: must be auto|on|off, got '0'"},
      {{"--degree-order", "1"}, "--degree-order: must be auto|on|off, got '1'"},
      {{"--output", "t.txt", "--output-format", "1"}, "--output-format: must be text|binary, got '1'"},
      {{"--bfs", "hybrid-2d", "--compress", "0"}, "--compress: must be vlq|none, got '0'"},
      {{"--kernels", "dfs"}, "--kernels: must be bfs|sssp, got 'dfs'"},
  };
  for (const auto& [args, expect] : refused) EXPECT_EQ(error_of(args), expect);
  const Command c = parse({"--ids", "32", "--degree-order", "off", "--output", "t.txt", "--output-format", "binary"});
  EXPECT_EQ(c.run.bfs.ids, IdWidth::bits32);
  EXPECT_EQ(c.run.bfs.bottom_up.degree_order, DegreeOrder::off);
  EXPECT_TRUE(c.run.output_binary);
  EXPECT_EQ(parse({"--input", "g.mtx", "--relabel", "off"}).run.relabel, Relabel::off);
}

// --delta is read as a double and must fit a float, positive; the message quotes what was typed.
TEST(Options, DeltaIsCheckedAsTyped) {
  for (const std::string bad : {"1e-300", "1e308", "0", "-1", "abc", "0.1x", "nan", "inf"}) {
    const std::string msg = error_of({"--kernels", "sssp", "--delta", bad});
    EXPECT_NE(msg.find("--delta must be a positive number"), std::string::npos) << msg;
    EXPECT_NE(msg.find("got '" + bad + "'"), std::string::npos) << msg;
  }
  EXPECT_FLOAT_EQ(parse({"--kernels", "sssp", "--delta", "0.25"}).run.kernels.sssp_options.delta, 0.25f);
  EXPECT_FLOAT_EQ(parse({"--kernels", "sssp"}).run.kernels.sssp_options.delta, kDefaultDelta);
}

TEST(Options, HelpIsNotAnError) {
  const Command c = parse({"--help"});
  EXPECT_EQ(c.kind, Command::Kind::help);
  EXPECT_NE(c.help_text.find("--summary-granularity"), std::string::npos);
}

// A generated graph's estimate a rank, its options settled as a run settles them.
std::int64_t estimate_run_bytes(int scale, int edgefactor, int ranks, const BfsOptions& bfs,
                                const KernelChoice& kernels = {}) {
  RunOptions asked;
  asked.bfs = bfs;
  asked.kernels = kernels;
  const ProblemSize size{std::ldexp(1.0, scale), edgefactor * std::ldexp(1.0, scale), ranks};
  const RunOptions run = resolved_options(asked, size);
  return estimate_graph_bytes(size.vertices, size.tuples, ranks, run.bfs, run.kernels);
}

// A run's open choices are settled once, for its size: the engine, ids, replicas and batch.
TEST(Resolve, SettlesEveryOpenChoiceOnce) {
  const RunOptions asked = parse({}).run;
  ASSERT_EQ(asked.bfs.engine, kAutoEngine);
  const ProblemSize small{1 << 20, 16 << 20, 2};
  const RunOptions run = resolved_options(asked, small);
  EXPECT_EQ(run.bfs.engine, "hybrid-1d");
  EXPECT_EQ(run.bfs.ids, IdWidth::bits32);
  EXPECT_EQ(run.kernels.sssp_options.replicas, Replicas::whole);
  EXPECT_EQ(run.kernels.validation_batch, asked.kernels.validation_batch);
  // Past 2^32 vertices: 64-bit ids, and kernel 3 keeps hubs where a bit a vertex is too much.
  const RunOptions huge = resolved_options(asked, {std::ldexp(1.0, 40), std::ldexp(1.0, 44), 1 << 16});
  EXPECT_EQ(huge.bfs.ids, IdWidth::bits64);
  EXPECT_EQ(huge.kernels.sssp_options.replicas, Replicas::hubs);
  EXPECT_EQ(huge.bfs.engine, "hybrid-2d");
  // From kHubsFromRanks ranks kernel 3 keeps hubs at any size (a rank's whole form grows with N);
  // asked for whole, it keeps whole.
  const ProblemSize many{1 << 20, 16 << 20, kHubsFromRanks};
  EXPECT_EQ(resolved_options(asked, {1 << 20, 16 << 20, kHubsFromRanks - 1}).kernels.sssp_options.replicas,
            Replicas::whole);
  EXPECT_EQ(resolved_options(asked, many).kernels.sssp_options.replicas, Replicas::hubs);
  EXPECT_EQ(resolved_options(parse({"--kernels", "bfs,sssp", "--sssp-replicas", "whole"}).run, many)
                .kernels.sssp_options.replicas,
            Replicas::whole);
  // No larger a batch than the searches drawn, one a tree when trees are written, and no more than fits.
  EXPECT_EQ(resolved_options(parse({"--roots", "3"}).run, small).kernels.validation_batch, 3);
  EXPECT_EQ(resolved_options(parse({"--output", "trees.txt"}).run, small).kernels.validation_batch, 1);
  const ProblemSize sparse{1 << 26, 2 << 26, 2};  // where the batch's tables set the peak
  const RunOptions at_sparse = resolved_options(asked, sparse);
  const auto peak_with = [&](int batch) {
    KernelChoice k = at_sparse.kernels;
    k.validation_batch = batch;
    return estimate_phases(sparse.vertices, sparse.tuples, 2, at_sparse.bfs, k).peak();
  };
  ASSERT_LT(peak_with(5), peak_with(6));
  const ResolvedRun tight = resolve(asked, sparse, [&](double bytes) { return bytes <= peak_with(5); });
  EXPECT_EQ(tight.options.kernels.validation_batch, 5);
  EXPECT_EQ(tight.batch_asked, asked.kernels.validation_batch);
  // Settled options settle to themselves.
  EXPECT_EQ(resolved_options(run, small).bfs.engine, run.bfs.engine);
  EXPECT_THROW(resolved_options(parse({"--ids", "32"}).run, {std::ldexp(1.0, 33), 1, 2}), UserError);
}

TEST(MemoryEstimate, GrowsWithScaleAndShrinksWithRanks) {
  EXPECT_LT(estimate_run_bytes(20, 16, 1, BfsOptions{}), estimate_run_bytes(21, 16, 1, BfsOptions{}));
  EXPECT_GT(estimate_run_bytes(24, 16, 1, BfsOptions{}), estimate_run_bytes(24, 16, 4, BfsOptions{}));
  // SCALE 22 on one rank (67M tuples, no edge list kept, 32-bit columns): between 8 and 24 bytes a
  // tuple; 64-bit columns need more. SCALE 42 is far beyond any single machine.
  const double tuples = 16.0 * (1 << 22);
  EXPECT_GT(estimate_run_bytes(22, 16, 1, BfsOptions{}), 8 * tuples);
  EXPECT_LT(estimate_run_bytes(22, 16, 1, BfsOptions{}), 24 * tuples);
  BfsOptions wide;
  wide.ids = IdWidth::bits64;
  EXPECT_GT(estimate_run_bytes(22, 16, 1, wide), estimate_run_bytes(22, 16, 1, BfsOptions{}));
  EXPECT_GT(estimate_run_bytes(42, 16, 1, BfsOptions{}), std::int64_t{1} << 50);
}

TEST(MemoryEstimate, CountsTheValidationBatch) {
  // Each search beyond the first: a byte of trees and the waiting parents in bit_width(N) = 23 bits,
  // per local vertex only (no rank holds a table of every vertex). The batch's tables live while
  // searching, not while kernel 1 builds: a small batch may add nothing to the peak.
  KernelChoice one, eight, sixteen;
  one.validation_batch = 1;
  eight.validation_batch = 8;
  sixteen.validation_batch = 16;
  const double n = 1 << 22, n_local = n / 2 + 64;
  const auto estimate = [](const KernelChoice& k) { return static_cast<double>(estimate_run_bytes(22, 16, 2, BfsOptions{}, k)); };
  EXPECT_LE(estimate(one), estimate(eight));
  EXPECT_NEAR(estimate(sixteen) - estimate(eight), 8 * (1 + 23.0 / 8) * n_local, 2.0);
  EXPECT_GT(parse({"--validation-batch", "3"}).run.kernels.validation_batch, 2);
}

TEST(MemoryEstimate, CountsTheSsspValidationBatch) {
  // Kernel 3's batch: four bytes a search per local vertex (its distances), beside the kept parents
  // and a confirmation bit; the BFS batch's tables are gone by then. A round's buffers take the same
  // budget whatever the batch (to within a tuple's bytes: a round holds whole tuples).
  KernelChoice eight, sixteen;
  eight.sssp = sixteen.sssp = true;
  eight.validation_batch = 8;
  sixteen.validation_batch = 16;
  const double n_local = (1 << 22) / 2 + 64;
  const auto estimate = [](const KernelChoice& k) { return static_cast<double>(estimate_run_bytes(22, 16, 2, BfsOptions{}, k)); };
  EXPECT_NEAR(estimate(sixteen) - estimate(eight),
              8 * (4 + 23.0 / 8 + 1.0 / 8) * n_local, 200.0);
  EXPECT_EQ(parse({"--kernels", "sssp", "--validation-batch", "4"}).run.kernels.validation_batch, 4);
}

// What the validators hold a rank depends on the rank's share of the graph, not on the graph: at a
// fixed 2^22 vertices a rank it stays the same from SCALE 36 on 16,384 ranks to SCALE 42 on a
// million (ids are 64-bit past 2^32 vertices either way; kept parents grow a bit a doubling), and
// it stays well below a GiB where a table of every vertex would take terabytes.
TEST(MemoryEstimate, ValidationHoldsTheRanksShareOnly) {
  const double n_local = 1 << 22, m_local = 16 * n_local;
  const double scale36 = BfsBatchValidator::bytes(std::ldexp(1.0, 36), n_local, m_local, 1 << 14, 16);
  const double scale42 = BfsBatchValidator::bytes(std::ldexp(1.0, 42), n_local, m_local, 1 << 20, 16);
  EXPECT_LT(scale42 - scale36, 15 * 6.0 / 8 * n_local + 1e6);  // 6 more bits a kept parent
  EXPECT_LT(scale42, 1.0 * (1 << 30));
  const double sssp36 = SsspBatchValidator::bytes(std::ldexp(1.0, 36), n_local, m_local, 1 << 14, 16);
  const double sssp42 = SsspBatchValidator::bytes(std::ldexp(1.0, 42), n_local, m_local, 1 << 20, 16);
  EXPECT_LT(sssp42 - sssp36, 15 * 6.0 / 8 * n_local + 1e6);
  EXPECT_LT(sssp42, 1.0 * (1 << 30));
}

// A validation round is sized by the byte budget where ranks hold many tuples, and by a quarter of
// a rank's tuples where they hold few (the scale lab's simulated ranks share one process's memory),
// never below a piece; a chunk that is given wins.
TEST(ValidationRound, BudgetOrAShareOfTheRanksTuples) {
  const double bytes_per_tuple = 48, budget = exchange::kValidationRoundBytes / bytes_per_tuple;
  EXPECT_EQ(exchange::validation_round(exchange::kValidationRound, bytes_per_tuple, 1e9),
            static_cast<std::int64_t>(budget));
  EXPECT_EQ(exchange::validation_round(exchange::kValidationRound, bytes_per_tuple, 1 << 18), 1 << 16);
  EXPECT_EQ(exchange::validation_round(exchange::kValidationRound, bytes_per_tuple, 100), 1 << 12);
  EXPECT_EQ(exchange::validation_round(777, bytes_per_tuple, 1 << 18), 777);
}

}  // namespace
}  // namespace g500

namespace g500 {
namespace {

// --comm-matrix's P x P counts land on every rank: past a GiB of them the run is refused, in one
// line that says why, before anything is built.
TEST(Options, CommMatrixIsRefusedAboveTheRanksItFits) {
  EXPECT_NO_THROW(check_comm_matrix_fits(kMaxCommMatrixRanks));
  EXPECT_LE(8.0 * kMaxCommMatrixRanks * kMaxCommMatrixRanks, 1024.0 * 1024 * 1024);
  try {
    check_comm_matrix_fits(608256);
    FAIL() << "608,256 ranks' matrix was not refused";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "--comm-matrix gathers 8 x P^2 bytes onto every rank, 2756.5 GiB at 608256 ranks: it runs "
                           "on at most 11585");
  }
}

}  // namespace
}  // namespace g500
