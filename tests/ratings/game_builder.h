// Test helper: terse construction of RatedGame values.
#ifndef GORANK_TESTS_RATINGS_GAME_BUILDER_H_
#define GORANK_TESTS_RATINGS_GAME_BUILDER_H_

#include <string>

#include "services/ratings/rated_game.h"
#include "services/registry/rank.h"

namespace gorank::ratings::testing {

inline Date D(int y, int m, int d) { return Date{y, m, d}; }

// An even class-A game in event `event` (closing on `date`), with declared
// ranks; chain the setters for anything else.
class GameBuilder {
 public:
  GameBuilder(std::string event, Date date, int64_t game_id) {
    g_.event_id = std::move(event);
    g_.event_date = date;
    g_.game_id = game_id;
  }
  GameBuilder& Black(int64_t id, const std::string& rank = "") {
    g_.black = PlayerId{id};
    if (!rank.empty()) g_.black_rank = registry::Rank::FromString(rank);
    return *this;
  }
  GameBuilder& White(int64_t id, const std::string& rank = "") {
    g_.white = PlayerId{id};
    if (!rank.empty()) g_.white_rank = registry::Rank::FromString(rank);
    return *this;
  }
  GameBuilder& Result(GameResult r) {
    g_.result = r;
    return *this;
  }
  GameBuilder& BlackWins() { return Result(GameResult::kBlackWin); }
  GameBuilder& WhiteWins() { return Result(GameResult::kWhiteWin); }
  GameBuilder& Jigo() { return Result(GameResult::kJigo); }
  GameBuilder& Handicap(int h) {
    g_.handicap = h;
    return *this;
  }
  GameBuilder& Class(TimeClass c) {
    g_.time_class = c;
    return *this;
  }
  GameBuilder& Order(int64_t order) {
    g_.event_order = order;
    return *this;
  }
  GameBuilder& Forfeit() {
    g_.forfeit = true;
    return *this;
  }
  GameBuilder& Bye() {
    g_.bye = true;
    return *this;
  }
  GameBuilder& Fast() {
    g_.under_minimum_time = true;
    return *this;
  }
  RatedGame Build() const { return g_; }
  operator RatedGame() const { return g_; }  // NOLINT: test convenience

 private:
  RatedGame g_;
};

}  // namespace gorank::ratings::testing

#endif  // GORANK_TESTS_RATINGS_GAME_BUILDER_H_
