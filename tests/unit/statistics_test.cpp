#include <gtest/gtest.h>

#include <cmath>

#include "harness/statistics.hpp"

namespace g500 {
namespace {

TEST(Statistics, OrderStatisticsOfOddAndEvenSamples) {
  const Summary odd = summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(odd.min, 1);
  EXPECT_DOUBLE_EQ(odd.firstquartile, 2);
  EXPECT_DOUBLE_EQ(odd.median, 3);
  EXPECT_DOUBLE_EQ(odd.thirdquartile, 4);
  EXPECT_DOUBLE_EQ(odd.max, 5);
  EXPECT_DOUBLE_EQ(odd.mean, 3);
  EXPECT_DOUBLE_EQ(odd.stddev, std::sqrt(2.5));  // sample variance: 10 / 4

  const Summary even = summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.firstquartile, 1.5);  // (x[0] + x[1]) / 2
  EXPECT_DOUBLE_EQ(even.thirdquartile, 3.5);  // (x[3] + x[2]) / 2
}

TEST(Statistics, SingleSampleHasZeroSpread) {
  const Summary one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
}

TEST(Statistics, TepsUseTheHarmonicMean) {
  const std::vector<double> seconds = {1, 2, 4};
  const std::vector<double> nedge = {100, 100, 100};
  const TepsSummary t = summarize_teps(seconds, nedge);
  // TEPS are 100, 50, 25: harmonic mean 3 / (1/100 + 1/50 + 1/25) = 300 / 7.
  EXPECT_NEAR(t.harmonic_mean, 300.0 / 7, 1e-9);
  EXPECT_DOUBLE_EQ(t.min, 25);
  EXPECT_DOUBLE_EQ(t.max, 100);
  EXPECT_DOUBLE_EQ(t.median, 50);
  // Norris: stddev of the inverses / (mean of inverses^2 * sqrt(n - 1)).
  const double m = (0.01 + 0.02 + 0.04) / 3;
  const double sd = std::sqrt((std::pow(0.01 - m, 2) + std::pow(0.02 - m, 2) + std::pow(0.04 - m, 2)) / 2);
  EXPECT_NEAR(t.harmonic_stddev, sd / (m * m * std::sqrt(2.0)), 1e-9);
}

}  // namespace
}  // namespace g500
