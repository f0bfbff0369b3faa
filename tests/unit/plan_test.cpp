// `g500 plan` (harness/plan.hpp): sizes as sites write them, and the largest SCALE by the same
// estimate a run refuses by.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "bfs/engine_choice.hpp"
#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "exchange/bucket_layout.hpp"
#include "harness/memory_check.hpp"
#include "harness/plan.hpp"
#include "harness/resolve.hpp"

namespace g500 {
namespace {

std::string plan_output(std::vector<std::string> args) {
  args.insert(args.begin(), {"g500", "plan"});
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  const Command cmd = parse_command_line(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(cmd.kind, Command::Kind::plan);
  std::ostringstream out;
  print_plan(out, cmd.plan);
  return out.str();
}

// Default options settled (harness/resolve.hpp) for a graph of n vertices on `ranks` ranks.
BfsOptions settled_bfs(double n, int ranks) { return resolved_options(RunOptions{}, {n, 16 * n, ranks}).bfs; }

int largest_scale(const std::string& text) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(text, m, std::regex("largest SCALE: (\\d+)"))) << text;
  return std::stoi(m[1]);
}

TEST(Plan, SizesReadAsSitesWriteThem) {
  EXPECT_DOUBLE_EQ(parse_memory_size("32GiB"), 32.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(parse_memory_size("512 GiB"), 512.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(parse_memory_size("24G"), 24.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(parse_memory_size("24GB"), 24e9);
  EXPECT_DOUBLE_EQ(parse_memory_size("1.5T"), 1.5 * 1024.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(parse_memory_size("4096"), 4096.0);
  EXPECT_DOUBLE_EQ(parse_memory_size("2P"), std::ldexp(2.0, 50));
  for (const char* bad : {"", "GiB", "-3GiB", "12 parsecs", "0", "0x20G", "0.5", "1e-12G", "inf", "nan", " 1G"})
    EXPECT_THROW(parse_memory_size(bad), UserError) << bad;
}

TEST(Plan, AMachineWhereNoScaleFitsIsRefused) {
  std::ostringstream out;
  const char* argv[] = {"g500", "plan", "--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "32KiB"};
  const Command cmd = parse_command_line(8, argv);
  EXPECT_THROW(print_plan(out, cmd.plan), UserError);
  EXPECT_EQ(out.str(), "");  // nothing printed before the refusal
}

TEST(Plan, TheLargestScaleIsTheLastWhosePeakFits) {
  // This project's machine: 2 ranks on 24 GiB.
  const std::string here = plan_output({"--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "24GiB"});
  const int largest = largest_scale(here);
  EXPECT_EQ(largest, 27);
  // The line's SCALE fits by the estimate with batch 1 at most, the next does not.
  KernelChoice one;
  one.validation_batch = 1;
  const double per_rank = 12.0 * (1 << 30);
  const auto peak = [&](int s) {
    const double n = std::ldexp(1.0, s);
    return estimate_phases(n, 16 * n, 2, settled_bfs(n, 2), one, 1).peak();
  };
  EXPECT_LE(peak(largest), per_rank);
  EXPECT_GT(peak(largest + 1), per_rank);
  // More memory a node, more ranks: never a smaller SCALE.
  EXPECT_GE(largest_scale(plan_output({"--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "48GiB"})), largest);
  EXPECT_GE(largest_scale(plan_output({"--nodes", "4", "--ranks-per-node", "2", "--memory-per-node", "24GiB"})), largest);
}

TEST(Plan, AScaleThatDoesNotFitSaysWhatBinds) {
  const std::string text = plan_output({"--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "24GiB",
                                        "--scale", "30", "--kernels", "bfs,sssp"});
  EXPECT_NE(text.find("SCALE 30: does not fit even with validation batch 1; what binds is kernel "), std::string::npos) << text;
  EXPECT_NE(text.find("kernel 3 (SSSP)"), std::string::npos);
  EXPECT_NE(text.find("--bfs auto: hybrid-1d"), std::string::npos);
  const std::string fits = plan_output({"--nodes", "4", "--ranks-per-node", "32", "--memory-per-node", "512GiB",
                                        "--scale", "30", "--kernels", "bfs,sssp"});
  EXPECT_NE(fits.find("SCALE 30: fits, validation batch"), std::string::npos) << fits;
  EXPECT_NE(fits.find("--bfs auto: hybrid-2d"), std::string::npos);
}

TEST(Plan, BadMachinesAreOneLine) {
  const auto error = [](std::vector<std::string> args) {
    try {
      plan_output(std::move(args));
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({"--nodes", "0", "--ranks-per-node", "2", "--memory-per-node", "1G"}).find("--nodes must be at least 1"),
            std::string::npos);
  EXPECT_NE(error({"--nodes", "2000000", "--ranks-per-node", "2000", "--memory-per-node", "1G"}).find("more ranks than MPI"),
            std::string::npos);
  EXPECT_NE(error({"--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "lots"}).find("--memory-per-node must be"),
            std::string::npos);
  EXPECT_NE(error({"--nodes", "1", "--ranks-per-node", "2", "--memory-per-node", "1G", "--bfs", "magic"})
                .find("unknown BFS engine 'magic'"),
            std::string::npos);
  EXPECT_NE(error({"--ranks-per-node", "2", "--memory-per-node", "1G"}).find("--nodes is required"), std::string::npos);
}

// A GPU machine (--gpus-per-node, --gpu-memory): one rank a GPU, the GPU engine's device memory
// against one GPU's, and the host's estimate without it.
TEST(Plan, GpuMachinesAreBoundByTheGpusMemory) {
  bool have_gpu_engines = false;
  for (const EngineSpec& e : engine_table()) have_gpu_engines |= e.device_bytes != nullptr;
  if (!have_gpu_engines) GTEST_SKIP() << "built without Thrust: no GPU engines";
  const auto gpu_plan = [](const std::string& gpu_memory, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {
        "--nodes",      "2",        "--ranks-per-node",  "4",    "--gpus-per-node", "4",
        "--gpu-memory", gpu_memory, "--memory-per-node", "4TiB", "--bfs",           "gpu-hybrid"};
    args.insert(args.end(), more.begin(), more.end());
    return plan_output(args);
  };
  const std::string large = gpu_plan("141GB");
  EXPECT_NE(large.find("4 GPUs a node of 131.3 GiB"), std::string::npos) << large;
  EXPECT_NE(large.find("kernel 2 (device)"), std::string::npos) << large;
  const int on_large = largest_scale(large), on_small = largest_scale(gpu_plan("16GiB"));
  EXPECT_LT(on_small, on_large);
  // Host memory to spare, so the GPU binds one SCALE up.
  const std::string above = gpu_plan("16GiB", {"--scale", std::to_string(on_small + 1)});
  EXPECT_NE(above.find("what binds is the GPU"), std::string::npos) << above;
  // The same engine planned as a CPU run counts its device memory in the host's.
  const std::string cpu = plan_output(
      {"--nodes", "2", "--ranks-per-node", "4", "--memory-per-node", "4TiB", "--bfs", "gpu-hybrid", "--scale", "30"});
  const std::string gpu = gpu_plan("141GB", {"--scale", "30"});
  const auto kernel_2 = [](const std::string& text) {
    std::smatch m;
    EXPECT_TRUE(std::regex_search(text, m, std::regex("kernel 2 \\(BFS\\)\\s+([0-9.]+) GiB"))) << text;
    return m.empty() ? 0.0 : std::stod(m[1]);
  };
  EXPECT_LT(kernel_2(gpu), kernel_2(cpu));

  const auto error = [](std::vector<std::string> more) {
    std::vector<std::string> args = {"--nodes", "1", "--memory-per-node", "64GiB"};
    args.insert(args.end(), more.begin(), more.end());
    try {
      plan_output(std::move(args));
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({"--ranks-per-node", "2", "--gpus-per-node", "4", "--gpu-memory", "80GiB", "--bfs", "gpu-hybrid"})
                .find("--ranks-per-node must equal --gpus-per-node"),
            std::string::npos);
  EXPECT_NE(error({"--ranks-per-node", "4", "--gpus-per-node", "4", "--gpu-memory", "80GiB"})
                .find("needs --bfs naming a GPU engine"),
            std::string::npos);
  EXPECT_NE(error({"--ranks-per-node", "4", "--gpus-per-node", "4", "--bfs", "gpu-hybrid"}).find("go together"),
            std::string::npos);
  EXPECT_NE(error({"--ranks-per-node", "4", "--gpus-per-node", "4", "--gpu-memory", "much", "--bfs", "gpu-hybrid"})
                .find("--gpu-memory must be a size"),
            std::string::npos);
  EXPECT_NE(error({"--ranks-per-node", "1", "--gpus-per-node", "1", "--gpu-memory", "1KiB", "--bfs", "gpu-hybrid"})
                .find("no SCALE fits this machine: a GPU has 1.0 KiB"),
            std::string::npos);
}

}  // namespace
}  // namespace g500

namespace g500 {
namespace {

// What a rank holds for each rank of the run (buckets a line per thread and destination, counters)
// is in every phase, and grows with the threads and the ranks alone.
TEST(Plan, EveryPhaseCountsWhatIsHeldForEachRank) {
  KernelChoice both;
  both.sssp = true;
  const double n = std::ldexp(1.0, 36), m = 16 * n;
  RunOptions asked;
  asked.kernels = both;
  const RunOptions settled = resolved_options(asked, {n, m, 65536});
  const BfsOptions& bfs = settled.bfs;
  both = settled.kernels;
  // Per-rank buckets (threads x ranks up to 65,536): four sets of a line for each thread and rank.
  const PhaseBytes one = estimate_phases(n, m, 4096, bfs, both, 1);
  const PhaseBytes eight = estimate_phases(n, m, 4096, bfs, both, 8);
  EXPECT_DOUBLE_EQ(eight.rank_tables - one.rank_tables, 4096.0 * 4 * 7 * 64);
  EXPECT_DOUBLE_EQ(eight.build - one.build, eight.rank_tables - one.rank_tables);
  EXPECT_DOUBLE_EQ(eight.bfs - one.bfs, eight.rank_tables - one.rank_tables);
  EXPECT_DOUBLE_EQ(eight.sssp - one.sssp, eight.rank_tables - one.rank_tables);
  EXPECT_DOUBLE_EQ(estimate_phases(n, m, 8192, bfs, both, 1).rank_tables, 2 * one.rank_tables);
  // Past that, queued items (exchange/owner_buckets.hpp): counts for each rank and a round's
  // sorted copy, whatever the threads.
  const PhaseBytes queued = estimate_phases(n, m, 65536, bfs, both, 8);
  EXPECT_DOUBLE_EQ(queued.rank_tables, 65536.0 * 10 * 8 + exchange::queued_round_bytes(65536, 8));
  EXPECT_DOUBLE_EQ(estimate_phases(n, m, 65536, bfs, both, 48).rank_tables, queued.rank_tables);
  EXPECT_LT(queued.rank_tables, 65536.0 * 4 * 8 * 64);
}

// Kernels 1 and 2 named structure by structure: the parts sum to each phase, and the 2D engine
// names its frontiers, its row index and its build's filled-row offsets apart.
TEST(Plan, KernelStructuresSumToTheirPhases) {
  for (const EngineSpec& e : engine_table()) {
    for (const auto& [scale, ranks] : {std::pair{20, 4}, std::pair{34, 1024}}) {
      const double n = std::ldexp(1.0, scale), m = 16 * n;
      RunOptions asked;
      asked.bfs.engine = e.name;
      const RunOptions settled = resolved_options(asked, {n, m, ranks});
      const PhaseBytes p = estimate_phases(n, m, ranks, settled.bfs, settled.kernels, 2);
      double sum = 0;
      for (const MemoryPart& part : p.bfs_parts) {
        EXPECT_GE(part.bytes, 0) << e.name << ": " << part.name;
        sum += part.bytes;
      }
      EXPECT_NEAR(sum, p.bfs, 1e-9 * p.bfs) << e.name << " SCALE " << scale;
      EXPECT_GE(p.bfs_parts.size(), 4u) << e.name;
      double built = 0;
      for (const MemoryPart& part : p.build_parts) {
        EXPECT_GE(part.bytes, 0) << e.name << ": " << part.name;
        built += part.bytes;
      }
      EXPECT_NEAR(built, p.build, 1e-9 * p.build) << e.name << " SCALE " << scale;
    }
  }
  const std::string text = plan_output(
      {"--nodes", "256", "--ranks-per-node", "4", "--memory-per-node", "32GiB", "--bfs", "hybrid-2d", "--scale", "34"});
  for (const char* name : {"entries (a row-range position each)", "row index", "row frontier bitmap",
                           "column frontier bitmap", "validation batch", "a round of generated tuples"})
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  // Kernel 1 names the larger of its two moments: rows being placed, or the tables beside the graph.
  EXPECT_TRUE(text.find("filled rows' offsets") != std::string::npos ||
              text.find("the kept graph") != std::string::npos)
      << text;
}

}  // namespace
}  // namespace g500

namespace g500 {
namespace {

// --bfs auto never takes an engine that does not fit when another does. At 268 ranks (a grid too
// thin for 2D) its rule picks hybrid-1d; with room between the two engines' peaks at SCALE 31, it
// takes whichever fits, and the rule's pick where both or neither do.
// A 2D entry is a row-range position: 32-bit wherever a processor row's range fits, even with
// 64-bit ids; 64-bit past that (with its vertex's index in the spare bits), and 32 asked for there
// is refused.
TEST(Plan, TwoDEntriesAreAsNarrowAsTheRowRange) {
  const double n = std::ldexp(1.0, 38), m = 16 * n;
  const int ranks = 16384;  // 128 x 128: 2^31 positions a row
  RunOptions asked;
  asked.bfs.engine = "hybrid-2d";
  const RunOptions narrow = resolved_options(asked, {n, m, ranks});
  EXPECT_EQ(narrow.bfs.ids, IdWidth::bits64);
  EXPECT_EQ(narrow.bfs.grid.positions, IdWidth::bits32);
  RunOptions wide_asked = asked;
  wide_asked.bfs.grid.positions = IdWidth::bits64;
  const RunOptions wide = resolved_options(wide_asked, {n, m, ranks});
  EXPECT_EQ(wide.bfs.grid.positions, IdWidth::bits64);
  const double saved = estimate_phases(n, m, ranks, wide.bfs, wide.kernels, 1).bfs_graph -
                       estimate_phases(n, m, ranks, narrow.bfs, narrow.kernels, 1).bfs_graph;
  // 4 bytes an arc wider, less the table of each entry's vertex index (2^24 + 64 vertices a block:
  // 25 bits), which a 64-bit entry holds above its position.
  EXPECT_NEAR(saved, (4 - 25.0 / 8) * 2 * m / ranks, 0.01 * saved);

  const double huge = std::ldexp(1.0, 42);  // 512 x 512: 2^33 positions a row
  EXPECT_EQ(resolved_options(asked, {huge, 16 * huge, 262144}).bfs.grid.positions, IdWidth::bits64);
  RunOptions forced = asked;
  forced.bfs.grid.positions = IdWidth::bits32;
  EXPECT_THROW(resolved_options(forced, {huge, 16 * huge, 262144}), UserError);
  forced.bfs.ids = IdWidth::bits32;
  forced.bfs.grid.positions = IdWidth::bits64;
  EXPECT_THROW(resolved_options(forced, {n / 64, m / 64, 4}), UserError);

  // 4,096 nodes of 4 x 8 GiB hold SCALE 38: 32 bytes of the machine a tuple, as 256 nodes do.
  const std::string text = plan_output({"--nodes", "4096", "--ranks-per-node", "4", "--memory-per-node", "32GiB"});
  EXPECT_EQ(largest_scale(text), 38) << text;
  EXPECT_NE(text.find("32.0 bytes of the machine a tuple"), std::string::npos) << text;
}

TEST(Plan, AutoTakesAnEngineThatFits) {
  const std::vector<std::string> machine = {"--nodes", "268", "--ranks-per-node", "1", "--memory-per-node", "8GiB"};
  std::vector<const char*> argv = {"g500", "plan"};
  for (const std::string& a : machine) argv.push_back(a.c_str());
  const Command cmd = parse_command_line(static_cast<int>(argv.size()), argv.data());
  RunOptions asked;
  asked.bfs = cmd.plan.bfs;
  asked.kernels = cmd.plan.kernels;
  ASSERT_EQ(asked.bfs.engine, kAutoEngine);
  const ProblemSize size{std::ldexp(1.0, 31), 16 * std::ldexp(1.0, 31), 268, cmd.plan.threads_per_rank};
  const auto peak = [&](const std::string& engine) {
    RunOptions with = resolved_options(asked, size);
    with.bfs.engine = engine;
    with.kernels.validation_batch = 1;
    return estimate_phases(size.vertices, size.tuples, 268, with.bfs, with.kernels, size.threads).peak();
  };
  ASSERT_EQ(choose_engine(auto_engines(), 268, asked.bfs.grid.grid), "hybrid-1d");
  const double one_d = peak("hybrid-1d"), two_d = peak("hybrid-2d");
  ASSERT_NE(one_d, two_d);
  const std::string leaner = one_d < two_d ? "hybrid-1d" : "hybrid-2d";
  const auto engine_within = [&](const RunOptions& o, double limit) {
    const ResolvedRun r = resolve(o, size, [limit](double bytes) { return bytes <= limit; });
    EXPECT_EQ(r.rule_engine, o.bfs.engine == kAutoEngine ? "hybrid-1d" : o.bfs.engine);
    return r.options.bfs.engine;
  };
  const double between = (one_d + two_d) / 2;
  EXPECT_EQ(engine_within(asked, between), leaner);
  // Where both fit, the rule's pick; where neither does, the rule's pick too (the run refuses it).
  EXPECT_EQ(engine_within(asked, 1e18), "hybrid-1d");
  EXPECT_EQ(engine_within(asked, 1), "hybrid-1d");
  // An engine named is kept, fitting or not.
  RunOptions named = asked;
  named.bfs.engine = leaner == "hybrid-1d" ? "hybrid-2d" : "hybrid-1d";
  EXPECT_EQ(engine_within(named, between), named.bfs.engine);
  // The plan with --bfs auto reaches at least the SCALE of each engine named.
  for (const char* engine : {"hybrid-1d", "hybrid-2d"}) {
    std::vector<std::string> one = machine;
    one.insert(one.end(), {"--bfs", engine});
    EXPECT_GE(largest_scale(plan_output(machine)), largest_scale(plan_output(one))) << engine;
  }
  EXPECT_EQ(largest_scale(plan_output(machine)), 32);
}

}  // namespace
}  // namespace g500
