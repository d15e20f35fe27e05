// rankctl event ... (tournaments) and rankctl grade ... (athlete grades, which
// read the results recorded here). Over 500 lines: the event subcommands and
// their small text parsers (games, komi, enum codes) belong together.
#include <cctype>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gorank/v1/eligibility.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/integer_args.h"
#include "services/cli/unary.h"

namespace gorank::cli {
namespace {

// "swiss" -> FORMAT_KIND_SWISS through the enum's generated parser.
template <typename E>
bool ParseCode(const std::string& code, const std::string& prefix,
               bool (*parse)(const std::string&, E*), E* out) {
  std::string name = prefix;
  for (char c : code) name.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(c)));
  return parse(name, out) && static_cast<int>(*out) != 0;
}

// FORMAT_KIND_SWISS -> "swiss".
std::string CodeText(const std::string& name, size_t prefix_len) {
  std::string out;
  for (char c : name.substr(prefix_len)) out.push_back(static_cast<char>(std::tolower(c)));
  return out == "unspecified" ? "-" : out;
}

std::string Level(v1::EventLevel l) { return CodeText(v1::EventLevel_Name(l), 12); }
std::string SubEvent(v1::SubEvent s) { return CodeText(v1::SubEvent_Name(s), 10); }
std::string Kind(v1::FormatKind k) { return CodeText(v1::FormatKind_Name(k), 12); }

std::string KomiText(int komi_x2) {
  std::string s = std::to_string(komi_x2 / 2);
  if (komi_x2 % 2 != 0) s = (komi_x2 < 0 && komi_x2 / 2 == 0 ? "-" : "") + s + ".5";
  return s;
}

void PrintEvent(const v1::Event& e) {
  const v1::Format& f = e.format();
  std::string format = Kind(f.kind());
  if (f.rounds() > 0) format += ", " + std::to_string(f.rounds()) + " rounds";
  if (f.boards() > 0) format += ", " + std::to_string(f.boards()) + " boards";
  PrintTable({{"id", std::to_string(e.id())},
              {"name", e.name()},
              {"dates", DateText(e.start()) + " .. " + DateText(e.end())},
              {"organiser", e.organiser_prefix()},
              {"place", e.city() + (e.country().empty() ? "" : ", " + e.country())},
              {"competition", e.competition() + (e.group().empty() ? "" : " / " + e.group()) +
                                  (e.highest_group() ? "" : " (not the highest group)")},
              {"level", Level(e.level())},
              {"sub-event", SubEvent(e.sub_event())},
              {"format", format},
              {"komi", KomiText(e.rules().komi_x2())},
              {"shared places", e.shared_places_allowed() ? "allowed" : "no (play-off/lots)"},
              {"state", e.closed() ? "closed" : "open"}});
}

void PrintEvents(const google::protobuf::RepeatedPtrField<v1::Event>& events) {
  std::vector<std::vector<std::string>> rows = {
      {"ID", "START", "ORGANISER", "COMPETITION", "FORMAT", "STATE", "NAME"}};
  for (const auto& e : events) {
    rows.push_back({std::to_string(e.id()), DateText(e.start()), e.organiser_prefix(),
                    e.competition(), Kind(e.format().kind()), e.closed() ? "closed" : "open",
                    e.name()});
  }
  PrintTable(rows);
}

void PrintStandings(const v1::Standings& s) {
  if (s.status() == v1::STANDINGS_STATUS_PENDING_RESULTS) {
    std::cout << "pending results: " << s.pending_reason() << "\n";
    return;
  }
  std::vector<std::string> header = {"PLACE", s.teams() ? "TEAM" : "ID", "NAME"};
  for (const auto& n : s.criteria_names()) header.push_back(n);
  header.push_back("NOTE");
  std::vector<std::vector<std::string>> rows = {header};
  for (const auto& r : s.rows()) {
    std::vector<std::string> row = {r.place_label(), std::to_string(r.id()), r.name()};
    for (const auto& c : r.criteria()) row.push_back(c.display());
    row.push_back(r.note());
    rows.push_back(row);
  }
  PrintTable(rows);
  if (s.status() == v1::STANDINGS_STATUS_PENDING_PLAYOFF) {
    std::cout << "pending play-off: " << s.pending_reason() << "\n";
  }
  std::cout << s.entrants_played() << " played over the board\n";
}

bool ReadWholeFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

bool SetFileFormat(const std::string& text, v1::ResultFileFormat* out) {
  if (text == "egf") *out = v1::RESULT_FILE_FORMAT_EGF;
  else if (text == "csv") *out = v1::RESULT_FILE_FORMAT_CSV;
  else return false;
  return true;
}

// "7.5" -> 15; false when not a multiple of 0.5.
bool KomiX2(const std::string& text, int* out) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  // Bounded so that "nan", "inf" and "1e300" are refused, not rounded to
  // garbage.
  if (end == text.c_str() || *end != '\0' || !(std::fabs(v) <= 1000) ||
      std::fabs(v * 2 - std::round(v * 2)) > 1e-9) {
    return false;
  }
  *out = static_cast<int>(std::lround(v * 2));
  return true;
}

// "BLACK-WHITE:RESULT[!][,hN][,kKOMI][,wbN][,wwN]"; RESULT is b (black
// wins), w, d (draw), x (both lose) or ? (unknown); '!' marks a forfeit.
bool ParseGame(const std::string& spec, int round, v1::Game* g, std::string* error) {
  std::vector<std::string> parts;
  std::stringstream ss(spec);
  for (std::string p; std::getline(ss, p, ',');) parts.push_back(p);
  int black = 0, white = 0;
  char result = 0;
  char bang = 0;
  const int n = parts.empty() ? 0 : std::sscanf(parts[0].c_str(), "%d-%d:%c%c", &black, &white,
                                                &result, &bang);
  if (n < 3 || (n == 4 && bang != '!')) {
    *error = "--game '" + spec + "': expected BLACK-WHITE:b|w|d|x|?[!]";
    return false;
  }
  g->set_round(round);
  g->set_black_entrant_id(black);
  g->set_white_entrant_id(white);
  g->set_colours_known(true);
  g->set_kind(v1::GAME_KIND_REGULAR);
  g->set_forfeit(n == 4);
  switch (result) {
    case 'b': g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS); break;
    case 'w': g->set_outcome(v1::GAME_OUTCOME_WHITE_WINS); break;
    case 'd': g->set_outcome(v1::GAME_OUTCOME_DRAW); break;
    case 'x': g->set_outcome(v1::GAME_OUTCOME_BOTH_LOSE); break;
    case '?': g->set_outcome(v1::GAME_OUTCOME_UNSPECIFIED); break;
    default: *error = "--game '" + spec + "': result must be b, w, d, x or ?"; return false;
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    int komi = 0;
    int32_t n = 0;
    if (p.rfind("wb", 0) == 0 &&
        ParseDecimal(std::string_view(p).substr(2), &n)) {
      g->set_black_warnings(n);
    } else if (p.rfind("ww", 0) == 0 &&
               ParseDecimal(std::string_view(p).substr(2), &n)) {
      g->set_white_warnings(n);
    } else if (p.rfind("h", 0) == 0 &&
               ParseDecimal(std::string_view(p).substr(1), &n)) {
      g->set_handicap(n);
    } else if (p.rfind("k", 0) == 0 && KomiX2(p.substr(1), &komi)) {
      g->set_has_komi(true);
      g->set_komi_x2(komi);
    } else {
      *error = "--game '" + spec + "': unknown part '" + p + "' (hN, kKOMI, wbN, wwN)";
      return false;
    }
  }
  return true;
}

struct CreateArgs {
  v1::Event event;
  std::string start, end, level, sub_event, kind = "round_robin", komi = "7.5",
                                            time_class, rules = "chinese";
  bool points_first = false, no_shared = false, lower_group = false;
};

// Fills args->event from the flags; returns "" or the usage error.
std::string BuildEvent(CreateArgs& a) {
  v1::Event& e = a.event;
  if (!SetDate(a.start, e.mutable_start())) return "--start must be YYYY-MM-DD";
  if (!a.end.empty() && !SetDate(a.end, e.mutable_end())) return "--end must be YYYY-MM-DD";
  if (a.end.empty()) *e.mutable_end() = e.start();
  v1::EventLevel level;
  if (!ParseCode(a.level, "EVENT_LEVEL_", &v1::EventLevel_Parse, &level)) {
    return "--level must be world, continental, national, provincial, city or club";
  }
  e.set_level(level);
  v1::SubEvent sub;
  if (!ParseCode(a.sub_event, "SUB_EVENT_", &v1::SubEvent_Parse, &sub)) {
    return "--sub-event must be men_individual, women_individual, open_individual, men_team, "
           "women_team, open_team, mixed_pairs, mixed_team or other";
  }
  e.set_sub_event(sub);
  v1::FormatKind kind;
  if (!ParseCode(a.kind, "FORMAT_KIND_", &v1::FormatKind_Parse, &kind)) {
    return "--format must be round_robin, swiss, knockout, team_round_robin, team_swiss, "
           "relay or match";
  }
  e.mutable_format()->set_kind(kind);
  if (a.points_first) e.mutable_format()->set_swiss_ranking(v1::SWISS_RANKING_POINTS_FIRST);
  int komi = 0;
  if (!KomiX2(a.komi, &komi)) return "--komi must be a multiple of 0.5 (7.5, 0.5, 6.5)";
  e.mutable_rules()->set_komi_x2(komi);
  e.mutable_rules()->set_handicap_policy(v1::HANDICAP_POLICY_EVEN);
  e.mutable_rules()->set_handicap_reduction(9);
  if (a.rules == "chinese") e.mutable_rules()->set_rule_set(v1::RULE_SET_CHINESE);
  else if (a.rules == "japanese") e.mutable_rules()->set_rule_set(v1::RULE_SET_JAPANESE_KOREAN);
  else return "--rules must be chinese or japanese";
  if (!a.time_class.empty()) {
    v1::TimeClass tc;
    if (!ParseCode(a.time_class, "TIME_CLASS_", &v1::TimeClass_Parse, &tc)) {
      return "--time-class must be A, B, C, D or X";
    }
    e.mutable_time()->set_time_class(tc);
  }
  e.set_shared_places_allowed(!a.no_shared);
  e.set_highest_group(!a.lower_group);
  return "";
}

void AddCreate(CLI::App* event, CliContext& ctx, Action& action) {
  auto* create = event->add_subcommand("create", "create an event (national admin or "
                                                 "an operator of the organising agency)");
  auto a = std::make_shared<CreateArgs>();
  v1::Event& e = a->event;
  v1::Format* f = e.mutable_format();
  create->add_option("--name", *e.mutable_name(), "event name")->required();
  create->add_option("--organiser", *e.mutable_organiser_prefix(),
                     "organising agency's prefix (000 national)")->required();
  create->add_option("--start", a->start, "first day YYYY-MM-DD")->required();
  create->add_option("--end", a->end, "last day (default: --start)");
  create->add_option("--competition", *e.mutable_competition(),
                     "catalogue code (rankctl event competitions)");
  create->add_option("--group", *e.mutable_group(), "catalogue group code (pro_a, amateur, ...)");
  create->add_flag("--lower-group", a->lower_group,
                   "this is not the highest group of a multi-group event");
  create->add_option("--level", a->level, "world|continental|national|provincial|city|club")
      ->required();
  create->add_option("--sub-event", a->sub_event, "men_individual, open_team, mixed_pairs, ...")
      ->required();
  create->add_option("--format", a->kind, "round_robin|swiss|knockout|team_round_robin|"
                                          "team_swiss|relay|match")->capture_default_str();
  const auto int_flag = [&](const char* flag, void (v1::Format::*set)(int32_t),
                            const char* help) {
    create->add_option_function<int32_t>(
        flag, [f, set](int32_t v) { (f->*set)(v); }, help);
  };
  int_flag("--rounds", &v1::Format::set_rounds, "Swiss rounds R");
  int_flag("--cycles", &v1::Format::set_cycles, "round robin: 1 single, 2 double");
  int_flag("--lives", &v1::Format::set_lives, "knockout: losses that eliminate");
  int_flag("--boards", &v1::Format::set_boards, "team formats: boards per match");
  int_flag("--best-of", &v1::Format::set_best_of, "match: games scheduled");
  create->add_flag("--points-first", a->points_first, "Swiss: points first, total as tiebreak");
  create->add_option("--komi", a->komi, "komi in points")->capture_default_str();
  create->add_option("--rules", a->rules, "chinese|japanese")->capture_default_str();
  create->add_option("--time-class", a->time_class, "EGF time class A|B|C|D|X");
  create->add_flag("--no-shared-places", a->no_shared,
                   "equal players are separated by play-off or lots");
  create->add_option("--country", *e.mutable_country(), "ISO country code");
  create->add_option("--city", *e.mutable_city(), "city");
  create->callback([&, a] {
    action = [&, a]() -> int {
      const std::string error = BuildEvent(*a);
      if (!error.empty()) return CliContext::Usage(error);
      v1::CreateEventRequest req;
      *req.mutable_event() = a->event;
      return Unary<v1::TournamentService, v1::CreateEventResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.CreateEvent(c, req, resp); },
          [](const auto& resp) { PrintEvent(resp.event()); });
    };
  });
}

// A subcommand taking one positional event id.
CLI::App* WithEventId(CLI::App* parent, const char* name, const char* help,
                      std::shared_ptr<int64_t> id) {
  auto* cmd = parent->add_subcommand(name, help);
  cmd->add_option("event", *id, "event id")->required();
  return cmd;
}

void AddReads(CLI::App* event, CliContext& ctx, Action& action) {
  auto* comps = event->add_subcommand("competitions", "the competition catalogue (public)");
  comps->callback([&] {
    action = [&]() -> int {
      v1::ListCompetitionsRequest req;
      return Unary<v1::TournamentService, v1::ListCompetitionsResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.ListCompetitions(c, req, resp); },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {{"CODE", "LEVEL", "GROUPS", "NAME"}};
            for (const auto& c : resp.competitions()) {
              std::string groups;
              for (const auto& g : c.groups()) groups += (groups.empty() ? "" : ",") + g;
              rows.push_back({c.code(), Level(c.level()), groups.empty() ? "-" : groups,
                              c.name_en() + " " + c.name_zh()});
            }
            PrintTable(rows);
          });
    };
  });

  auto gid = std::make_shared<int64_t>(0);
  WithEventId(event, "get", "show an event (public)", gid)->callback([&, gid] {
    action = [&, gid]() -> int {
      v1::GetEventRequest req;
      req.set_event_id(*gid);
      return Unary<v1::TournamentService, v1::GetEventResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.GetEvent(c, req, resp); },
          [](const auto& resp) { PrintEvent(resp.event()); });
    };
  });

  auto* list = event->add_subcommand("list", "list events (public)");
  auto lr = std::make_shared<v1::ListEventsRequest>();
  auto from = std::make_shared<std::string>(), to = std::make_shared<std::string>();
  list->add_option("--organiser", *lr->mutable_organiser_prefix(), "organising agency prefix");
  list->add_option("--competition", *lr->mutable_competition(), "catalogue code");
  list->add_option("--from", *from, "starting on or after YYYY-MM-DD");
  list->add_option("--to", *to, "starting on or before YYYY-MM-DD");
  list->callback([&, lr, from, to] {
    action = [&, lr, from, to]() -> int {
      if (!from->empty() && !SetDate(*from, lr->mutable_starts_on_or_after())) return kExitUsage;
      if (!to->empty() && !SetDate(*to, lr->mutable_starts_on_or_before())) return kExitUsage;
      return Unary<v1::TournamentService, v1::ListEventsResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.ListEvents(c, *lr, resp); },
          [](const auto& resp) { PrintEvents(resp.events()); });
    };
  });

  auto sid = std::make_shared<int64_t>(0);
  WithEventId(event, "standings", "standings with every criterion (public)", sid)
      ->callback([&, sid] {
        action = [&, sid]() -> int {
          v1::GetStandingsRequest req;
          req.set_event_id(*sid);
          return Unary<v1::TournamentService, v1::GetStandingsResponse>(
              ctx, [&](auto& s, auto* c, auto* resp) { return s.GetStandings(c, req, resp); },
              [](const auto& resp) { PrintStandings(resp.standings()); });
        };
      });

  auto eid = std::make_shared<int64_t>(0);
  auto efmt = std::make_shared<std::string>("egf");
  auto* exp = WithEventId(event, "export", "write the results as an EGF or CSV file (public)",
                          eid);
  exp->add_option("--format", *efmt, "egf|csv")->capture_default_str();
  exp->callback([&, eid, efmt] {
    action = [&, eid, efmt]() -> int {
      v1::ExportResultsRequest req;
      req.set_event_id(*eid);
      v1::ResultFileFormat f;
      if (!SetFileFormat(*efmt, &f)) return CliContext::Usage("--format must be egf or csv");
      req.set_format(f);
      return Unary<v1::TournamentService, v1::ExportResultsResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.ExportResults(c, req, resp); },
          [](const auto& resp) { std::cout << resp.content(); });
    };
  });
}

void AddWrites(CLI::App* event, CliContext& ctx, Action& action) {
  auto* imp = event->add_subcommand(
      "import", "replace an event's results with an EGF or CSV file (checked whole first)");
  auto file = std::make_shared<std::string>();
  auto ifmt = std::make_shared<std::string>("egf");
  auto iid = std::make_shared<int64_t>(0);
  auto dry = std::make_shared<bool>(false);
  imp->add_option("file", *file, "result file")->required();
  imp->add_option("--format", *ifmt, "egf|csv")->capture_default_str();
  imp->add_option("--event", *iid, "event id to import into");
  imp->add_flag("--dry-run", *dry, "only check the file; store nothing");
  imp->callback([&, file, ifmt, iid, dry] {
    action = [&, file, ifmt, iid, dry]() -> int {
      if ((*iid == 0) != *dry) return CliContext::Usage("give --event ID or --dry-run");
      v1::ImportResultsRequest req;
      req.set_event_id(*iid);
      v1::ResultFileFormat f;
      if (!SetFileFormat(*ifmt, &f)) return CliContext::Usage("--format must be egf or csv");
      req.set_format(f);
      if (!ReadWholeFile(*file, req.mutable_content())) {
        return CliContext::Usage("cannot read " + *file);
      }
      return Unary<v1::TournamentService, v1::ImportResultsResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.ImportResults(c, req, resp); },
          [](const auto& resp) {
            std::cout << (resp.event().name().empty() ? "(no name)" : resp.event().name())
                      << ": " << resp.results().entrants_size() << " players, "
                      << resp.results().games_size() << " games, "
                      << resp.results().byes_size() << " byes\n";
          });
    };
  });

  auto* res = event->add_subcommand("result", "record (or correct) one round's games and byes");
  auto rr = std::make_shared<v1::RecordRoundRequest>();
  auto games = std::make_shared<std::vector<std::string>>();
  auto byes = std::make_shared<std::vector<std::string>>();
  res->add_option_function<int64_t>(
         "event", [rr](int64_t v) { rr->set_event_id(v); }, "event id")
      ->required();
  res->add_option_function<int32_t>(
         "--round", [rr](int32_t v) { rr->set_round(v); }, "round number")
      ->required();
  res->add_option("--game", *games,
                  "BLACK-WHITE:b|w|d|x|?[!][,hN][,kKOMI][,wbN][,wwN] (x: both lose, "
                  "!: forfeit, h handicap, k komi, wb/ww warnings)");
  res->add_option("--bye", *byes, "ENTRANT[:POINTS] (points 2 by default)");
  res->callback([&, rr, games, byes] {
    action = [&, rr, games, byes]() -> int {
      for (const std::string& spec : *games) {
        std::string error;
        if (!ParseGame(spec, rr->round(), rr->add_games(), &error)) {
          return CliContext::Usage(error);
        }
      }
      for (const std::string& spec : *byes) {
        const size_t colon = spec.find(':');
        const std::string_view text(spec);
        int32_t entrant = 0;
        int32_t points = 2;
        if (!ParseDecimal(text.substr(0, colon), &entrant) ||
            (colon != std::string::npos &&
             !ParseDecimal(text.substr(colon + 1), &points))) {
          return CliContext::Usage("--bye '" + spec +
                                   "': expected ENTRANT[:POINTS]");
        }
        v1::Bye* b = rr->add_byes();
        b->set_round(rr->round());
        b->set_entrant_id(entrant);
        b->set_points(points);
      }
      return Unary<v1::TournamentService, v1::RecordRoundResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.RecordRound(c, *rr, resp); },
          [](const auto& resp) { PrintStandings(resp.standings()); });
    };
  });

  auto cid = std::make_shared<int64_t>(0);
  WithEventId(event, "close", "close an event: its results become final", cid)
      ->callback([&, cid] {
        action = [&, cid]() -> int {
          v1::CloseEventRequest req;
          req.set_event_id(*cid);
          return Unary<v1::TournamentService, v1::CloseEventResponse>(
              ctx, [&](auto& s, auto* c, auto* resp) { return s.CloseEvent(c, req, resp); },
              [](const auto& resp) {
                std::cout << "event " << resp.event().id() << " closed\n";
                PrintStandings(resp.standings());
              });
        };
      });
}

std::string GrantBasis(const v1::GradeBasis& b) {
  if (b.has_placing()) {
    const auto& p = b.placing();
    return p.event_name() + " (event " + std::to_string(p.event_id()) + "), place " +
           std::to_string(p.place()) + (p.shared() ? "=" : "") + " of " +
           std::to_string(p.entrants_played());
  }
  if (b.has_certificate()) {
    return "certificate " + b.certificate().number() + " " + RankText(b.certificate().rank());
  }
  return "-";
}

void AddGradeCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* grade = app.add_subcommand("grade", "athlete technical grades (public)");
  grade->require_subcommand(1);
  auto pid = std::make_shared<int64_t>(0);
  auto* player = grade->add_subcommand("player", "grades a registered player may apply for");
  player->add_option("player", *pid, "player id")->required();
  player->callback([&, pid] {
    action = [&, pid]() -> int {
      v1::EvaluatePlayerRequest req;
      req.set_player_id(*pid);
      return Unary<v1::EligibilityService, v1::EvaluatePlayerResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.EvaluatePlayer(c, req, resp); },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {{"GRADE", "CLAUSE", "BASIS"}};
            for (const auto& g : resp.grants()) {
              rows.push_back({g.grade_name_en() + " " + g.grade_name_zh(), g.clause(),
                              GrantBasis(g.basis())});
            }
            PrintTable(rows);
            for (const auto& m : resp.near_misses()) {
              std::cout << "near miss: " << GrantBasis(m.basis()) << ": " << m.reason() << "\n";
            }
          });
    };
  });
  auto eid = std::make_shared<int64_t>(0);
  auto* event = grade->add_subcommand("event", "every entrant of an event who qualifies");
  event->add_option("event", *eid, "event id")->required();
  event->callback([&, eid] {
    action = [&, eid]() -> int {
      v1::EvaluateEventRequest req;
      req.set_event_id(*eid);
      return Unary<v1::EligibilityService, v1::EvaluateEventResponse>(
          ctx, [&](auto& s, auto* c, auto* resp) { return s.EvaluateEvent(c, req, resp); },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {{"PLACE", "ID", "NAME", "GRADES"}};
            for (const auto& q : resp.qualifying()) {
              std::string grades;
              for (const auto& g : q.grants()) {
                grades += (grades.empty() ? "" : ", ") + g.grade_name_en() + " (" + g.clause() +
                          ")";
              }
              rows.push_back({std::to_string(q.place()), std::to_string(q.id()), q.name(),
                              grades});
            }
            PrintTable(rows);
            for (const auto& b : resp.blockers()) std::cout << "note: " << b << "\n";
          });
    };
  });
}

}  // namespace

void AddEventCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* event = app.add_subcommand("event", "tournaments: events, results, standings, files");
  event->require_subcommand(1);
  AddCreate(event, ctx, action);
  AddReads(event, ctx, action);
  AddWrites(event, ctx, action);
  AddGradeCommands(app, ctx, action);
}

}  // namespace gorank::cli
