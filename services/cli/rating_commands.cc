// rankctl rating ...: the EGF rating (GoR) and its history, read from the
// RatingService (public, no token needed).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gorank/v1/ratings.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/unary.h"

namespace gorank::cli {
namespace {

// One decimal, as ratings are usually shown ("2134.7").
std::string Gor(double gor) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", gor);
  return buf;
}

void AddGet(CLI::App* rating, CliContext& ctx, Action& action) {
  auto pid = std::make_shared<int64_t>(0);
  auto* get = rating->add_subcommand("get", "a player's current rating");
  get->add_option("player", *pid, "player id")->required();
  get->callback([&, pid] {
    action = [&, pid]() -> int {
      v1::GetRatingRequest req;
      req.set_player_id(*pid);
      return Unary<v1::RatingService, v1::GetRatingResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetRating(c, req, resp);
          },
          [](const auto& resp) {
            const auto& r = resp.rating();
            std::cout << "player " << r.player_id() << ": GoR " << Gor(r.gor())
                      << " (" << RankText(r.grade()) << "), " << r.rated_games()
                      << " rated games in " << r.rated_events() << " events";
            if (r.has_pro_rating()) {
              std::cout << "; pro " << Gor(r.pro_rating()) << " ("
                        << r.pro_games() << " games)";
            }
            std::cout << "\n";
          });
    };
  });
}

void AddHistory(CLI::App* rating, CliContext& ctx, Action& action) {
  auto pid = std::make_shared<int64_t>(0);
  auto* history =
      rating->add_subcommand("history", "a player's rating, event by event");
  history->add_option("player", *pid, "player id")->required();
  history->callback([&, pid] {
    action = [&, pid]() -> int {
      v1::GetRatingHistoryRequest req;
      req.set_player_id(*pid);
      return Unary<v1::RatingService, v1::GetRatingHistoryResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetRatingHistory(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"DATE", "EVENT", "GAMES", "BEFORE", "AFTER"}};
            for (const auto& c : resp.changes()) {
              rows.push_back({DateText(c.event_date()), c.event_id(),
                              std::to_string(c.games()), Gor(c.gor_before()),
                              Gor(c.gor_after())});
            }
            PrintTable(rows);
          });
    };
  });
}

}  // namespace

void AddRatingCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* rating = app.add_subcommand("rating", "EGF ratings (public)");
  rating->require_subcommand(1);
  AddGet(rating, ctx, action);
  AddHistory(rating, ctx, action);
}

}  // namespace gorank::cli
