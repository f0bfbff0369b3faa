// The reference code's command form and environment, as g500's own options (app/reference_form.hpp):
// what each becomes once the one command line has read it.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "app/reference_form.hpp"
#include "core/error.hpp"

namespace g500 {
namespace {

struct Parsed {
  ReferenceForm form;
  Command cmd;
};

Parsed parse(std::vector<std::string> argv, std::map<std::string, std::string> env = {}) {
  std::vector<const char*> raw;
  for (const std::string& a : argv) raw.push_back(a.c_str());
  Parsed p;
  p.form = reference_form(static_cast<int>(raw.size()), raw.data(), [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
  std::vector<const char*> args;
  for (const std::string& a : p.form.args) args.push_back(a.c_str());
  p.cmd = parse_command_line(static_cast<int>(args.size()), args.data());
  return p;
}

std::string error_of(std::vector<std::string> argv, std::map<std::string, std::string> env = {}) {
  try {
    parse(std::move(argv), std::move(env));
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(ReferenceForm, TheProgramIsKnownByTheNameItRunsUnder) {
  EXPECT_EQ(persona_of("/opt/g500/bin/g500-bfs"), Persona::reference_bfs);
  EXPECT_EQ(persona_of("g500-bfs-sssp"), Persona::reference_bfs_sssp);
  EXPECT_EQ(persona_of("./g500"), Persona::g500);
  EXPECT_EQ(persona_of("graph500_reference_bfs"), Persona::g500);
}

TEST(ReferenceForm, G500TakesScaleAndEdgefactorAsThePositionalPair) {
  const Parsed p = parse({"g500", "22", "8"});
  EXPECT_EQ(p.cmd.run.scale, 22);
  EXPECT_EQ(p.cmd.run.edgefactor, 8);
  EXPECT_TRUE(p.cmd.run.kernels.bfs);
  EXPECT_FALSE(p.cmd.run.reference_stats);  // g500 keeps its own block
  const Parsed q = parse({"g500", "12", "--roots", "4"});
  EXPECT_EQ(q.cmd.run.scale, 12);
  EXPECT_EQ(q.cmd.run.edgefactor, 16);
  EXPECT_EQ(q.cmd.run.roots, 4);
}

TEST(ReferenceForm, TheDropInsRunTheReferencesKernelsAndBlock) {
  const Parsed bfs = parse({"g500-bfs", "20", "16"});
  EXPECT_TRUE(bfs.cmd.run.kernels.bfs);
  EXPECT_FALSE(bfs.cmd.run.kernels.sssp);
  EXPECT_TRUE(bfs.cmd.run.reference_stats);
  EXPECT_FALSE(bfs.cmd.run.skip_validation);
  const Parsed both = parse({"/x/g500-bfs-sssp", "20"});
  EXPECT_TRUE(both.cmd.run.kernels.bfs);
  EXPECT_TRUE(both.cmd.run.kernels.sssp);
  EXPECT_EQ(both.cmd.run.scale, 20);
  // A g500 option may follow, and the block's spelling can still be chosen.
  EXPECT_FALSE(parse({"g500-bfs", "20", "--stats-style", "spec"}).cmd.run.reference_stats);
  EXPECT_EQ(parse({"g500-bfs", "20", "16", "--roots", "8"}).cmd.run.roots, 8);
}

TEST(ReferenceForm, SkipValidationIsHonouredWhateverItsValueAndSaid) {
  for (const char* value : {"1", "0", ""}) {
    for (const char* name : {"g500", "g500-bfs", "g500-bfs-sssp"}) {
      const Parsed p = parse({name, "12"}, {{"SKIP_VALIDATION", value}});
      EXPECT_TRUE(p.cmd.run.skip_validation) << name << " SKIP_VALIDATION=" << value;
      ASSERT_EQ(p.form.notes.size(), 1u);
      EXPECT_NE(p.form.notes[0].find("SKIP_VALIDATION is set"), std::string::npos);
    }
  }
  EXPECT_TRUE(parse({"g500", "--scale", "12", "--skip-validation"}, {{"SKIP_VALIDATION", "1"}}).cmd.run.skip_validation);
  EXPECT_FALSE(parse({"g500-bfs", "12"}).cmd.run.skip_validation);
}

TEST(ReferenceForm, SkipBfsLeavesKernelThreeOrIsRefused) {
  const Parsed p = parse({"g500-bfs-sssp", "12"}, {{"SKIP_BFS", "1"}});
  EXPECT_FALSE(p.cmd.run.kernels.bfs);
  EXPECT_TRUE(p.cmd.run.kernels.sssp);
  EXPECT_NE(error_of({"g500-bfs", "12"}, {{"SKIP_BFS", "1"}}).find("no kernel to run"), std::string::npos);
  // g500 itself has --kernels for that: the variable is the drop-ins'.
  EXPECT_TRUE(parse({"g500", "12"}, {{"SKIP_BFS", "1"}}).cmd.run.kernels.bfs);
}

TEST(ReferenceForm, TmpfileNamesTheEdgeFileAndItsWeights) {
  const Parsed p = parse({"g500-bfs-sssp", "12"}, {{"TMPFILE", "/scratch/g.bin"}});
  EXPECT_EQ(p.form.edge_file, "/scratch/g.bin");
  EXPECT_EQ(p.form.weight_file, "/scratch/g.bin.weights");
  EXPECT_FALSE(p.form.reuse_file);
  const Parsed q = parse({"g500-bfs", "12"}, {{"TMPFILE", "g"}, {"REUSEFILE", "1"}});
  EXPECT_EQ(q.form.weight_file, "");  // kernel 2 has no weights
  EXPECT_TRUE(q.form.reuse_file);
  EXPECT_TRUE(parse({"g500", "12"}, {{"TMPFILE", "g"}}).form.edge_file.empty());
  EXPECT_NE(error_of({"g500-bfs", "12"}, {{"TMPFILE", ""}}).find("TMPFILE is set but empty"), std::string::npos);
  EXPECT_NE(error_of({"g500-bfs", "12", "--input", "x.bin"}, {{"TMPFILE", "g"}}).find("give one"), std::string::npos);
}

TEST(ReferenceForm, WhatTheReferenceRefusesIsOneLine) {
  EXPECT_NE(error_of({"g500-bfs"}).find("usage: g500-bfs SCALE [edgefactor]"), std::string::npos);
  EXPECT_NE(error_of({"g500-bfs-sssp", "big"}).find("graph500_reference_bfs_sssp"), std::string::npos);
  EXPECT_NE(error_of({"g500-bfs", "0"}).find("--scale must be between 1 and 62"), std::string::npos);
  EXPECT_NE(error_of({"g500-bfs", "20", "0"}).find("--edgefactor must be at least 1"), std::string::npos);
  EXPECT_NE(error_of({"g500-bfs", "20", "--kernels", "sssp"}).find("use g500 --kernels"), std::string::npos);
  EXPECT_NE(error_of({"g500", "20", "16", "3"}).find("not expected"), std::string::npos);
}

TEST(ReferenceForm, HelpVersionAndGenerateAreLeftAlone) {
  EXPECT_EQ(parse({"g500-bfs", "--help"}).cmd.kind, Command::Kind::help);
  EXPECT_EQ(parse({"g500-bfs-sssp", "--version"}).cmd.kind, Command::Kind::version);
  const Parsed gen = parse({"g500", "generate", "-s", "10", "-o", "f.bin"}, {{"SKIP_VALIDATION", "1"}});
  EXPECT_EQ(gen.cmd.kind, Command::Kind::generate);
  EXPECT_TRUE(gen.form.notes.empty());
}

TEST(ReferenceForm, APlusSignIsReadAsAtoiReadsIt) {
  const Parsed p = parse({"g500-bfs", "+8", "+4"}, {});
  EXPECT_EQ(p.cmd.run.scale, 8);
  EXPECT_EQ(p.cmd.run.edgefactor, 4);
}

}  // namespace
}  // namespace g500
