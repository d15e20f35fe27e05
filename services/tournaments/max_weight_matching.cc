// LEMON's MaxWeightedMatching over a weight type wrapping __int128 (LEMON
// needs std::numeric_limits of its value type, which strict C++ does not
// give __int128). Compiled as C++17; see the header.
#include "services/tournaments/max_weight_matching.h"

#include <lemon/matching.h>
#include <lemon/smart_graph.h>

#include <limits>

namespace gorank::tournaments::internal {
namespace {

struct Wide {
  MatchWeight v = 0;
  constexpr Wide() = default;
  constexpr Wide(MatchWeight x) : v(x) {}  // NOLINT: implicit by design
  constexpr Wide(int x) : v(x) {}          // NOLINT
  constexpr Wide(long x) : v(x) {}         // NOLINT
  constexpr Wide(long long x) : v(x) {}    // NOLINT
  friend constexpr Wide operator+(Wide a, Wide b) { return a.v + b.v; }
  friend constexpr Wide operator-(Wide a, Wide b) { return a.v - b.v; }
  friend constexpr Wide operator*(Wide a, Wide b) { return a.v * b.v; }
  friend constexpr Wide operator/(Wide a, Wide b) { return a.v / b.v; }
  constexpr Wide operator-() const { return -v; }
  Wide& operator+=(Wide b) {
    v += b.v;
    return *this;
  }
  Wide& operator-=(Wide b) {
    v -= b.v;
    return *this;
  }
  Wide& operator*=(Wide b) {
    v *= b.v;
    return *this;
  }
  Wide& operator/=(Wide b) {
    v /= b.v;
    return *this;
  }
  friend constexpr bool operator<(Wide a, Wide b) { return a.v < b.v; }
  friend constexpr bool operator>(Wide a, Wide b) { return a.v > b.v; }
  friend constexpr bool operator<=(Wide a, Wide b) { return a.v <= b.v; }
  friend constexpr bool operator>=(Wide a, Wide b) { return a.v >= b.v; }
  friend constexpr bool operator==(Wide a, Wide b) { return a.v == b.v; }
  friend constexpr bool operator!=(Wide a, Wide b) { return a.v != b.v; }
};

}  // namespace
}  // namespace gorank::tournaments::internal

template <>
struct std::numeric_limits<gorank::tournaments::internal::Wide> {
  using Wide = gorank::tournaments::internal::Wide;
  using MatchWeight = gorank::tournaments::internal::MatchWeight;
  static constexpr bool is_specialized = true;
  static constexpr bool is_integer = true;
  static constexpr bool is_signed = true;
  static constexpr Wide max() {
    __extension__ typedef unsigned __int128 U;
    return Wide(static_cast<MatchWeight>(~static_cast<U>(0) >> 1));
  }
  static constexpr Wide min() { return Wide(-max().v - 1); }
  static constexpr Wide lowest() { return min(); }
  static constexpr Wide infinity() { return max(); }
};

namespace gorank::tournaments::internal {

static_assert(
    lemon::MaxWeightedMatching<lemon::SmartGraph,
                               lemon::SmartGraph::EdgeMap<Wide>>::dualScale ==
    kMatchDualScale);

MatchSolution MaxWeightMatching(int nodes,
                                const std::vector<MatchEdge>& edges) {
  using Graph = lemon::SmartGraph;
  Graph graph;
  std::vector<Graph::Node> node(nodes);
  for (int i = 0; i < nodes; ++i) node[i] = graph.addNode();
  Graph::EdgeMap<Wide> weight(graph);
  for (const MatchEdge& e : edges) {
    if (e.u == e.v) continue;
    weight[graph.addEdge(node[e.u], node[e.v])] = Wide(e.weight);
  }
  lemon::MaxWeightedMatching<Graph, Graph::EdgeMap<Wide>> matching(graph,
                                                                   weight);
  matching.run();
  MatchSolution solution;
  solution.mate.assign(nodes, -1);
  solution.node_value.assign(nodes, 0);
  for (int i = 0; i < nodes; ++i) {
    Graph::Node m = matching.mate(node[i]);
    if (m != lemon::INVALID) solution.mate[i] = graph.id(m);
    solution.node_value[i] = matching.nodeValue(node[i]).v;
  }
  for (int k = 0; k < matching.blossomNum(); ++k) {
    MatchBlossom b;
    b.value = matching.blossomValue(k).v;
    for (decltype(matching)::BlossomIt it(matching, k); it != lemon::INVALID;
         ++it) {
      b.nodes.push_back(graph.id(static_cast<Graph::Node>(it)));
    }
    solution.blossoms.push_back(std::move(b));
  }
  return solution;
}

}  // namespace gorank::tournaments::internal
