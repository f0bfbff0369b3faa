#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "harness/memory_check.hpp"
#include "core/error.hpp"

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
  EXPECT_EQ(c.run.bfs.engine, "hybrid-1d");
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
      {{"--scale", "0"}, "--scale must be between 1 and 42"},
      {{"--scale", "43"}, "--scale must be between 1 and 42"},
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

TEST(Options, HelpIsNotAnError) {
  const Command c = parse({"--help"});
  EXPECT_EQ(c.kind, Command::Kind::help);
  EXPECT_NE(c.help_text.find("--summary-granularity"), std::string::npos);
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
  // Each search beyond the first: a byte per vertex of trees on every rank, and the waiting
  // parents in bit_width(N) = 23 bits per local vertex.
  KernelChoice one, four;
  one.bfs_validation_batch = 1;
  four.bfs_validation_batch = 4;
  const double n = 1 << 22;
  EXPECT_NEAR(static_cast<double>(estimate_run_bytes(22, 16, 2, BfsOptions{}, four) -
                                  estimate_run_bytes(22, 16, 2, BfsOptions{}, one)),
              3 * (n + 23.0 / 8 * (n / 2 + 64)), 2.0);
  EXPECT_GT(parse({"--validation-batch", "3"}).run.kernels.bfs_validation_batch, 2);
}

}  // namespace
}  // namespace g500
