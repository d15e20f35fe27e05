// The pairing engine of pairing.h. Outline:
//   1. Check the event, the earlier rounds and the adjustments.
//   2. Per active entrant: points, pairing score (points, or McMahon score
//      2*start + points), colour history of even games played over the
//      board, byes had, opponents met over the board.
//   3. Order the pool (score, then rank, then a seeded lot) and split it
//      into score groups.
//   4. One maximum-weight matching (LEMON) over the pool plus, when the
//      pool is odd, a bye node. Every edge weighs C0 + bye bonus - penalty,
//      the penalty a mixed-radix number of tiers (high to low): colour
//      limits broken, score-group distance squared, how high in the table
//      the float happens, same club/country, colour preferences missed,
//      distance from the split-and-slip partner, the seed. Each tier's radix
//      exceeds the largest possible sum of every lower tier over a whole
//      matching, so the tiers are strict. Rematches have no edge.
//   5. The graph starts sparse (neighbours in the order, slip partners) and
//      grows by column generation: every missing pair whose weight the dual
//      solution does not cover is added and the matching is solved again,
//      until the dual covers every pair. The result is then optimal for the
//      complete graph.
#include "services/tournaments/pairing.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "services/tournaments/max_weight_matching.h"

namespace gorank::tournaments {
namespace {

using internal::MatchEdge;
using internal::MatchSolution;
using internal::MatchWeight;

constexpr int kNoRankStrength = -40;

// A rank as stones: 30k = -29 .. 1k = 0, 1d = 1 .. 8d = 8; professionals
// 1-3p = 8, 4-6p = 9, 7-9p = 10 (OpenGotha counts 1-3p as 7d and so on).
int Strength(const registry::Rank& rank) {
  switch (rank.ladder()) {
    case registry::Ladder::kKyu:
    case registry::Ladder::kGomokuKyu:
      return 1 - rank.level();
    case registry::Ladder::kAmateurDan:
    case registry::Ladder::kGomokuDan:
      return rank.level();
    case registry::Ladder::kProDan:
      return 7 + (rank.level() + 2) / 3;
  }
  return kNoRankStrength;
}

uint64_t Mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t Hash(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return Mix(Mix(Mix(Mix(seed) ^ a) ^ b) ^ c);
}

struct Player {
  const Entrant* entrant = nullptr;
  int id = 0;
  int strength = kNoRankStrength;
  bool has_rank = false;
  int points = 0;
  int score = 0;             // the pairing score (points, or 2*MMS)
  int byes = 0;              // byes that scored points
  int colour_diff = 0;       // whites minus blacks, even games over the board
  std::vector<int> colours;  // +1 white, -1 black, in round order
  uint64_t lot = 0;
  // In the pool: place in the order, score group and place in it.
  int order = 0;
  int group = 0;
  int group_pos = 0;
  int group_size = 0;
};

std::string Name(const Player& p) {
  return absl::StrCat(p.entrant->DisplayName(), " (#", p.id, ")");
}

// A pairing score as people write it: points (2 a win), or the McMahon
// score (1 a win; score holds it doubled).
std::string ScoreText(const Player& p, bool mcmahon) {
  if (!mcmahon) return absl::StrCat("points ", p.score);
  const int magnitude = std::abs(p.score);
  return absl::StrCat("MMS ", p.score < 0 ? "-" : "", magnitude / 2,
                      magnitude % 2 != 0 ? ".5" : "");
}

// Would player p break a colour limit by taking `colour`? More than 2
// colours ahead, or a third game of one colour in a row.
bool BreaksLimit(const Player& p, int colour) {
  if (std::abs(p.colour_diff + colour) > 2) return true;
  const size_t n = p.colours.size();
  return n >= 2 && p.colours[n - 1] == colour && p.colours[n - 2] == colour;
}

// Whether p would rather not take `colour`.
bool MissesPreference(const Player& p, int colour) {
  if (p.colour_diff != 0) return (p.colour_diff > 0) == (colour > 0);
  return !p.colours.empty() && p.colours.back() == colour;
}

struct ColourChoice {
  int hard = 0;  // colour limits broken (0..2)
  int soft = 0;  // preferences missed (0..2)
  bool a_white = true;
  bool by_lot = false;
};

ColourChoice ChooseColours(const Player& a, const Player& b, uint64_t seed,
                           int round) {
  ColourChoice best;
  bool have = false;
  for (bool a_white : {true, false}) {
    const int ca = a_white ? 1 : -1;
    ColourChoice c;
    c.a_white = a_white;
    c.hard = BreaksLimit(a, ca) + BreaksLimit(b, -ca);
    c.soft = MissesPreference(a, ca) + MissesPreference(b, -ca);
    if (!have || std::pair(c.hard, c.soft) < std::pair(best.hard, best.soft)) {
      best = c;
      have = true;
    } else if (std::pair(c.hard, c.soft) == std::pair(best.hard, best.soft)) {
      best.by_lot = true;
    }
  }
  if (best.by_lot) {
    const int lo = std::min(a.id, b.id), hi = std::max(a.id, b.id);
    const bool lo_white = Hash(seed, 0xC0105, round, lo * 100003ULL + hi) & 1;
    best.a_white = (a.id == lo) == lo_white;
  }
  return best;
}

// Stones for a game between a and b under the event's rules.
int Handicap(const Event& event, const Player& a, const Player& b) {
  if (event.rules.handicap_policy != HandicapPolicy::kRankDifference) return 0;
  if (!a.has_rank || !b.has_rank) return 0;
  const int stones = std::abs(a.strength - b.strength) -
                     std::max(0, event.rules.handicap_reduction);
  return std::clamp(stones, 0, std::max(0, event.pairing.max_handicap));
}

bool SameClub(const Player& a, const Player& b) {
  const Entrant& x = *a.entrant;
  const Entrant& y = *b.entrant;
  if (!x.club.empty() && !y.club.empty()) return x.club == y.club;
  return !x.country.empty() && x.country == y.country;
}

// The tiers of the penalty, low to high, and the largest value each takes
// on one edge.
enum Tier { kSeed, kOrder, kSoft, kClub, kFloatHeight, kFloat, kHard };
constexpr int kTiers = 7;
constexpr int kTierMax[kTiers] = {7, 63, 2, 1, 32 * 127, 32 * 32, 2};

struct Weights {
  MatchWeight mult[kTiers + 1];  // mult[kTiers]: the bye tier
  MatchWeight c0 = 0;            // added to every edge: cardinality first
};

absl::StatusOr<Weights> MakeWeights(int pool, int eligible) {
  const MatchWeight edges = pool / 2 + 1;
  // LEMON adds and scales (x4) potentials of about twice the largest
  // weight: 2^121 leaves room in 127 bits.
  const MatchWeight limit = static_cast<MatchWeight>(1) << 121;
  Weights w;
  w.mult[0] = 1;
  for (int t = 0; t < kTiers; ++t) {
    const MatchWeight factor = edges * kTierMax[t] + 1;
    if (w.mult[t] > limit / factor) {
      return absl::ResourceExhaustedError(
          absl::StrCat("too many entrants to pair in one round (", pool, ")"));
    }
    w.mult[t + 1] = w.mult[t] * factor;
  }
  const MatchWeight bye_factor = static_cast<MatchWeight>(eligible) + edges + 2;
  if (w.mult[kTiers] > limit / bye_factor) {
    return absl::ResourceExhaustedError(
        absl::StrCat("too many entrants to pair in one round (", pool, ")"));
  }
  w.c0 = w.mult[kTiers] * bye_factor;
  return w;
}

struct Pairing {
  const Event* event = nullptr;
  int round = 0;
  uint64_t seed = 0;
  bool club_rounds = false;
  std::vector<Player*> pool;  // in order
  int groups = 0;
  std::vector<uint8_t> met;  // pool x pool
  Weights weights;

  bool Met(int i, int j) const { return met[i * pool.size() + j]; }

  void TierValues(int i, int j, int t[kTiers]) const {
    const Player& a = *pool[i];
    const Player& b = *pool[j];
    for (int k = 0; k < kTiers; ++k) t[k] = 0;
    const int d = std::abs(a.group - b.group);
    if (Handicap(*event, a, b) == 0) {
      ColourChoice c = ChooseColours(a, b, seed, round);
      t[kHard] = c.hard;
      t[kSoft] = c.soft;
    }
    const int dc = std::min(d, 32);
    t[kFloat] = dc * dc;
    const Player& upper = a.group <= b.group ? a : b;
    const Player& lower = a.group <= b.group ? b : a;
    t[kFloatHeight] = dc * std::min(127, groups - 1 - upper.group);
    t[kClub] = club_rounds && SameClub(a, b) ? 1 : 0;
    if (d == 0) {
      const int h = a.group_size / 2;
      t[kOrder] =
          std::min(63, std::abs(std::abs(a.group_pos - b.group_pos) - h));
    } else {
      t[kOrder] = std::min(
          63, (upper.group_size - 1 - upper.group_pos) + lower.group_pos);
    }
    const int lo = std::min(a.id, b.id), hi = std::max(a.id, b.id);
    t[kSeed] = static_cast<int>(Hash(seed, round, lo, hi) & 7);
  }

  // A lower bound of the penalty of (i, j): its float tiers alone.
  MatchWeight FloatPenalty(int i, int j) const {
    const Player& a = *pool[i];
    const Player& b = *pool[j];
    const int dc = std::min(std::abs(a.group - b.group), 32);
    const int upper = std::min(a.group, b.group);
    return weights.mult[kFloat] * (dc * dc) +
           weights.mult[kFloatHeight] *
               (dc * std::min(127, groups - 1 - upper));
  }

  MatchWeight EdgeWeight(int i, int j) const {
    int t[kTiers];
    TierValues(i, j, t);
    MatchWeight penalty = 0;
    for (int k = 0; k < kTiers; ++k) penalty += weights.mult[k] * t[k];
    return weights.c0 - penalty;
  }
};

// The shared blossom value of every pair, from each node's chain of
// blossoms (outermost first; the family is laminar).
struct BlossomChains {
  std::vector<std::vector<int>> chain;  // node -> blossom indices
  const MatchSolution* solution = nullptr;

  BlossomChains(const MatchSolution& s, int nodes)
      : chain(nodes), solution(&s) {
    std::vector<int> order(s.blossoms.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
      return s.blossoms[x].nodes.size() > s.blossoms[y].nodes.size();
    });
    for (int k : order) {
      for (int n : s.blossoms[k].nodes) chain[n].push_back(k);
    }
  }

  MatchWeight Shared(int u, int v) const {
    MatchWeight sum = 0;
    const auto& a = chain[u];
    const auto& b = chain[v];
    for (size_t k = 0; k < a.size() && k < b.size() && a[k] == b[k]; ++k) {
      sum += solution->blossoms[a[k]].value;
    }
    return sum;
  }
};

}  // namespace

absl::StatusOr<RoundPairing> PairRound(const Event& event,
                                       const EventResults& results, int round,
                                       const PairingAdjustments& adjustments) {
  if (event.format.kind != FormatKind::kSwiss) {
    return absl::FailedPreconditionError(
        "only Swiss (and McMahon) events are paired round by round");
  }
  if (round < 1 || round > event.format.rounds) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", round, " is outside 1..", event.format.rounds));
  }
  const bool mcmahon = event.pairing.system == PairingSystem::kMcMahon;
  const uint64_t seed = event.pairing.seed;

  std::map<int, Player> players;
  for (const Entrant& e : results.entrants) {
    Player p;
    p.entrant = &e;
    p.id = e.id.value;
    if (e.rank.has_value()) {
      p.has_rank = true;
      p.strength = Strength(*e.rank);
    }
    p.lot = Hash(seed, 0x107, p.id);
    players[p.id] = p;
  }
  auto active_in = [&](const Player& p, int r) {
    const auto& w = p.entrant->withdrawn_after_round;
    return !w.has_value() || *w >= r;
  };

  // Earlier rounds: complete, with known outcomes.
  std::set<std::pair<int, int>> met;     // (lo, hi) over the board
  std::map<int, std::set<int>> present;  // round -> entrants paired or bye
  struct Coloured {
    int round;
    int id;
    int colour;
  };
  std::vector<Coloured> coloured;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular || g.round < 1 || g.round >= round) {
      continue;
    }
    auto b = players.find(g.black.value);
    auto w = players.find(g.white.value);
    if (b == players.end() || w == players.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "round ", g.round, ": a game names an unknown entrant (#",
          b == players.end() ? g.black.value : g.white.value, ")"));
    }
    if (g.outcome == Outcome::kUnknown) {
      return absl::FailedPreconditionError(absl::StrCat(
          "round ", g.round, ": the game ", Name(b->second), " - ",
          Name(w->second), " has no result yet; enter it before pairing round ",
          round));
    }
    b->second.points += GamePoints(g, true);
    w->second.points += GamePoints(g, false);
    present[g.round].insert(b->first);
    present[g.round].insert(w->first);
    if (g.forfeit) continue;
    met.insert({std::min(b->first, w->first), std::max(b->first, w->first)});
    if (g.handicap == 0 && g.colours_known) {
      coloured.push_back({g.round, w->first, 1});
      coloured.push_back({g.round, b->first, -1});
    }
  }
  for (const Bye& bye : results.byes) {
    if (bye.round < 1 || bye.round >= round) continue;
    auto it = players.find(bye.entrant.value);
    if (it == players.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "round ", bye.round, ": a bye names an unknown entrant (#",
          bye.entrant.value, ")"));
    }
    it->second.points += bye.points;
    if (bye.points > 0) ++it->second.byes;
    present[bye.round].insert(it->first);
  }
  std::stable_sort(
      coloured.begin(), coloured.end(),
      [](const Coloured& x, const Coloured& y) { return x.round < y.round; });
  for (const Coloured& c : coloured) {
    Player& p = players[c.id];
    p.colours.push_back(c.colour);
    p.colour_diff += c.colour;
  }
  for (int r = 1; r < round; ++r) {
    for (const auto& [id, p] : players) {
      if (active_in(p, r) && !present[r].contains(id)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "round ", r, " is incomplete: ", Name(p),
            " was neither paired nor given a bye (record it, or record the "
            "withdrawal)"));
      }
    }
  }

  // Adjustments.
  RoundPairing out;
  out.round = round;
  out.seed = seed;
  std::set<int> named;
  auto check_named = [&](EntrantId id, const char* what) -> absl::Status {
    auto it = players.find(id.value);
    if (it == players.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": no entrant #", id.value, " in this event"));
    }
    if (!active_in(it->second, round)) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": ", Name(it->second), " has withdrawn from the event"));
    }
    if (!named.insert(id.value).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": ", Name(it->second),
                       " is named more than once in the adjustments"));
    }
    return absl::OkStatus();
  };
  for (const auto& [a, b] : adjustments.forced_pairs) {
    if (absl::Status s = check_named(a, "forced pair"); !s.ok()) return s;
    if (absl::Status s = check_named(b, "forced pair"); !s.ok()) return s;
    if (met.contains(
            {std::min(a.value, b.value), std::max(a.value, b.value)})) {
      return absl::InvalidArgumentError(
          absl::StrCat("forced pair: ", Name(players[a.value]), " and ",
                       Name(players[b.value]), " have already played"));
    }
  }
  for (EntrantId id : adjustments.byes) {
    if (absl::Status s = check_named(id, "bye"); !s.ok()) return s;
    if (players[id.value].byes > 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bye: ", Name(players[id.value]), " has already had a bye"));
    }
  }
  for (EntrantId id : adjustments.absent) {
    if (absl::Status s = check_named(id, "absent"); !s.ok()) return s;
  }
  {
    std::set<int> swaps;
    for (int b : adjustments.swap_boards) {
      if (!swaps.insert(b).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("swap: board ", b, " is named more than once"));
      }
    }
  }

  // Pairing scores.
  std::vector<Player*> active;
  bool any_rank = false;
  for (auto& [id, p] : players) {
    if (!active_in(p, round)) continue;
    active.push_back(&p);
    any_rank = any_rank || p.has_rank;
  }
  if (mcmahon) {
    for (Player* p : active) {
      // OpenGotha's numbers: 30k starts at 0, 1d at 30; no rank as 30k.
      int start = p->has_rank ? p->strength : -29;
      if (event.pairing.mcmahon_bar.has_value()) {
        start = std::min(start, Strength(*event.pairing.mcmahon_bar));
      }
      if (event.pairing.mcmahon_floor.has_value()) {
        start = std::max(start, Strength(*event.pairing.mcmahon_floor));
      }
      p->score = 2 * (start + 29) + p->points;
    }
  } else {
    for (Player* p : active) p->score = p->points;
  }
  const bool by_lot =
      round == 1 && (event.pairing.first_round_by_lot || !any_rank);
  auto placed_before = [&](const Player* x, const Player* y) {
    if (x->score != y->score) return x->score > y->score;
    if (!by_lot && x->strength != y->strength) {
      return x->strength > y->strength;
    }
    if (x->lot != y->lot) return x->lot < y->lot;
    return x->id < y->id;
  };
  std::sort(active.begin(), active.end(), placed_before);

  // Byes and absentees first.
  for (EntrantId id : adjustments.absent) {
    out.byes.push_back(Bye{round, id, std::nullopt, 0});
    out.decisions.push_back(absl::StrCat("absent: ", Name(players[id.value]),
                                         " (0 points, by the director)"));
  }
  for (EntrantId id : adjustments.byes) {
    out.byes.push_back(Bye{round, id, std::nullopt, 2});
    out.decisions.push_back(absl::StrCat("bye: ", Name(players[id.value]),
                                         " (2 points, by the director)"));
  }
  std::set<int> forced;
  for (const auto& [a, b] : adjustments.forced_pairs) {
    forced.insert(a.value);
    forced.insert(b.value);
  }
  Pairing pairing;
  pairing.event = &event;
  pairing.round = round;
  pairing.seed = seed;
  pairing.club_rounds = round <= event.pairing.same_club_rounds;
  for (Player* p : active) {
    const int id = p->id;
    if (forced.contains(id)) continue;
    bool skip = false;
    for (EntrantId a : adjustments.absent) skip = skip || a.value == id;
    for (EntrantId b : adjustments.byes) skip = skip || b.value == id;
    if (!skip) pairing.pool.push_back(p);
  }
  const int n = static_cast<int>(pairing.pool.size());
  for (int i = 0; i < n; ++i) {
    Player& p = *pairing.pool[i];
    p.order = i;
    if (i > 0 && pairing.pool[i - 1]->score != p.score) ++pairing.groups;
    p.group = pairing.groups;
  }
  if (n > 0) ++pairing.groups;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && pairing.pool[j]->group == pairing.pool[i]->group) ++j;
    for (int k = i; k < j; ++k) {
      pairing.pool[k]->group_pos = k - i;
      pairing.pool[k]->group_size = j - i;
    }
    i = j;
  }
  pairing.met.assign(static_cast<size_t>(n) * n, 0);
  {
    std::map<int, int> index;  // entrant id -> place in the pool
    for (int i = 0; i < n; ++i) {
      index[pairing.pool[i]->id] = i;
      pairing.met[i * n + i] = 1;
    }
    for (const auto& [a, b] : met) {
      auto x = index.find(a), y = index.find(b);
      if (x == index.end() || y == index.end()) continue;
      pairing.met[x->second * n + y->second] = 1;
      pairing.met[y->second * n + x->second] = 1;
    }
  }

  // The bye node, when the pool is odd: an edge to every player, weighing
  // more the fewer byes the player has had and, among equals, the lower the
  // player is placed. A second bye only when no complete pairing is left
  // otherwise (the cardinality tier is above the bye tier).
  const bool odd = n % 2 == 1;
  std::vector<int> bye_candidates;  // ascending bonus
  if (odd) {
    for (int i = 0; i < n; ++i) bye_candidates.push_back(i);
    std::stable_sort(bye_candidates.begin(), bye_candidates.end(),
                     [&](int x, int y) {
                       return pairing.pool[x]->byes > pairing.pool[y]->byes;
                     });
  }
  absl::StatusOr<Weights> weights =
      MakeWeights(n, static_cast<int>(bye_candidates.size()));
  if (!weights.ok()) return weights.status();
  pairing.weights = *weights;
  const int bye_node = n;
  const int nodes = odd ? n + 1 : n;

  std::vector<uint8_t> in_graph(static_cast<size_t>(n) * n, 0);
  std::vector<MatchEdge> edges;
  auto add_edge = [&](int i, int j) {
    if (i == j) return;
    if (i > j) std::swap(i, j);
    if (pairing.Met(i, j) || in_graph[i * n + j]) return;
    in_graph[i * n + j] = 1;
    edges.push_back({i, j, pairing.EdgeWeight(i, j)});
  };
  for (size_t k = 0; k < bye_candidates.size(); ++k) {
    edges.push_back({bye_candidates[k], bye_node,
                     pairing.weights.c0 + pairing.weights.mult[kTiers] *
                                              static_cast<MatchWeight>(k + 1)});
  }
  constexpr int kNeighbours = 4;
  constexpr int kSlipWindow = 2;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n && j <= i + kNeighbours; ++j) add_edge(i, j);
    const Player& p = *pairing.pool[i];
    const int first = i - p.group_pos;
    const int h = p.group_size / 2;
    for (int t = p.group_pos + h - kSlipWindow;
         t <= p.group_pos + h + kSlipWindow; ++t) {
      if (t >= 0 && t < p.group_size) add_edge(i, first + t);
    }
  }

  // Column generation: add, for every player, the few missing pairs the
  // dual solution covers worst (adding every uncovered pair at once makes
  // the graph needlessly dense), until the dual covers them all.
  constexpr size_t kAddPerPlayer = 3;
  MatchSolution solution;
  for (;;) {
    solution = internal::MaxWeightMatching(nodes, edges);
    BlossomChains chains(solution, nodes);
    std::vector<std::vector<std::pair<MatchWeight, int>>> worst(n);
    auto note = [&](int i, int j, MatchWeight gap) {
      auto& w = worst[i];
      if (w.size() == kAddPerPlayer && gap <= w.back().first) return;
      if (w.size() == kAddPerPlayer) w.pop_back();
      w.insert(std::upper_bound(w.begin(), w.end(), std::pair(gap, j),
                                [](const auto& x, const auto& y) {
                                  return x.first > y.first;
                                }),
               {gap, j});
    };
    constexpr MatchWeight kScale = internal::kMatchDualScale;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (pairing.Met(i, j) || in_graph[i * n + j]) continue;
        const MatchWeight cover = solution.node_value[i] +
                                  solution.node_value[j] + chains.Shared(i, j);
        if (cover >=
            kScale * (pairing.weights.c0 - pairing.FloatPenalty(i, j))) {
          continue;  // even its float tiers alone make it no better
        }
        const MatchWeight gap = kScale * pairing.EdgeWeight(i, j) - cover;
        if (gap > 0) {
          note(i, j, gap);
          note(j, i, gap);
        }
      }
    }
    const size_t before = edges.size();
    for (int i = 0; i < n; ++i) {
      for (const auto& [gap, j] : worst[i]) add_edge(i, j);
    }
    if (edges.size() == before) break;
  }

  // Read the matching.
  for (int i = 0; i < n; ++i) {
    if (solution.mate[i] < 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "round ", round, " cannot be paired without a rematch: ",
          Name(*pairing.pool[i]), " has played every possible opponent"));
    }
  }
  struct Pair {
    Player* a;
    Player* b;
    bool forced;
  };
  std::vector<Pair> pairs;
  for (int i = 0; i < n; ++i) {
    const int m = solution.mate[i];
    if (m == bye_node) {
      Player& p = *pairing.pool[i];
      out.byes.push_back(Bye{round, EntrantId{p.id}, std::nullopt, 2});
      out.decisions.push_back(
          absl::StrCat("bye: ", Name(p),
                       p.byes == 0 ? " (2 points), the lowest-placed player "
                                     "without a bye"
                                   : " (2 points), everyone has had a bye; "
                                     "the lowest-placed with the fewest"));
    } else if (m > i) {
      pairs.push_back({pairing.pool[i], pairing.pool[m], false});
    }
  }
  for (const auto& [a, b] : adjustments.forced_pairs) {
    pairs.push_back({&players[a.value], &players[b.value], true});
  }
  auto pair_key = [&](const Pair& p) {
    const Player* hi = placed_before(p.a, p.b) ? p.a : p.b;
    const Player* lo = hi == p.a ? p.b : p.a;
    return std::pair(hi, lo);
  };
  std::sort(pairs.begin(), pairs.end(), [&](const Pair& x, const Pair& y) {
    auto [xh, xl] = pair_key(x);
    auto [yh, yl] = pair_key(y);
    if (xh != yh) return placed_before(xh, yh);
    return placed_before(xl, yl);
  });

  const std::set<int> swaps(adjustments.swap_boards.begin(),
                            adjustments.swap_boards.end());
  for (int b : swaps) {
    if (b < 1 || b > static_cast<int>(pairs.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("swap: there is no board ", b, " (round ", round,
                       " has ", pairs.size(), " boards)"));
    }
  }
  for (size_t k = 0; k < pairs.size(); ++k) {
    auto [hi, lo] = pair_key(pairs[k]);
    PairedBoard board;
    board.board = static_cast<int>(k + 1);
    board.handicap = Handicap(event, *hi, *lo);
    std::string why;
    if (board.handicap > 0) {
      const bool hi_stronger = hi->strength > lo->strength;
      board.white = EntrantId{hi_stronger ? hi->id : lo->id};
      board.black = EntrantId{hi_stronger ? lo->id : hi->id};
      board.komi_x2 = 1;
      why = absl::StrCat("handicap ", board.handicap,
                         ", the weaker player takes black");
    } else {
      ColourChoice c = ChooseColours(*hi, *lo, seed, round);
      board.white = EntrantId{c.a_white ? hi->id : lo->id};
      board.black = EntrantId{c.a_white ? lo->id : hi->id};
      board.komi_x2 = event.rules.komi_x2;
      if (c.by_lot) {
        why = "colours by lot (seeded)";
      } else if (c.hard > 0) {
        why = "colour limit unavoidable";
      } else {
        why = "colour balance";
      }
    }
    const Player& white = players[board.white.value];
    const Player& black = players[board.black.value];
    std::string line =
        absl::StrCat("board ", board.board, ": ", Name(white), " white, ",
                     Name(black), " black (", why, ")");
    if (pairs[k].forced)
      absl::StrAppend(&line, "; pair forced by the director");
    if (!pairs[k].forced && hi->group != lo->group) {
      absl::StrAppend(&line, "; ", Name(*hi), " (", ScoreText(*hi, mcmahon),
                      ") floated to ", Name(*lo), " (", ScoreText(*lo, mcmahon),
                      ")");
    } else if (!pairs[k].forced && pairing.club_rounds && SameClub(*hi, *lo)) {
      absl::StrAppend(&line, "; same club, unavoidable in the score group");
    }
    out.decisions.push_back(line);
    if (swaps.contains(board.board)) {
      std::swap(board.white, board.black);
      out.decisions.push_back(absl::StrCat(
          "board ", board.board, ": colours swapped by the director"));
    }
    out.boards.push_back(board);
  }
  return out;
}

}  // namespace gorank::tournaments
