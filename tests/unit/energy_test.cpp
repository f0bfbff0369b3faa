// The energy counters' arithmetic, against a directory laid out as Linux powercap lays out Intel
// RAPL (packages intel-rapl:N with energy_uj and max_energy_range_uj; subdomains intel-rapl:N:M).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/energy_counters.hpp"

namespace g500 {
namespace {

namespace fs = std::filesystem;

class Powercap : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("g500-powercap-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    domain("intel-rapl:0", 1000, 1000000);
    domain("intel-rapl:0:0", 500, 1000000);  // the package's cores: inside its count already
    domain("intel-rapl:1", 999000, 1000000);
    fs::create_directories(root_ / "intel-rapl-mmio:0");  // another kind of zone, without counters
  }
  void TearDown() override { fs::remove_all(root_); }

  void domain(const std::string& name, std::uint64_t energy, std::uint64_t range) {
    fs::create_directories(root_ / name);
    set(name, energy);
    std::ofstream(root_ / name / "max_energy_range_uj") << range << '\n';
  }
  void set(const std::string& name, std::uint64_t energy) { std::ofstream(root_ / name / "energy_uj") << energy << '\n'; }

  fs::path root_;
};

TEST(EnergyCounters, DeltaThroughOneWrap) {
  EXPECT_EQ(counter_delta(100, 350, 1000), 250u);
  EXPECT_EQ(counter_delta(900, 50, 1000), 150u);  // 100 to the wrap, 50 after it
  EXPECT_EQ(counter_delta(7, 7, 1000), 0u);
}

TEST_F(Powercap, SumsPackagesAcrossAWrapAndSkipsSubdomains) {
  EnergyMeter meter(root_.string());
  ASSERT_TRUE(meter.available());
  meter.start();
  set("intel-rapl:0", 5000);    // +4000
  set("intel-rapl:0:0", 90000); // not counted
  set("intel-rapl:1", 3000);    // wrapped: 1000 to the range, then 3000
  meter.sample();
  EXPECT_DOUBLE_EQ(meter.joules(), 0.008);
  meter.sample();  // nothing moved
  EXPECT_DOUBLE_EQ(meter.joules(), 0.008);
  set("intel-rapl:1", 500000);  // +497000
  meter.sample();
  EXPECT_DOUBLE_EQ(meter.joules(), 0.505);
  meter.start();  // counting again from here
  meter.sample();
  EXPECT_DOUBLE_EQ(meter.joules(), 0);
}

TEST_F(Powercap, TheEnvironmentNamesTheDirectory) {
  setenv("G500_POWERCAP_ROOT", root_.c_str(), 1);
  EnergyMeter meter;
  unsetenv("G500_POWERCAP_ROOT");
  EXPECT_EQ(meter.root(), root_.string());
  EXPECT_TRUE(meter.available());
}

TEST(EnergyCounters, NoCountersWhereThereAreNone) {
  EXPECT_FALSE(EnergyMeter("/nonexistent/powercap").available());
}

}  // namespace
}  // namespace g500
