#include "core/id_index.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace g500 {
namespace {

// Every id in the set is found at its place in the list; ids outside it, near and far, are not.
TEST(IdIndexTest, FindsEachIdAtItsPlaceAndNoOther) {
  std::mt19937_64 rng(7);
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{1000}, std::size_t{70000}}) {
    std::set<vertex_t> chosen;
    while (chosen.size() < count) chosen.insert(static_cast<vertex_t>(rng() >> 20));
    const std::vector<vertex_t> ids(chosen.begin(), chosen.end());
    const IdIndex index(ids);
    ASSERT_EQ(index.size(), static_cast<std::int64_t>(count));
    for (std::size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(index.find(ids[i]), static_cast<std::int64_t>(i));
    for (int k = 0; k < 100000; ++k) {
      const vertex_t id = k % 2 ? static_cast<vertex_t>(rng() >> 20) : k;
      ASSERT_EQ(index.find(id), chosen.count(id) ? std::distance(chosen.begin(), chosen.find(id)) : -1) << id;
    }
  }
}

// Consecutive ids (a rank's block of hubs) spread over the table as well as random ones do.
TEST(IdIndexTest, ConsecutiveIds) {
  std::vector<vertex_t> ids(4096);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = (vertex_t{1} << 40) + static_cast<vertex_t>(i);
  const IdIndex index(ids);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(index.find(ids[i]), static_cast<std::int64_t>(i));
  EXPECT_EQ(index.find((vertex_t{1} << 40) - 1), -1);
  EXPECT_EQ(index.find((vertex_t{1} << 40) + 4096), -1);
  EXPECT_LE(IdIndex::bytes(4096), 4096 * 32.0 + 64);
}

}  // namespace
}  // namespace g500
