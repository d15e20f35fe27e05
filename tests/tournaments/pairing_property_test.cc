// Property tests of the pairing engine (pairing.h, issue #20): generated
// Swiss and McMahon events of 8..1,000 players and 5..9 rounds are paired
// round by round, with random results (draws, forfeits), withdrawals,
// absentees and odd counts, and every round is checked against the rules
// computed here independently of the engine:
//   - every active entrant is on exactly one board or has a bye; withdrawn
//     entrants are not paired;
//   - no two players meet twice over the board;
//   - at most one bye (2 points) a player; the bye goes to a player without
//     one, and no eligible player is placed strictly lower (score, then
//     rank);
//   - colours: in even games nobody ends more than 2 colours ahead and
//     nobody gets a third game of one colour in a row (where avoidable: a
//     small pool is checked exhaustively);
//   - handicap games: the weaker player is black, handicap = rank
//     difference - reduction capped at max_handicap, komi 0.5;
//   - score groups: two players of one group never both float the same way
//     (up, or down) when they could have played each other and their two
//     opponents each other, without a rematch or a colour limit broken;
//   - same club, in the early rounds: no two boards of one score group that
//     a swap of partners would free of a club clash;
//   - McMahon: the scores are computed here from the bar and floor, so the
//     checks above also hold the bar;
//   - the same seed gives the same pairing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "services/registry/rank.h"
#include "services/tournaments/pairing.h"

namespace gorank::tournaments {
namespace {

using registry::Rank;

int StrengthOf(const Entrant& e) {
  if (!e.rank.has_value()) return -40;
  return e.rank->IsKyu() ? 1 - e.rank->level() : e.rank->level();
}

struct Spec {
  int players = 8;
  int rounds = 5;
  bool mcmahon = false;
  uint64_t seed = 0;
};

// Independent bookkeeping of one player.
struct Book {
  int points = 0;
  int byes = 0;
  std::vector<int> colours;  // +1 white, -1 black (even games over the board)
  int Diff() const {
    int d = 0;
    for (int c : colours) d += c;
    return d;
  }
};

bool Breaks(const Book& b, int colour) {
  if (std::abs(b.Diff() + colour) > 2) return true;
  const size_t n = b.colours.size();
  return n >= 2 && b.colours[n - 1] == colour && b.colours[n - 2] == colour;
}

int HardCost(const Book& a, const Book& b) {  // best colour assignment
  return std::min(Breaks(a, 1) + Breaks(b, -1), Breaks(a, -1) + Breaks(b, 1));
}

class Simulation {
 public:
  explicit Simulation(const Spec& spec) : spec_(spec), rng_(spec.seed) {
    event_.name = "generated";
    event_.format.kind = FormatKind::kSwiss;
    event_.format.rounds = spec.rounds;
    event_.pairing.seed = spec.seed * 7919 + 1;
    event_.pairing.system =
        spec.mcmahon ? PairingSystem::kMcMahon : PairingSystem::kSwiss;
    event_.pairing.first_round_by_lot = Chance(0.15);
    event_.pairing.same_club_rounds = static_cast<int>(rng_() % 4);
    if (spec.mcmahon) {
      event_.pairing.mcmahon_bar = Rank::FromString(
          std::to_string(1 + static_cast<int>(rng_() % 4)) + "d");
      if (Chance(0.6)) {
        event_.pairing.mcmahon_floor = Rank::FromString(
            std::to_string(10 + static_cast<int>(rng_() % 10)) + "k");
      }
      if (Chance(0.5)) {
        event_.rules.handicap_policy = HandicapPolicy::kRankDifference;
        event_.rules.handicap_reduction = static_cast<int>(rng_() % 3);
        event_.pairing.max_handicap = 2 + static_cast<int>(rng_() % 8);
      }
    }
    const bool unranked = !spec.mcmahon && Chance(0.1);
    const int clubs = 2 + static_cast<int>(rng_() % 6);
    for (int i = 1; i <= spec.players; ++i) {
      Entrant e;
      e.id = EntrantId{i};
      e.family_name = "P" + std::to_string(i);
      if (!unranked && !Chance(0.03)) {
        const int s = static_cast<int>(rng_() % 36) - 28;  // 29k..7d
        e.rank = Rank::FromString(s <= 0 ? std::to_string(1 - s) + "k"
                                         : std::to_string(s) + "d");
      }
      if (!Chance(0.1)) e.club = "C" + std::to_string(rng_() % clubs);
      e.country = Chance(0.5) ? "CN" : "FR";
      if (Chance(0.01)) e.withdrawn_after_round = 0;
      results_.entrants.push_back(e);
    }
  }

  void Run() {
    for (int round = 1; round <= spec_.rounds; ++round) {
      SCOPED_TRACE(Where(round));
      PairingAdjustments adj;
      for (const Entrant& e : results_.entrants) {
        if (Active(e, round) && Chance(0.01)) adj.absent.push_back(e.id);
      }
      absl::StatusOr<RoundPairing> p = PairRound(event_, results_, round, adj);
      if (!p.ok()) {
        ASSERT_EQ(p.status().code(), absl::StatusCode::kFailedPrecondition)
            << p.status();
        ASSERT_TRUE(NoPerfectPairing(round, adj)) << Where(round) << p.status();
        return;
      }
      ASSERT_NO_FATAL_FAILURE(Check(round, adj, *p)) << Where(round);
      absl::StatusOr<RoundPairing> again =
          PairRound(event_, results_, round, adj);
      ASSERT_TRUE(again.ok());
      ASSERT_EQ(Text(*again), Text(*p)) << Where(round) << " not reproducible";
      Play(round, *p);
      for (Entrant& e : results_.entrants) {
        if (!e.withdrawn_after_round.has_value() && round < spec_.rounds &&
            Chance(0.02)) {
          e.withdrawn_after_round = round;
        }
      }
    }
  }

  int rounds_paired = 0;

 private:
  bool Chance(double p) {
    return std::uniform_real_distribution<double>(0, 1)(rng_) < p;
  }
  static bool Active(const Entrant& e, int round) {
    return !e.withdrawn_after_round.has_value() ||
           *e.withdrawn_after_round >= round;
  }
  std::string Where(int round) const {
    return " [players " + std::to_string(spec_.players) + ", rounds " +
           std::to_string(spec_.rounds) + ", " +
           (spec_.mcmahon ? "McMahon" : "Swiss") + ", seed " +
           std::to_string(spec_.seed) + ", round " + std::to_string(round) +
           "]";
  }
  static std::string Text(const RoundPairing& p) {
    std::string s;
    for (const PairedBoard& b : p.boards) {
      s += std::to_string(b.board) + ":" + std::to_string(b.white.value) + "-" +
           std::to_string(b.black.value) + "/" + std::to_string(b.handicap) +
           " ";
    }
    for (const Bye& b : p.byes) {
      s += "bye" + std::to_string(b.entrant.value) + "/" +
           std::to_string(b.points) + " ";
    }
    return s;
  }
  const Entrant& Get(int id) const { return results_.entrants[id - 1]; }
  std::string Debug(const RoundPairing& p) {
    std::string s = "\n" + Text(p) + "\n";
    for (const Entrant& e : results_.entrants) {
      s += std::to_string(e.id.value) + ": score " +
           std::to_string(Score(e.id.value)) + " strength " +
           std::to_string(StrengthOf(e)) + " byes " +
           std::to_string(book_[e.id.value].byes) + "\n";
    }
    for (const std::string& d : p.decisions) s += d + "\n";
    return s;
  }

  // The pairing score: points, or McMahon score doubled.
  int Score(int id) const {
    const Book& b = book_.contains(id) ? book_.at(id) : Book{};
    if (!spec_.mcmahon) return b.points;
    const Entrant& e = Get(id);
    int start = e.rank.has_value() ? StrengthOf(e) : -29;
    if (event_.pairing.mcmahon_bar) {
      start = std::min(start, event_.pairing.mcmahon_bar->level());
    }
    if (event_.pairing.mcmahon_floor) {
      start = std::max(start, 1 - event_.pairing.mcmahon_floor->level());
    }
    return 2 * start + b.points;
  }
  bool Met(int a, int b) const {
    return met_.contains({std::min(a, b), std::max(a, b)});
  }
  const Book& BookOf(int id) { return book_[id]; }

  int ExpectedHandicap(int a, int b) const {
    if (event_.rules.handicap_policy != HandicapPolicy::kRankDifference) {
      return 0;
    }
    if (!Get(a).rank || !Get(b).rank) return 0;
    const int d = std::abs(StrengthOf(Get(a)) - StrengthOf(Get(b))) -
                  event_.rules.handicap_reduction;
    return std::clamp(d, 0, event_.pairing.max_handicap);
  }

  void Check(int round, const PairingAdjustments& adj, const RoundPairing& p) {
    ++rounds_paired;
    std::set<int> absent;
    for (EntrantId id : adj.absent) absent.insert(id.value);
    std::map<int, int> seen;
    for (const PairedBoard& b : p.boards) {
      ++seen[b.white.value];
      ++seen[b.black.value];
    }
    int auto_byes = 0;
    std::optional<int> bye_player;
    for (const Bye& b : p.byes) {
      ++seen[b.entrant.value];
      if (absent.contains(b.entrant.value)) {
        EXPECT_EQ(b.points, 0);
      } else {
        EXPECT_EQ(b.points, 2);
        ++auto_byes;
        bye_player = b.entrant.value;
      }
    }
    int active = 0;
    for (const Entrant& e : results_.entrants) {
      const int expected = Active(e, round) ? 1 : 0;
      active += expected;
      ASSERT_EQ(seen[e.id.value], expected) << "entrant " << e.id.value;
    }
    ASSERT_EQ(auto_byes, (active - static_cast<int>(absent.size())) % 2);
    // Boards 1..n.
    for (size_t k = 0; k < p.boards.size(); ++k) {
      ASSERT_EQ(p.boards[k].board, static_cast<int>(k + 1));
    }
    // No rematch.
    for (const PairedBoard& b : p.boards) {
      ASSERT_FALSE(Met(b.white.value, b.black.value))
          << "rematch " << b.white.value << "-" << b.black.value;
    }
    // The bye.
    if (bye_player.has_value()) {
      const int by = *bye_player;
      bool someone_without = false;
      for (const Entrant& e : results_.entrants) {
        if (Active(e, round) && !absent.contains(e.id.value) &&
            book_[e.id.value].byes == 0) {
          someone_without = true;
        }
      }
      if (someone_without && book_[by].byes > 0) {
        // Only when nobody without a bye can take it.
        std::vector<int> pool;
        for (const PairedBoard& b : p.boards) {
          pool.push_back(b.white.value);
          pool.push_back(b.black.value);
        }
        pool.push_back(by);
        EXPECT_FALSE(
            pool.size() > 24 ||
            PairableWithBye(pool, [&](int a) { return book_[a].byes == 0; }))
            << "second bye for " << by << Debug(p);
      } else if (someone_without) {
        const bool by_lot = round == 1 && event_.pairing.first_round_by_lot;
        for (const Entrant& e : results_.entrants) {
          const int id = e.id.value;
          if (!Active(e, round) || absent.contains(id) || id == by ||
              book_[id].byes > 0) {
            continue;
          }
          const bool lower =
              Score(id) < Score(by) ||
              (Score(id) == Score(by) && !by_lot && e.rank && Get(by).rank &&
               StrengthOf(e) < StrengthOf(Get(by)));
          // Unless the others could not be paired with that bye.
          if (!lower) continue;
          std::vector<int> rest;
          for (const PairedBoard& b : p.boards) {
            for (EntrantId x : {b.white, b.black}) {
              if (x.value != id) rest.push_back(x.value);
            }
          }
          rest.push_back(by);
          const bool others_pair =
              rest.size() > 24 ||
              Pairable(rest, [&](int a, int b) { return !Met(a, b); });
          EXPECT_FALSE(others_pair) << "bye to " << by << " but " << id
                                    << " is placed lower" << Debug(p);
        }
      }
    }
    // Colours and handicaps.
    bool colour_broken = false;
    for (const PairedBoard& b : p.boards) {
      const int w = b.white.value, k = b.black.value;
      EXPECT_EQ(b.handicap, ExpectedHandicap(w, k));
      if (b.handicap > 0) {
        EXPECT_GE(StrengthOf(Get(w)), StrengthOf(Get(k)));
        EXPECT_EQ(b.komi_x2, 1);
        continue;
      }
      EXPECT_EQ(b.komi_x2, event_.rules.komi_x2);
      if (Breaks(book_[w], 1) || Breaks(book_[k], -1)) colour_broken = true;
    }
    if (colour_broken) {
      EXPECT_TRUE(ColoursUnavoidable(p))
          << "a colour limit broken where avoidable";
    }
    // Score groups and same-club clashes: two boards a-x and b-y.
    const bool club_round = round <= event_.pairing.same_club_rounds;
    for (size_t i = 0; i < p.boards.size(); ++i) {
      for (size_t j = i + 1; j < p.boards.size(); ++j) {
        const PairedBoard& u = p.boards[i];
        const PairedBoard& v = p.boards[j];
        for (int flip = 0; flip < 4; ++flip) {
          const int a = flip & 1 ? u.white.value : u.black.value;
          const int x = flip & 1 ? u.black.value : u.white.value;
          const int b = flip & 2 ? v.white.value : v.black.value;
          const int y = flip & 2 ? v.black.value : v.white.value;
          const int s = Score(a);
          if (Score(b) != s || Score(x) == s || Score(y) == s) continue;
          if ((Score(x) > s) != (Score(y) > s)) continue;
          if (Met(a, b) || Met(x, y)) continue;
          if (!AlternativeKeepsColours(a, x, b, y)) continue;
          // Float sizes must not grow for the swap to be better; with both
          // partners on one side it always shrinks (d1^2 + d2^2 >
          // (d1 - d2)^2).
          ADD_FAILURE() << "players " << a << " and " << b << " (score " << s
                        << ") both floated to " << x << " and " << y
                        << " (scores " << Score(x) << ", " << Score(y)
                        << ") though they could have played each other";
        }
        if (!club_round) continue;
        const int a = u.white.value, x = u.black.value;
        const int b = v.white.value, y = v.black.value;
        const int s = Score(a);
        if (Score(x) != s || Score(b) != s || Score(y) != s) continue;
        const int clashes = Clash(a, x) + Clash(b, y);
        if (clashes == 0) continue;
        const int before = Hard(u) + Hard(v);
        for (auto [p1, p2, p3, p4] :
             {std::tuple(a, b, x, y), std::tuple(a, y, b, x)}) {
          if (Met(p1, p2) || Met(p3, p4)) continue;
          if (ExpectedHandicap(p1, p2) > 0 || ExpectedHandicap(p3, p4) > 0 ||
              ExpectedHandicap(a, x) > 0 || ExpectedHandicap(b, y) > 0) {
            continue;
          }
          const int after =
              HardCost(book_[p1], book_[p2]) + HardCost(book_[p3], book_[p4]);
          if (after > before) continue;
          EXPECT_LE(clashes, Clash(p1, p2) + Clash(p3, p4))
              << "club clash on boards " << u.board << " and " << v.board
              << " avoidable by a swap";
        }
      }
    }
    // McMahon bar: everyone at or above it starts equal.
    if (spec_.mcmahon && round == 1 && event_.pairing.mcmahon_bar) {
      for (const PairedBoard& b : p.boards) {
        for (EntrantId id : {b.white, b.black}) {
          if (Get(id.value).rank &&
              *Get(id.value).rank >= *event_.pairing.mcmahon_bar) {
            EXPECT_EQ(Score(id.value), 2 * event_.pairing.mcmahon_bar->level());
          }
        }
      }
    }
  }

  int Hard(const PairedBoard& b) {
    if (b.handicap > 0) return 0;
    return Breaks(book_[b.white.value], 1) + Breaks(book_[b.black.value], -1);
  }

  bool Clash(int a, int b) const {
    const Entrant& x = Get(a);
    const Entrant& y = Get(b);
    if (!x.club.empty() && !y.club.empty()) return x.club == y.club;
    return !x.country.empty() && x.country == y.country;
  }

  // Pairs a-b and x-y (instead of a-x and b-y) break no more colour limits.
  bool AlternativeKeepsColours(int a, int x, int b, int y) {
    auto cost = [&](int p, int q) {
      return ExpectedHandicap(p, q) > 0 ? 0 : HardCost(book_[p], book_[q]);
    };
    return cost(a, b) + cost(x, y) <= cost(a, x) + cost(b, y);
  }

  // The players still to pair this round (not absent), for the exhaustive
  // checks: true when no perfect pairing without a rematch exists.
  std::vector<int> Pool(int round, const PairingAdjustments& adj) const {
    std::set<int> absent;
    for (EntrantId id : adj.absent) absent.insert(id.value);
    std::vector<int> pool;
    for (const Entrant& e : results_.entrants) {
      if (Active(e, round) && !absent.contains(e.id.value)) {
        pool.push_back(e.id.value);
      }
    }
    return pool;
  }

  // Is there a pairing of `pool` (all but at most one, who takes the bye)
  // where every pair passes `ok`? Exhaustive; pools up to 24.
  template <typename Ok>
  static bool Pairable(const std::vector<int>& pool, Ok ok) {
    const int n = static_cast<int>(pool.size());
    std::map<uint64_t, bool> memo;
    auto rec = [&](auto&& self, uint32_t left, bool bye_left) -> bool {
      if (left == 0) return true;
      const uint64_t key = left * 2u + bye_left;
      if (auto it = memo.find(key); it != memo.end()) return it->second;
      const int i = __builtin_ctz(left);
      bool r = false;
      if (bye_left) r = self(self, left & ~(1u << i), false);
      for (int j = i + 1; j < n && !r; ++j) {
        if ((left >> j & 1) && ok(pool[i], pool[j])) {
          r = self(self, left & ~(1u << i) & ~(1u << j), bye_left);
        }
      }
      return memo[key] = r;
    };
    return rec(rec, n == 32 ? ~0u : (1u << n) - 1, n % 2 == 1);
  }

  // Is there a pairing of the odd `pool` whose bye passes `bye_ok`?
  template <typename ByeOk>
  bool PairableWithBye(const std::vector<int>& pool, ByeOk bye_ok) {
    for (size_t k = 0; k < pool.size(); ++k) {
      if (!bye_ok(pool[k])) continue;
      std::vector<int> rest = pool;
      rest.erase(rest.begin() + k);
      if (Pairable(rest, [&](int a, int b) { return !Met(a, b); })) {
        return true;
      }
    }
    return false;
  }

  bool NoPerfectPairing(int round, const PairingAdjustments& adj) {
    const std::vector<int> pool = Pool(round, adj);
    if (pool.size() > 24) return false;  // large pools always pair here
    return !Pairable(pool, [&](int a, int b) { return !Met(a, b); });
  }

  // A colour limit was broken: was every rematch-free pairing (with this
  // bye) forced to? Exhaustive for small pools; large pools always avoid.
  bool ColoursUnavoidable(const RoundPairing& p) {
    std::vector<int> pool;
    for (const PairedBoard& b : p.boards) {
      pool.push_back(b.white.value);
      pool.push_back(b.black.value);
    }
    if (pool.size() > 24) return false;
    return !Pairable(pool, [&](int a, int b) {
      return !Met(a, b) &&
             (ExpectedHandicap(a, b) > 0 || HardCost(book_[a], book_[b]) == 0);
    });
  }

  void Play(int round, const RoundPairing& p) {
    for (const PairedBoard& b : p.boards) {
      Game g;
      g.round = round;
      g.white = b.white;
      g.black = b.black;
      g.handicap = b.handicap;
      const double edge = (StrengthOf(Get(b.white.value)) -
                           StrengthOf(Get(b.black.value)) - b.handicap) *
                          0.3;
      const double p_white = 1.0 / (1.0 + std::exp(-edge));
      const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
      g.outcome = r < 0.03 ? Outcome::kDraw
                           : (r < 0.03 + 0.97 * p_white ? Outcome::kWhiteWins
                                                        : Outcome::kBlackWins);
      g.forfeit = Chance(0.01);
      results_.games.push_back(g);
      book_[b.white.value].points += GamePoints(g, false);
      book_[b.black.value].points += GamePoints(g, true);
      if (!g.forfeit) {
        met_.insert({std::min(b.white.value, b.black.value),
                     std::max(b.white.value, b.black.value)});
        if (g.handicap == 0) {
          book_[b.white.value].colours.push_back(1);
          book_[b.black.value].colours.push_back(-1);
        }
      }
    }
    for (const Bye& b : p.byes) {
      results_.byes.push_back(b);
      book_[b.entrant.value].points += b.points;
      if (b.points > 0) ++book_[b.entrant.value].byes;
    }
  }

  Spec spec_;
  std::mt19937_64 rng_;
  Event event_;
  EventResults results_;
  std::map<int, Book> book_;
  std::set<std::pair<int, int>> met_;
};

void RunMany(int events, int min_players, int max_players, bool mcmahon,
             uint64_t first_seed) {
  std::mt19937_64 rng(first_seed);
  int paired = 0;
  for (int k = 0; k < events; ++k) {
    Spec spec;
    spec.players =
        min_players + static_cast<int>(rng() % (max_players - min_players + 1));
    spec.rounds = 5 + static_cast<int>(rng() % 5);
    spec.mcmahon = mcmahon;
    spec.seed = first_seed * 1000003 + k;
    Simulation sim(spec);
    sim.Run();
    paired += sim.rounds_paired;
    if (::testing::Test::HasFailure()) return;
  }
  ::testing::Test::RecordProperty("rounds_paired", paired);
}

TEST(PairingProperties, SmallSwissEvents) { RunMany(1500, 8, 24, false, 1); }
TEST(PairingProperties, SmallMcMahonEvents) { RunMany(1000, 8, 24, true, 2); }
TEST(PairingProperties, MediumEvents) {
  RunMany(40, 25, 120, false, 3);
  RunMany(40, 25, 120, true, 4);
}
TEST(PairingProperties, LargeEvents) {
  RunMany(2, 300, 400, false, 5);
  RunMany(1, 1000, 1000, false, 6);
  RunMany(1, 1000, 1000, true, 7);
}

}  // namespace
}  // namespace gorank::tournaments
