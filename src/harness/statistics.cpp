#include "harness/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace g500 {

Summary summarize(std::vector<double> x) {
  Summary s;
  const std::size_t n = x.size();
  if (n == 0) return s;
  std::sort(x.begin(), x.end());
  s.min = x.front();
  s.max = x.back();
  s.firstquartile = (x[(n - 1) / 4] + x[n / 4]) / 2;
  s.median = (x[(n - 1) / 2] + x[n / 2]) / 2;
  s.thirdquartile = (x[n - 1 - (n - 1) / 4] + x[n - 1 - n / 4]) / 2;
  s.mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
  if (n > 1) {
    double sq = 0;
    for (double v : x) sq += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(sq / (n - 1));
  }
  return s;
}

TepsSummary summarize_teps(const std::vector<double>& seconds, const std::vector<double>& nedge) {
  std::vector<double> per_edge(seconds.size());
  for (std::size_t i = 0; i < seconds.size(); ++i) per_edge[i] = seconds[i] / nedge[i];
  const Summary s = summarize(per_edge);
  TepsSummary t;
  if (per_edge.empty()) return t;
  // Largest seconds-per-edge is the smallest TEPS, so the quartiles swap.
  t.min = 1 / s.max;
  t.firstquartile = 1 / s.thirdquartile;
  t.median = 1 / s.median;
  t.thirdquartile = 1 / s.firstquartile;
  t.max = 1 / s.min;
  t.harmonic_mean = 1 / s.mean;
  const std::size_t n = per_edge.size();
  t.harmonic_stddev = n > 1 ? s.stddev / (s.mean * s.mean * std::sqrt(static_cast<double>(n - 1))) : 0;
  return t;
}

}  // namespace g500
