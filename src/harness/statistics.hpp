#pragma once
// The Graph500 statistics: order statistics with the spec's quartile rule, sample standard
// deviation, and TEPS summarized through its harmonic mean (the spec's formulas, after Norris 1940).
#include <cstdint>
#include <vector>

namespace g500 {

struct Summary {
  double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0, mean = 0, stddev = 0;
};

struct TepsSummary {
  double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0, harmonic_mean = 0, harmonic_stddev = 0;
};

// Quartiles average the two middle candidates, as the spec's reference code does; stddev divides by
// n - 1 (0 for a single sample).
Summary summarize(std::vector<double> x);

// TEPS_i = nedge_i / time_i. Works on seconds per edge so the mean there is the harmonic mean of
// TEPS; its standard error maps back as stddev / (mean^2 * sqrt(n - 1)).
TepsSummary summarize_teps(const std::vector<double>& seconds, const std::vector<double>& nedge);

}  // namespace g500
