// rankctl promotion ...: the promotion rules in force and one player's
// verdicts (public), evaluating the rules into proposals, listing them and
// approving or rejecting one (national admin, or an agency for its own
// players within its authority).
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

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

const char* StateText(v1::ProposalState s) {
  switch (s) {
    case v1::PROPOSAL_STATE_PENDING:
      return "PENDING";
    case v1::PROPOSAL_STATE_APPROVED:
      return "APPROVED";
    case v1::PROPOSAL_STATE_REJECTED:
      return "REJECTED";
    case v1::PROPOSAL_STATE_SUPERSEDED:
      return "SUPERSEDED";
    default:
      return "-";
  }
}

bool ParseState(const std::string& text, v1::ProposalState* out) {
  if (text.empty()) {
    *out = v1::PROPOSAL_STATE_UNSPECIFIED;
  } else if (text == "pending") {
    *out = v1::PROPOSAL_STATE_PENDING;
  } else if (text == "approved") {
    *out = v1::PROPOSAL_STATE_APPROVED;
  } else if (text == "rejected") {
    *out = v1::PROPOSAL_STATE_REJECTED;
  } else if (text == "superseded") {
    *out = v1::PROPOSAL_STATE_SUPERSEDED;
  } else {
    return false;
  }
  return true;
}

void PrintProposals(
    const google::protobuf::RepeatedPtrField<v1::PromotionProposal>& ps) {
  std::vector<std::vector<std::string>> rows = {
      {"ID", "PLAYER", "RULE", "FROM", "TO", "STATE", "AS_OF", "CERTIFICATE"}};
  for (const auto& p : ps) {
    rows.push_back(
        {std::to_string(p.proposal_id()), std::to_string(p.player_id()),
         p.rule_id(), RankText(p.from_rank()), RankText(p.to_rank()),
         StateText(p.state()), DateText(p.as_of()),
         p.certificate_number().empty() ? "-" : p.certificate_number()});
  }
  PrintTable(rows);
  for (const auto& p : ps) {
    std::cout << "  #" << p.proposal_id() << ": " << p.explanation() << "\n";
  }
}

void AddRules(CLI::App* promo, CliContext& ctx, Action& action) {
  auto* rules = promo->add_subcommand("rules", "the promotion rules in force");
  rules->callback([&] {
    action = [&]() -> int {
      return Unary<v1::RatingService, v1::ListPromotionRulesResponse>(
          ctx,
          [](auto& s, auto* c, auto* resp) {
            return s.ListPromotionRules(c, v1::ListPromotionRulesRequest(),
                                        resp);
          },
          [](const auto& resp) {
            for (const auto& r : resp.rules()) {
              std::cout << r.id() << " [" << r.kind() << "]"
                        << (r.enabled() ? "" : " (disabled)") << "\n  "
                        << r.description() << "\n";
            }
          });
    };
  });
}

void AddExplain(CLI::App* promo, CliContext& ctx, Action& action) {
  struct Args {
    int64_t player = 0;
    std::string as_of;
  };
  auto args = std::make_shared<Args>();
  auto* explain = promo->add_subcommand(
      "explain", "one player's verdict under every rule, met or not");
  explain->add_option("player", args->player, "player id")->required();
  explain->add_option("--as-of", args->as_of, "YYYY-MM-DD (default today)");
  explain->callback([&, args] {
    action = [&, args]() -> int {
      v1::ExplainPromotionRequest req;
      req.set_player_id(args->player);
      if (!args->as_of.empty() && !SetDate(args->as_of, req.mutable_as_of())) {
        return kExitUsage;
      }
      return Unary<v1::RatingService, v1::ExplainPromotionResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ExplainPromotion(c, req, resp);
          },
          [](const auto& resp) {
            for (const auto& v : resp.verdicts()) {
              std::cout << v.rule_id() << ": "
                        << (v.met() ? "MET -> " + RankText(v.proposed_rank())
                                    : std::string(v.applicable()
                                                      ? "not met"
                                                      : "not applicable"));
              if (v.evidence().has_rating()) {
                std::cout << " (GoR " << Number(v.evidence().rating()) << ")";
              }
              std::cout << "\n  " << v.explanation() << "\n";
            }
          });
    };
  });
}

void AddEvaluate(CLI::App* promo, CliContext& ctx, Action& action) {
  struct Args {
    std::vector<int64_t> players;
    std::vector<std::string> rules;
    std::string as_of;
  };
  auto args = std::make_shared<Args>();
  auto* eval = promo->add_subcommand(
      "evaluate", "store proposals for the players who now meet a rule");
  eval->add_option("--player", args->players, "player id (repeatable)");
  eval->add_option("--rule", args->rules, "rule id (repeatable)");
  eval->add_option("--as-of", args->as_of, "YYYY-MM-DD (default today)");
  eval->callback([&, args] {
    action = [&, args]() -> int {
      v1::EvaluatePromotionsRequest req;
      for (int64_t p : args->players) req.add_player_ids(p);
      for (const std::string& r : args->rules) req.add_rule_ids(r);
      if (!args->as_of.empty() && !SetDate(args->as_of, req.mutable_as_of())) {
        return kExitUsage;
      }
      return Unary<v1::RatingService, v1::EvaluatePromotionsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.EvaluatePromotions(c, req, resp);
          },
          [](const auto& resp) {
            if (resp.proposals().empty()) {
              std::cout << "no player meets a promotion rule\n";
              return;
            }
            PrintProposals(resp.proposals());
          });
    };
  });
}

void AddList(CLI::App* promo, CliContext& ctx, Action& action) {
  struct Args {
    std::string state;
    int64_t player = 0;
    int page_size = 0;
    std::string page_token;
  };
  auto args = std::make_shared<Args>();
  auto* list = promo->add_subcommand("list", "promotion proposals");
  list->add_option("--state", args->state,
                   "pending|approved|rejected|superseded (default: all)");
  list->add_option("--player", args->player, "only this player's");
  list->add_option("--page-size", args->page_size, "rows (default 50)");
  list->add_option("--page-token", args->page_token,
                   "the token a previous page printed");
  list->callback([&, args] {
    action = [&, args]() -> int {
      v1::ListProposalsRequest req;
      v1::ProposalState state;
      if (!ParseState(args->state, &state)) {
        return CliContext::Usage(
            "--state must be pending, approved, "
            "rejected or superseded");
      }
      req.set_state(state);
      req.set_player_id(args->player);
      req.set_page_size(args->page_size);
      req.set_page_token(args->page_token);
      return Unary<v1::RatingService, v1::ListProposalsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ListProposals(c, req, resp);
          },
          [](const auto& resp) {
            PrintProposals(resp.proposals());
            if (!resp.next_page_token().empty()) {
              std::cout << "next page: --page-token " << resp.next_page_token()
                        << "\n";
            }
          });
    };
  });
}

void AddDecide(CLI::App* promo, CliContext& ctx, Action& action,
               const char* name, bool approve) {
  struct Args {
    int64_t proposal = 0;
    std::string reason;
    std::string effective;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = promo->add_subcommand(
      name, approve ? "approve a pending proposal: the rank changes and, "
                      "where due, the certificate is issued"
                    : "reject a pending proposal (--reason required)");
  cmd->add_option("proposal", args->proposal, "proposal id")->required();
  auto* reason = cmd->add_option("--reason", args->reason, "why");
  if (!approve) reason->required();
  if (approve) {
    cmd->add_option("--effective-date", args->effective,
                    "YYYY-MM-DD (default today)");
  }
  cmd->callback([&, args, approve] {
    action = [&, args, approve]() -> int {
      v1::DecidePromotionRequest req;
      req.set_proposal_id(args->proposal);
      req.set_decision(approve ? v1::PROMOTION_DECISION_APPROVE
                               : v1::PROMOTION_DECISION_REJECT);
      req.set_reason(args->reason);
      if (!args->effective.empty() &&
          !SetDate(args->effective, req.mutable_effective_date())) {
        return kExitUsage;
      }
      return Unary<v1::RatingService, v1::DecidePromotionResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.DecidePromotion(c, req, resp);
          },
          [](const auto& resp) {
            const auto& p = resp.proposal();
            std::cout << "proposal " << p.proposal_id() << " "
                      << StateText(p.state()) << ": player " << p.player_id()
                      << " " << RankText(p.from_rank()) << " -> "
                      << RankText(p.to_rank());
            if (!p.certificate_number().empty()) {
              std::cout << ", certificate " << p.certificate_number();
            }
            std::cout << "\n";
          });
    };
  });
}

}  // namespace

void AddPromotionCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* promo = app.add_subcommand("promotion",
                                   "promotion rules, proposals and decisions");
  promo->require_subcommand(1);
  AddRules(promo, ctx, action);
  AddExplain(promo, ctx, action);
  AddEvaluate(promo, ctx, action);
  AddList(promo, ctx, action);
  AddDecide(promo, ctx, action, "approve", true);
  AddDecide(promo, ctx, action, "reject", false);
}

}  // namespace gorank::cli
