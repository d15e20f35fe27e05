// A maximum-weight matching of a general graph with 128-bit integer
// weights, and its dual solution, over LEMON's MaxWeightedMatching (Debian
// liblemon-dev). Internal to the pairing engine (pairing.cc). This header
// and max_weight_matching.cc are C++17: LEMON 1.3.1's graph maps use
// std::allocator::construct, which C++20 removed, so the one file that
// includes LEMON is compiled as C++17 (CMakeLists.txt, target
// pairing_matching) and nothing of LEMON leaks through this interface.
#ifndef GORANK_SERVICES_TOURNAMENTS_MAX_WEIGHT_MATCHING_H_
#define GORANK_SERVICES_TOURNAMENTS_MAX_WEIGHT_MATCHING_H_

#include <vector>

namespace gorank::tournaments::internal {

// Wide enough for the pairing's strict tiers (pairing.cc: about 110 bits for
// 1,000 players) times LEMON's dual scale.
__extension__ typedef __int128 MatchWeight;

struct MatchEdge {
  int u = 0;
  int v = 0;
  MatchWeight weight = 0;
};

struct MatchBlossom {
  MatchWeight value = 0;  // z_B, times kMatchDualScale
  std::vector<int> nodes;
};

struct MatchSolution {
  std::vector<int> mate;  // -1 when unmatched
  // The optimal dual solution of the LP (times kMatchDualScale): for every
  // edge uv, node_value[u] + node_value[v] + the values of the blossoms
  // holding both >= kMatchDualScale * weight(uv). An edge outside the graph
  // that meets this too cannot improve the matching.
  std::vector<MatchWeight> node_value;
  std::vector<MatchBlossom> blossoms;
};

inline constexpr int kMatchDualScale = 4;

// Maximum-weight (not necessarily perfect) matching over nodes 0..nodes-1.
// Edges with u == v are ignored. Deterministic for the same input.
MatchSolution MaxWeightMatching(int nodes, const std::vector<MatchEdge>& edges);

}  // namespace gorank::tournaments::internal

#endif  // GORANK_SERVICES_TOURNAMENTS_MAX_WEIGHT_MATCHING_H_
