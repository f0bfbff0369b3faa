#pragma once
// The Graph500 Kronecker initiator: the probabilities of a tuple's next (row, column) bit pair
// being (0, 0), (0, 1), (1, 0) and (1, 1). The generator draws by them; memory estimates count on
// the degrees they give.
namespace g500 {

inline constexpr double kA = 0.57, kB = 0.19, kC = 0.19, kD = 0.05;
static_assert(kA + kB + kC + kD > 0.9999 && kA + kB + kC + kD < 1.0001);

}  // namespace g500
