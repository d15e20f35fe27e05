// rankctl player|agency|token|rank ...
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "gorank/v1/registry.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/unary.h"
#include "services/common/date.h"

namespace gorank::cli {

void SetRank(const std::string& text, v1::Rank* out) {
  out->set_notation(text);
}

std::string RankText(const v1::Rank& r) {
  if (r.notation().empty()) return "-";
  return r.discipline() == v1::DISCIPLINE_GOMOKU ? "gomoku " + r.notation()
                                                 : r.notation();
}

bool SetDiscipline(const std::string& text, v1::Discipline* out) {
  if (text == "go") {
    *out = v1::DISCIPLINE_GO;
  } else if (text == "gomoku") {
    *out = v1::DISCIPLINE_GOMOKU;
  } else {
    std::cerr << "rankctl: --discipline must be go or gomoku, not '" << text
              << "'\n";
    return false;
  }
  return true;
}

bool SetDate(const std::string& text, v1::Date* out) {
  auto d = Date::Parse(text);
  if (!d.ok()) {
    std::cerr << "rankctl: " << d.status().message() << "\n";
    return false;
  }
  out->set_year(d->year);
  out->set_month(d->month);
  out->set_day(d->day);
  return true;
}

std::string DateText(const v1::Date& d) {
  if (d.year() == 0) return "";
  return Date{d.year(), d.month(), d.day()}.ToString();
}

namespace {

std::string GenderText(v1::Gender g) {
  return g == v1::GENDER_MALE     ? "male"
         : g == v1::GENDER_FEMALE ? "female"
                                  : "-";
}

bool ParseGender(const std::string& s, v1::Gender* out) {
  if (s == "male" || s == "m" || s == "男")
    *out = v1::GENDER_MALE;
  else if (s == "female" || s == "f" || s == "女")
    *out = v1::GENDER_FEMALE;
  else
    return false;
  return true;
}

void PrintPlayers(
    const google::protobuf::RepeatedPtrField<v1::Player>& players) {
  std::vector<std::vector<std::string>> rows = {
      {"ID", "NAME", "LATIN", "GENDER", "BORN", "AGENCY", "RANK"}};
  for (const auto& p : players) {
    rows.push_back({std::to_string(p.id()), p.name(), p.latin_name(),
                    GenderText(p.gender()), DateText(p.birth_date()),
                    p.agency_prefix(), RankText(p.rank())});
  }
  PrintTable(rows);
}

void PrintPlayer(const v1::Player& p) {
  std::vector<std::vector<std::string>> rows = {
      {"id", std::to_string(p.id())},
      {"name", p.name()},
      {"latin name", p.latin_name()},
      {"gender", GenderText(p.gender())},
      {"birth date", DateText(p.birth_date())},
      {"agency", p.agency_prefix()},
      {"resident id", p.resident_id().empty()
                          ? (p.has_resident_id() ? "(recorded, hidden)" : "-")
                          : p.resident_id()},
      {"rank", RankText(p.rank())},
      {"gomoku rank", RankText(p.gomoku_rank())}};
  if (!p.external_id().empty())
    rows.push_back({"external id", p.external_id()});
  PrintTable(rows);
}

std::string ReasonText(v1::RankChangeReason r) {
  std::string name = v1::RankChangeReason_Name(r);
  const std::string prefix = "RANK_CHANGE_REASON_";
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  for (char& c : name) c = static_cast<char>(std::tolower(c));
  return name;
}

void PrintAgencies(
    const google::protobuf::RepeatedPtrField<v1::Agency>& agencies) {
  std::vector<std::vector<std::string>> rows = {
      {"PREFIX", "NAME", "NAME_EN", "STATUS"}};
  for (const auto& a : agencies) {
    rows.push_back({a.prefix(), a.name(), a.name_en(),
                    a.status() == v1::AGENCY_STATUS_ACTIVE
                        ? "active"
                        : "suspended: " + a.status_reason()});
  }
  PrintTable(rows);
}

std::string RoleText(v1::Role r) {
  switch (r) {
    case v1::ROLE_NATIONAL_ADMIN:
      return "national_admin";
    case v1::ROLE_AGENCY_OPERATOR:
      return "agency_operator";
    case v1::ROLE_AUDITOR:
      return "auditor";
    default:
      return "public";
  }
}

void PrintTokens(
    const google::protobuf::RepeatedPtrField<v1::TokenInfo>& tokens) {
  std::vector<std::vector<std::string>> rows = {
      {"ID", "ROLE", "AGENCY", "LABEL", "STATE"}};
  for (const auto& t : tokens) {
    rows.push_back({std::to_string(t.id()), RoleText(t.role()),
                    t.agency_prefix(), t.label(),
                    t.revoked_unix() ? "revoked" : "valid"});
  }
  PrintTable(rows);
}

void AddPlayerRegister(CLI::App& player, CliContext& ctx, Action& action) {
  auto* reg = player.add_subcommand("register", "register a new player");
  auto r = std::make_shared<v1::RegisterPlayerRequest>();
  auto gender = std::make_shared<std::string>();
  auto birth = std::make_shared<std::string>();
  auto rank = std::make_shared<std::string>();
  reg->add_option("--name", *r->mutable_name(),
                  "name (Chinese characters as written)")
      ->required();
  reg->add_option("--latin-name", *r->mutable_latin_name(),
                  "name in Latin letters");
  reg->add_option("--gender", *gender, "male|female");
  reg->add_option("--birth-date", *birth, "YYYY-MM-DD");
  reg->add_option("--agency", *r->mutable_agency_prefix(),
                  "home agency prefix, e.g. 110")
      ->required();
  reg->add_option("--resident-id", *r->mutable_resident_id(),
                  "18-character resident ID number");
  reg->add_option("--rank", *rank,
                  "a rank the player already holds (5k, 3d, 业余3段 ...)");
  reg->add_option("--rank-basis", *r->mutable_initial_rank_basis(),
                  "what that rank rests on");
  reg->add_option("--external-id", *r->mutable_external_id(),
                  "the agency's own id for the player (unique in the agency, "
                  "at most 64 bytes)");
  reg->callback([&, r, gender, birth, rank] {
    action = [&, r, gender, birth, rank]() -> int {
      if (!gender->empty()) {
        v1::Gender g;
        if (!ParseGender(*gender, &g))
          return CliContext::Usage("--gender must be male or female");
        r->set_gender(g);
      }
      if (!birth->empty() && !SetDate(*birth, r->mutable_birth_date()))
        return kExitUsage;
      if (!rank->empty()) SetRank(*rank, r->mutable_initial_rank());
      return Unary<v1::PlayerRegistry, v1::RegisterPlayerResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.RegisterPlayer(c, *r, resp);
          },
          [](const auto& resp) { PrintPlayer(resp.player()); });
    };
  });
}

void AddPlayerGet(CLI::App& player, CliContext& ctx, Action& action) {
  auto* get = player.add_subcommand("get", "show one player");
  auto id = std::make_shared<int64_t>(0);
  get->add_option("id", *id, "player id")->required();
  get->callback([&, id] {
    action = [&, id]() -> int {
      v1::GetPlayerRequest req;
      req.set_player_id(*id);
      return Unary<v1::PlayerRegistry, v1::GetPlayerResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.GetPlayer(c, req, resp);
          },
          [](const auto& resp) { PrintPlayer(resp.player()); });
    };
  });
}

void AddPlayerUpdate(CLI::App& player, CliContext& ctx, Action& action) {
  auto* upd = player.add_subcommand("update", "change a player's record");
  auto u = std::make_shared<v1::UpdatePlayerRequest>();
  auto ugender = std::make_shared<std::string>();
  auto ubirth = std::make_shared<std::string>();
  auto uid = std::make_shared<int64_t>(0);
  upd->add_option("id", *uid, "player id")->required();
  upd->add_option("--name", *u->mutable_name(), "new name");
  upd->add_option("--latin-name", *u->mutable_latin_name(), "new Latin name");
  upd->add_option("--gender", *ugender, "male|female");
  upd->add_option("--birth-date", *ubirth, "YYYY-MM-DD");
  upd->add_option("--resident-id", *u->mutable_resident_id(),
                  "resident ID number");
  upd->add_option("--agency", *u->mutable_agency_prefix(),
                  "transfer to agency (national admin)");
  upd->callback([&, u, ugender, ubirth, uid] {
    action = [&, u, ugender, ubirth, uid]() -> int {
      u->set_player_id(*uid);
      if (!ugender->empty()) {
        v1::Gender g;
        if (!ParseGender(*ugender, &g))
          return CliContext::Usage("--gender must be male or female");
        u->set_gender(g);
      }
      if (!ubirth->empty() && !SetDate(*ubirth, u->mutable_birth_date()))
        return kExitUsage;
      return Unary<v1::PlayerRegistry, v1::UpdatePlayerResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.UpdatePlayer(c, *u, resp);
          },
          [](const auto& resp) { PrintPlayer(resp.player()); });
    };
  });
}

void AddPlayerSearch(CLI::App& player, CliContext& ctx, Action& action) {
  auto* search = player.add_subcommand("search", "find players");
  auto s = std::make_shared<v1::SearchPlayersRequest>();
  auto min_rank = std::make_shared<std::string>();
  auto max_rank = std::make_shared<std::string>();
  search->add_option("--name", *s->mutable_name_prefix(),
                     "name or Latin-name prefix");
  search->add_option("--agency", *s->mutable_agency_prefix(), "agency prefix");
  search->add_option("--min-rank", *min_rank, "weakest rank, e.g. 5k");
  search->add_option("--max-rank", *max_rank, "strongest rank, e.g. 3d");
  search->add_option_function<int32_t>(
      "--page-size", [s](int32_t v) { s->set_page_size(v); },
      "results per page (default 50, at most 200)");
  search->add_option("--page-token", *s->mutable_page_token(),
                     "from a previous page");
  search->callback([&, s, min_rank, max_rank] {
    action = [&, s, min_rank, max_rank]() -> int {
      if (!min_rank->empty()) SetRank(*min_rank, s->mutable_min_rank());
      if (!max_rank->empty()) SetRank(*max_rank, s->mutable_max_rank());
      return Unary<v1::PlayerRegistry, v1::SearchPlayersResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.SearchPlayers(c, *s, resp);
          },
          [](const auto& resp) {
            PrintPlayers(resp.players());
            if (!resp.next_page_token().empty()) {
              std::cout << "more: --page-token " << resp.next_page_token()
                        << "\n";
            }
          });
    };
  });
}

void AddPlayerHistory(CLI::App& player, CliContext& ctx, Action& action) {
  auto* hist = player.add_subcommand("history", "a player's rank history");
  auto hid = std::make_shared<int64_t>(0);
  hist->add_option("id", *hid, "player id")->required();
  hist->callback([&, hid] {
    action = [&, hid]() -> int {
      v1::GetRankHistoryRequest req;
      req.set_player_id(*hid);
      return Unary<v1::PlayerRegistry, v1::GetRankHistoryResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.GetRankHistory(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"DATE", "GAME", "FROM", "TO", "REASON", "BASIS", "BY"}};
            for (const auto& e : resp.entries()) {
              rows.push_back(
                  {DateText(e.effective_date()),
                   e.discipline() == v1::DISCIPLINE_GOMOKU ? "gomoku" : "go",
                   RankText(e.from_rank()), RankText(e.to_rank()),
                   ReasonText(e.reason()), e.basis(), e.actor()});
            }
            PrintTable(rows);
          });
    };
  });
}

void AddPlayerSetRank(CLI::App& player, CliContext& ctx, Action& action) {
  auto* chg = player.add_subcommand(
      "set-rank", "record a correction or a tournament award");
  auto c = std::make_shared<v1::ChangeRankRequest>();
  auto cid = std::make_shared<int64_t>(0);
  auto crank = std::make_shared<std::string>();
  auto creason = std::make_shared<std::string>();
  auto cdate = std::make_shared<std::string>();
  auto cdisc = std::make_shared<std::string>("go");
  chg->add_option("id", *cid, "player id")->required();
  chg->add_option("--rank", *crank, "the new rank")->required();
  chg->add_option("--discipline", *cdisc,
                  "go|gomoku: which of the player's ranks")
      ->capture_default_str();
  chg->add_option("--reason", *creason, "correction|award")->required();
  chg->add_option("--basis", *c->mutable_basis(), "what the change rests on")
      ->required();
  chg->add_option("--date", *cdate,
                  "effective date, YYYY-MM-DD (default today)");
  chg->add_option_function<int64_t>(
      "--event", [c](int64_t v) { c->set_basis_event_id(v); },
      "award: the closed event the player played in (event id)");
  chg->add_option("--certificate", *c->mutable_basis_certificate(),
                  "award: the player's certificate it rests on (number)");
  chg->callback([&, c, cid, crank, creason, cdate, cdisc] {
    action = [&, c, cid, crank, creason, cdate, cdisc]() -> int {
      v1::Discipline d;
      if (!SetDiscipline(*cdisc, &d)) return kExitUsage;
      c->set_discipline(d);
      c->set_player_id(*cid);
      SetRank(*crank, c->mutable_new_rank());
      if (*creason == "correction")
        c->set_reason(v1::RANK_CHANGE_REASON_CORRECTION);
      else if (*creason == "award")
        c->set_reason(v1::RANK_CHANGE_REASON_TOURNAMENT_AWARD);
      else
        return CliContext::Usage("--reason must be correction or award");
      if (!cdate->empty() && !SetDate(*cdate, c->mutable_effective_date()))
        return kExitUsage;
      return Unary<v1::PlayerRegistry, v1::ChangeRankResponse>(
          ctx,
          [&](auto& stub, auto* cc, auto* resp) {
            return stub.ChangeRank(cc, *c, resp);
          },
          [](const auto& resp) { PrintPlayer(resp.player()); });
    };
  });
}

void AddPlayerCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* player =
      app.add_subcommand("player", "register, read and search players");
  player->require_subcommand(1);

  AddPlayerRegister(*player, ctx, action);
  AddPlayerGet(*player, ctx, action);
  AddPlayerUpdate(*player, ctx, action);
  AddPlayerSearch(*player, ctx, action);
  AddPlayerHistory(*player, ctx, action);
  AddPlayerSetRank(*player, ctx, action);
}

void AddAgencyList(CLI::App& agency, CliContext& ctx, Action& action) {
  agency.add_subcommand("list", "every agency with its prefix and status")
      ->callback([&] {
        action = [&]() -> int {
          v1::ListAgenciesRequest req;
          return Unary<v1::AgencyService, v1::ListAgenciesResponse>(
              ctx,
              [&](auto& stub, auto* c, auto* resp) {
                return stub.ListAgencies(c, req, resp);
              },
              [](const auto& resp) { PrintAgencies(resp.agencies()); });
        };
      });
}

void AddAgencyCreate(CLI::App& agency, CliContext& ctx, Action& action) {
  auto* create =
      agency.add_subcommand("create", "create an agency (national admin)");
  auto cr = std::make_shared<v1::CreateAgencyRequest>();
  create->add_option("--prefix", *cr->mutable_prefix(), "three-digit prefix")
      ->required();
  create->add_option("--name", *cr->mutable_name(), "name")->required();
  create->add_option("--name-en", *cr->mutable_name_en(), "English name");
  create->callback([&, cr] {
    action = [&, cr]() -> int {
      return Unary<v1::AgencyService, v1::CreateAgencyResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.CreateAgency(c, *cr, resp);
          },
          [](const auto& resp) {
            std::cout << "created agency " << resp.agency().prefix() << "\n";
          });
    };
  });
}

void AddAgencySuspend(CLI::App& agency, CliContext& ctx, Action& action) {
  auto* suspend =
      agency.add_subcommand("suspend", "suspend an agency (national admin)");
  auto sr = std::make_shared<v1::SuspendAgencyRequest>();
  suspend->add_option("prefix", *sr->mutable_prefix(), "agency prefix")
      ->required();
  suspend->add_option("--reason", *sr->mutable_reason(), "why")->required();
  suspend->callback([&, sr] {
    action = [&, sr]() -> int {
      return Unary<v1::AgencyService, v1::SuspendAgencyResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.SuspendAgency(c, *sr, resp);
          },
          [](const auto& resp) {
            std::cout << "suspended agency " << resp.agency().prefix() << "\n";
          });
    };
  });
}

void AddAgencyReinstate(CLI::App& agency, CliContext& ctx, Action& action) {
  auto* reinstate =
      agency.add_subcommand("reinstate", "reinstate a suspended agency");
  auto rr = std::make_shared<v1::ReinstateAgencyRequest>();
  reinstate->add_option("prefix", *rr->mutable_prefix(), "agency prefix")
      ->required();
  reinstate->add_option("--reason", *rr->mutable_reason(), "why");
  reinstate->callback([&, rr] {
    action = [&, rr]() -> int {
      return Unary<v1::AgencyService, v1::ReinstateAgencyResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.ReinstateAgency(c, *rr, resp);
          },
          [](const auto& resp) {
            std::cout << "reinstated agency " << resp.agency().prefix() << "\n";
          });
    };
  });
}

void AddAgencyCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* agency =
      app.add_subcommand("agency", "list and manage certifying agencies");
  agency->require_subcommand(1);
  AddAgencyList(*agency, ctx, action);
  AddAgencyCreate(*agency, ctx, action);
  AddAgencySuspend(*agency, ctx, action);
  AddAgencyReinstate(*agency, ctx, action);
}

// `token create --out FILE`: the file is created (mode 0600, never over an
// existing one) before the call, so that a token is never made whose secret
// has nowhere to go; the secret goes only into the file.
int CreateTokenToFile(CliContext& ctx, const v1::CreateTokenRequest& req,
                      const std::string& path) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    return CliContext::Usage(
        "--out " + path + ": " +
        (err == EEXIST ? std::string("the file exists (a token file is "
                                     "never overwritten)")
                       : std::strerror(err)));
  }
  auto give_up = [&] {
    ::close(fd);
    ::unlink(path.c_str());
  };
  if (::fchmod(fd, 0600) != 0) {  // whatever the umask did
    const int err = errno;
    give_up();
    return CliContext::Usage("--out " + path + ": " + std::strerror(err));
  }
  auto stub = v1::TokenService::NewStub(ctx.Channel());
  auto call = ctx.NewCall();
  if (!call) {
    give_up();
    return kExitUsage;
  }
  v1::CreateTokenResponse resp;
  const grpc::Status s = stub->CreateToken(call.get(), req, &resp);
  if (!s.ok()) {
    give_up();
    return ctx.Fail(s);
  }
  const std::string line = resp.secret() + "\n";
  if (::write(fd, line.data(), line.size()) !=
          static_cast<ssize_t>(line.size()) ||
      ::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(path.c_str());
    std::cerr << "rankctl: cannot write " << path << ": " << std::strerror(err)
              << "; token " << resp.token().id()
              << " was created: revoke it (rankctl token revoke "
              << resp.token().id() << ")\n";
    return kExitCallFailed;
  }
  resp.clear_secret();  // not on the terminal, not in --json
  return ctx.Print(resp, [&] {
    std::cout << "token " << resp.token().id() << " ("
              << RoleText(resp.token().role()) << "); secret written to "
              << path << " (mode 0600)\n";
  });
}

void AddTokenCreate(CLI::App& token, CliContext& ctx, Action& action) {
  auto* create = token.add_subcommand(
      "create", "create a token; its secret is shown once");
  auto role = std::make_shared<std::string>();
  auto cr = std::make_shared<v1::CreateTokenRequest>();
  create->add_option("--role", *role, "national_admin|agency_operator|auditor")
      ->required();
  create->add_option("--agency", *cr->mutable_agency_prefix(),
                     "agency prefix (agency_operator)");
  create->add_option("--label", *cr->mutable_label(), "who holds it");
  auto out = std::make_shared<std::string>();
  create->add_option(
      "--out", *out,
      "write the secret to this new file (mode 0600) instead of printing it");
  create->callback([&, role, cr, out] {
    action = [&, role, cr, out]() -> int {
      if (*role == "national_admin")
        cr->set_role(v1::ROLE_NATIONAL_ADMIN);
      else if (*role == "agency_operator")
        cr->set_role(v1::ROLE_AGENCY_OPERATOR);
      else if (*role == "auditor")
        cr->set_role(v1::ROLE_AUDITOR);
      else
        return CliContext::Usage(
            "--role must be national_admin, agency_operator or auditor");
      if (!out->empty()) return CreateTokenToFile(ctx, *cr, *out);
      return Unary<v1::TokenService, v1::CreateTokenResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.CreateToken(c, *cr, resp);
          },
          [](const auto& resp) {
            std::cout << "token " << resp.token().id() << " ("
                      << RoleText(resp.token().role())
                      << "); secret, shown only now:\n"
                      << resp.secret() << "\n";
          });
    };
  });
}

void AddTokenRevoke(CLI::App& token, CliContext& ctx, Action& action) {
  auto* revoke = token.add_subcommand("revoke", "revoke a token");
  auto tid = std::make_shared<int64_t>(0);
  revoke->add_option("id", *tid, "token id")->required();
  revoke->callback([&, tid] {
    action = [&, tid]() -> int {
      v1::RevokeTokenRequest req;
      req.set_token_id(*tid);
      return Unary<v1::TokenService, v1::RevokeTokenResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.RevokeToken(c, req, resp);
          },
          [](const auto& resp) {
            std::cout << "revoked token " << resp.token().id() << "\n";
          });
    };
  });
}

void AddTokenList(CLI::App& token, CliContext& ctx, Action& action) {
  token.add_subcommand("list", "every token (never its secret)")->callback([&] {
    action = [&]() -> int {
      v1::ListTokensRequest req;
      return Unary<v1::TokenService, v1::ListTokensResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.ListTokens(c, req, resp);
          },
          [](const auto& resp) { PrintTokens(resp.tokens()); });
    };
  });
}

void AddTokenWhoAmI(CLI::App& token, CliContext& ctx, Action& action) {
  token.add_subcommand("whoami", "the role of the token in use")->callback([&] {
    action = [&]() -> int {
      v1::WhoAmIRequest req;
      return Unary<v1::TokenService, v1::WhoAmIResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.WhoAmI(c, req, resp);
          },
          [](const auto& resp) {
            std::cout << RoleText(resp.role())
                      << (resp.agency_prefix().empty()
                              ? ""
                              : " of agency " + resp.agency_prefix())
                      << "\n";
          });
    };
  });
}

void AddTokenCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* token = app.add_subcommand("token", "access tokens (national admin)");
  token->require_subcommand(1);
  AddTokenCreate(*token, ctx, action);
  AddTokenRevoke(*token, ctx, action);
  AddTokenList(*token, ctx, action);
  AddTokenWhoAmI(*token, ctx, action);
}

void AddRankParse(CLI::App& rank, CliContext& ctx, Action& action) {
  auto* parse =
      rank.add_subcommand("parse", "parse a rank in any accepted notation");
  auto text = std::make_shared<std::string>();
  auto pdisc = std::make_shared<std::string>("go");
  parse->add_option("text", *text, "e.g. 5k, 业余3段, 职业九段")->required();
  parse
      ->add_option("--discipline", *pdisc,
                   "go|gomoku: the ladder to read it on")
      ->capture_default_str();
  parse->callback([&, text, pdisc] {
    action = [&, text, pdisc]() -> int {
      v1::ParseRankRequest req;
      v1::Discipline d;
      if (!SetDiscipline(*pdisc, &d)) return kExitUsage;
      req.set_discipline(d);
      req.set_text(*text);
      return Unary<v1::RankService, v1::ParseRankResponse>(
          ctx,
          [&](auto& stub, auto* c, auto* resp) {
            return stub.ParseRank(c, req, resp);
          },
          [](const auto& resp) {
            std::cout << resp.rank().notation() << "\t" << resp.chinese()
                      << "\n";
          });
    };
  });
}

void AddRankCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* rank = app.add_subcommand("rank", "rank notation");
  rank->require_subcommand(1);
  AddRankParse(*rank, ctx, action);
}

}  // namespace

void AddRegistryCommands(CLI::App& app, CliContext& ctx, Action& action) {
  AddPlayerCommands(app, ctx, action);
  AddAgencyCommands(app, ctx, action);
  AddTokenCommands(app, ctx, action);
  AddRankCommands(app, ctx, action);
}

}  // namespace gorank::cli
