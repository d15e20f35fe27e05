// rankctl rating ...: the EGF rating (GoR), its history and the rating list,
// read from the RatingService (public, no token needed), and the full
// recompute (national admin).
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
            if (!r.origin().empty()) {
              std::cout << "started from " << r.origin() << "\n";
            }
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

void AddList(CLI::App* rating, CliContext& ctx, Action& action) {
  struct Args {
    bool pro = false;
    int page_size = 0;
    std::string page_token;
  };
  auto args = std::make_shared<Args>();
  auto* list = rating->add_subcommand(
      "list", "the rating list by descending GoR (--pro: the pro Elo list)");
  list->add_flag("--pro", args->pro,
                 "the professional rating list, by descending pro rating");
  list->add_option("--page-size", args->page_size, "rows (default 50, <= 500)");
  list->add_option("--page-token", args->page_token,
                   "the token a previous page printed");
  list->callback([&, args] {
    action = [&, args]() -> int {
      v1::ListRatingsRequest req;
      req.set_pro_list(args->pro);
      req.set_page_size(args->page_size);
      req.set_page_token(args->page_token);
      return Unary<v1::RatingService, v1::ListRatingsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ListRatings(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"PLAYER", "GOR", "GRADE", "GAMES", "EVENTS", "PRO",
                 "PRO_GAMES"}};
            for (const auto& r : resp.ratings()) {
              rows.push_back({std::to_string(r.player_id()), Gor(r.gor()),
                              RankText(r.grade()),
                              std::to_string(r.rated_games()),
                              std::to_string(r.rated_events()),
                              r.has_pro_rating() ? Gor(r.pro_rating()) : "-",
                              std::to_string(r.pro_games())});
            }
            PrintTable(rows);
            if (!resp.next_page_token().empty()) {
              std::cout << "next page: --page-token " << resp.next_page_token()
                        << "\n";
            }
          });
    };
  });
}

void AddRecompute(CLI::App* rating, CliContext& ctx, Action& action) {
  auto dry_run = std::make_shared<bool>(false);
  auto* recompute = rating->add_subcommand(
      "recompute",
      "recompute every rating from the stored results (national admin)");
  recompute->add_flag("--dry-run", *dry_run,
                      "compute and report, keep the stored ratings");
  recompute->callback([&, dry_run] {
    action = [&, dry_run]() -> int {
      v1::RecomputeRatingsRequest req;
      req.set_dry_run(*dry_run);
      return Unary<v1::RatingService, v1::RecomputeRatingsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.RecomputeRatings(c, req, resp);
          },
          [dry_run](const auto& resp) {
            std::cout << resp.events() << " events, " << resp.games()
                      << " rated games, " << resp.players() << " players\n"
                      << "table sha256 " << resp.table_sha256() << "\n"
                      << (resp.changed() ? "differs from" : "equals")
                      << " the stored table"
                      << (resp.changed() && !*dry_run ? " (stored now)" : "")
                      << "\n";
          });
    };
  });
}

}  // namespace

void AddRatingCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* rating = app.add_subcommand("rating", "EGF ratings");
  rating->require_subcommand(1);
  AddGet(rating, ctx, action);
  AddHistory(rating, ctx, action);
  AddList(rating, ctx, action);
  AddRecompute(rating, ctx, action);
}

}  // namespace gorank::cli
