// rankctl event ... (tournaments) and rankctl grade ... (athlete grades, which
// read the results recorded here). Over 500 lines: the event subcommands and
// their small text parsers (games, komi, enum codes) belong together.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gorank/v1/eligibility.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/integer_args.h"
#include "services/cli/office_file.h"
#include "services/cli/unary.h"

namespace gorank::cli {
namespace {

// "swiss" -> FORMAT_KIND_SWISS through the enum's generated parser.
template <typename E>
bool ParseCode(const std::string& code, const std::string& prefix,
               bool (*parse)(const std::string&, E*), E* out) {
  std::string name = prefix;
  for (char c : code)
    name.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(c)));
  return parse(name, out) && static_cast<int>(*out) != 0;
}

// FORMAT_KIND_SWISS -> "swiss".
std::string CodeText(const std::string& name, size_t prefix_len) {
  std::string out;
  for (char c : name.substr(prefix_len))
    out.push_back(static_cast<char>(std::tolower(c)));
  return out == "unspecified" ? "-" : out;
}

std::string Level(v1::EventLevel l) {
  return CodeText(v1::EventLevel_Name(l), 12);
}
std::string SubEvent(v1::SubEvent s) {
  return CodeText(v1::SubEvent_Name(s), 10);
}
std::string Kind(v1::FormatKind k) {
  return CodeText(v1::FormatKind_Name(k), 12);
}

// "family given", without the space for Chinese names ("张三"), as the
// server writes standings names.
std::string EntrantName(const std::string& family, const std::string& given) {
  if (given.empty()) return family;
  const bool cjk = !family.empty() &&
                   static_cast<unsigned char>(family.back()) >= 0x80 &&
                   static_cast<unsigned char>(given.front()) >= 0x80;
  return family + (cjk ? "" : " ") + given;
}

std::string KomiText(int komi_x2) {
  std::string s = std::to_string(komi_x2 / 2);
  if (komi_x2 % 2 != 0)
    s = (komi_x2 < 0 && komi_x2 / 2 == 0 ? "-" : "") + s + ".5";
  return s;
}

// "mcmahon, bar 3d, floor 20k, same club avoided in rounds 1-2, handicap
// rank difference - 1 (at most 9), seed 123"; "-" for a non-Swiss event.
std::string PairingText(const v1::Event& e) {
  if (e.format().kind() != v1::FORMAT_KIND_SWISS) return "-";
  const v1::PairingSettings& p = e.pairing();
  std::string out =
      p.system() == v1::PAIRING_SYSTEM_MCMAHON ? "mcmahon" : "swiss";
  if (p.has_mcmahon_bar()) out += ", bar " + RankText(p.mcmahon_bar());
  if (p.has_mcmahon_floor()) out += ", floor " + RankText(p.mcmahon_floor());
  if (p.same_club_rounds() > 0) {
    out += ", same club avoided in rounds 1-" +
           std::to_string(p.same_club_rounds());
  }
  if (e.rules().handicap_policy() == v1::HANDICAP_POLICY_RANK_DIFFERENCE) {
    out += ", handicap rank difference - " +
           std::to_string(e.rules().handicap_reduction()) + " (at most " +
           std::to_string(p.max_handicap() == 0 ? 9 : p.max_handicap()) + ")";
  }
  if (p.first_round_by_lot()) out += ", round 1 by lot";
  return out + ", seed " + std::to_string(p.seed());
}

void PrintEvent(const v1::Event& e) {
  const v1::Format& f = e.format();
  std::string format = Kind(f.kind());
  if (f.rounds() > 0) format += ", " + std::to_string(f.rounds()) + " rounds";
  if (f.boards() > 0) format += ", " + std::to_string(f.boards()) + " boards";
  PrintTable(
      {{"id", std::to_string(e.id())},
       {"name", e.name()},
       {"dates", DateText(e.start()) + " .. " + DateText(e.end())},
       {"organiser", e.organiser_prefix()},
       {"place", e.city() + (e.country().empty() ? "" : ", " + e.country())},
       {"competition",
        e.competition() + (e.group().empty() ? "" : " / " + e.group()) +
            (e.highest_group() ? "" : " (not the highest group)")},
       {"level", Level(e.level())},
       {"sub-event", SubEvent(e.sub_event())},
       {"format", format},
       {"komi", KomiText(e.rules().komi_x2())},
       {"shared places",
        e.shared_places_allowed() ? "allowed" : "no (play-off/lots)"},
       {"pairing", PairingText(e)},
       {"state", e.closed() ? "closed" : "open"}});
}

void PrintEvents(const google::protobuf::RepeatedPtrField<v1::Event>& events) {
  std::vector<std::vector<std::string>> rows = {
      {"ID", "START", "ORGANISER", "COMPETITION", "FORMAT", "STATE", "NAME"}};
  for (const auto& e : events) {
    rows.push_back({std::to_string(e.id()), DateText(e.start()),
                    e.organiser_prefix(), e.competition(),
                    Kind(e.format().kind()), e.closed() ? "closed" : "open",
                    e.name()});
  }
  PrintTable(rows);
}

// Team events: every match with board and match points; relays: every
// player's games won and who is still in.
void PrintTeamDetails(const v1::Standings& s) {
  if (s.matches_size() > 0) {
    std::vector<std::vector<std::string>> rows = {
        {"ROUND", "TEAMS", "BOARD POINTS", "MATCH POINTS"}};
    for (const auto& m : s.matches()) {
      rows.push_back(
          {m.round() >= 1 ? std::to_string(m.round()) : "forfeit",
           std::to_string(m.team_a()) + " v " + std::to_string(m.team_b()),
           std::to_string(m.board_points_a()) + "-" +
               std::to_string(m.board_points_b()),
           std::to_string(m.match_points_a()) + "-" +
               std::to_string(m.match_points_b())});
    }
    std::cout << "matches:\n";
    PrintTable(rows);
  }
  if (s.relay_players_size() > 0) {
    std::vector<std::vector<std::string>> rows = {
        {"TEAM", "ID", "NAME", "GAMES WON", "PLAYED", "STATUS"}};
    for (const auto& p : s.relay_players()) {
      rows.push_back(
          {std::to_string(p.team_id()), std::to_string(p.entrant_id()),
           p.name(), std::to_string(p.games_won()),
           std::to_string(p.games_played()),
           p.left_after_game() > 0
               ? "left after game " + std::to_string(p.left_after_game())
               : "still in"});
    }
    std::cout << "relay players:\n";
    PrintTable(rows);
  }
}

void PrintStandings(const v1::Standings& s) {
  if (s.status() == v1::STANDINGS_STATUS_PENDING_RESULTS) {
    std::cout << "pending results: " << s.pending_reason() << "\n";
    PrintTeamDetails(s);
    return;
  }
  std::vector<std::string> header = {"PLACE", s.teams() ? "TEAM" : "ID",
                                     "NAME"};
  for (const auto& n : s.criteria_names()) header.push_back(n);
  header.push_back("NOTE");
  std::vector<std::vector<std::string>> rows = {header};
  for (const auto& r : s.rows()) {
    std::vector<std::string> row = {r.place_label(), std::to_string(r.id()),
                                    r.name()};
    for (const auto& c : r.criteria()) row.push_back(c.display());
    row.push_back(r.note());
    rows.push_back(row);
  }
  PrintTable(rows);
  if (s.status() == v1::STANDINGS_STATUS_PENDING_PLAYOFF) {
    std::cout << "pending play-off: " << s.pending_reason() << "\n";
  }
  std::cout << s.entrants_played() << " played over the board\n";
  PrintTeamDetails(s);
}

// A criterion as a number: whole, halves as decimals, anything else (SOS
// over thirds) as a fraction Excel shows like the display ("2 1/3").
Cell CriterionCell(const v1::CriterionValue& v) {
  if (v.denominator() == 0) return Cell::Text(v.display());
  const double value =
      static_cast<double>(v.numerator()) / static_cast<double>(v.denominator());
  const bool decimal =
      v.denominator() == 1 || v.denominator() == 2 || v.denominator() == 4;
  return Cell::Number(value, v.display(), decimal ? "" : "# ?/?");
}

Cell CountCell(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), ::isdigit)
             ? Cell::Number(std::stod(text), text)
             : Cell::Text(text);
}

// The standings table of `event standings --out` (place, id, name, every
// criterion, note); an .xlsx also gets the team matches and relay players.
std::vector<Sheet> StandingsSheets(const v1::Standings& s) {
  Sheet table{"standings", {"place", s.teams() ? "team" : "id", "name"}, {}};
  for (const auto& n : s.criteria_names()) table.header.push_back(n);
  table.header.push_back("note");
  for (const auto& r : s.rows()) {
    std::vector<Cell> row = {CountCell(r.place_label()), Cell::Int(r.id()),
                             Cell::Text(r.name())};
    for (const auto& c : r.criteria()) row.push_back(CriterionCell(c));
    row.push_back(Cell::Text(r.note()));
    table.rows.push_back(std::move(row));
  }
  std::vector<Sheet> sheets = {std::move(table)};
  if (s.matches_size() > 0) {
    Sheet m{"matches",
            {"round", "team_a", "team_b", "board_points_a", "board_points_b",
             "match_points_a", "match_points_b"},
            {}};
    for (const auto& x : s.matches()) {
      m.rows.push_back(
          {x.round() >= 1 ? Cell::Int(x.round()) : Cell::Text("forfeit"),
           Cell::Int(x.team_a()), Cell::Int(x.team_b()),
           Cell::Int(x.board_points_a()), Cell::Int(x.board_points_b()),
           Cell::Int(x.match_points_a()), Cell::Int(x.match_points_b())});
    }
    sheets.push_back(std::move(m));
  }
  if (s.relay_players_size() > 0) {
    Sheet p{
        "relay players",
        {"team", "id", "name", "games_won", "games_played", "left_after_game"},
        {}};
    for (const auto& x : s.relay_players()) {
      p.rows.push_back({Cell::Int(x.team_id()), Cell::Int(x.entrant_id()),
                        Cell::Text(x.name()), Cell::Int(x.games_won()),
                        Cell::Int(x.games_played()),
                        x.left_after_game() > 0 ? Cell::Int(x.left_after_game())
                                                : Cell::Text("")});
    }
    sheets.push_back(std::move(p));
  }
  return sheets;
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
  if (text == "egf")
    *out = v1::RESULT_FILE_FORMAT_EGF;
  else if (text == "csv")
    *out = v1::RESULT_FILE_FORMAT_CSV;
  else
    return false;
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
// wins), w, d (draw), x (both lose) or ? (unknown), in either case; '!'
// marks a forfeit. With `white_first` the pair reads WHITE-BLACK (score
// sheets that list white first); the result letters keep their colours.
bool ParseGame(const std::string& spec, int round, v1::Game* g,
               std::string* error, bool white_first = false) {
  std::vector<std::string> parts;
  std::stringstream ss(spec);
  for (std::string p; std::getline(ss, p, ',');) parts.push_back(p);
  int black = 0, white = 0;
  char result = 0;
  char bang = 0;
  const int n = parts.empty() ? 0
                              : std::sscanf(parts[0].c_str(), "%d-%d:%c%c",
                                            &black, &white, &result, &bang);
  if (n < 3 || (n == 4 && bang != '!')) {
    *error = "--game '" + spec + "': expected BLACK-WHITE:b|w|d|x|?[!]";
    return false;
  }
  if (white_first) std::swap(black, white);
  g->set_round(round);
  g->set_black_entrant_id(black);
  g->set_white_entrant_id(white);
  g->set_colours_known(true);
  g->set_kind(v1::GAME_KIND_REGULAR);
  g->set_forfeit(n == 4);
  switch (std::tolower(static_cast<unsigned char>(result))) {
    case 'b':
      g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
      break;
    case 'w':
      g->set_outcome(v1::GAME_OUTCOME_WHITE_WINS);
      break;
    case 'd':
      g->set_outcome(v1::GAME_OUTCOME_DRAW);
      break;
    case 'x':
      g->set_outcome(v1::GAME_OUTCOME_BOTH_LOSE);
      break;
    case '?':
      g->set_outcome(v1::GAME_OUTCOME_UNSPECIFIED);
      break;
    default:
      *error = "--game '" + spec +
               "': result must be b (black wins), w (white wins), d, x or ?";
      return false;
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
      *error = "--game '" + spec + "': unknown part '" + p +
               "' (hN, kKOMI, wbN, wwN)";
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
  // Swiss pairing (PairingSettings): swiss|mcmahon, bar and floor ranks,
  // handicap reduction (given: handicap games by rank difference).
  std::string pairing = "swiss", bar, floor;
  int32_t handicap_reduction = -1;
};

// Fills args->event from the flags; returns "" or the usage error.
std::string BuildEvent(CreateArgs& a) {
  v1::Event& e = a.event;
  if (!SetDate(a.start, e.mutable_start())) return "--start must be YYYY-MM-DD";
  if (!a.end.empty() && !SetDate(a.end, e.mutable_end()))
    return "--end must be YYYY-MM-DD";
  if (a.end.empty()) *e.mutable_end() = e.start();
  v1::EventLevel level;
  if (!ParseCode(a.level, "EVENT_LEVEL_", &v1::EventLevel_Parse, &level)) {
    return "--level must be world, continental, national, provincial, city or "
           "club";
  }
  e.set_level(level);
  v1::SubEvent sub;
  if (!ParseCode(a.sub_event, "SUB_EVENT_", &v1::SubEvent_Parse, &sub)) {
    return "--sub-event must be men_individual, women_individual, "
           "open_individual, men_team, "
           "women_team, open_team, mixed_pairs, mixed_team or other";
  }
  e.set_sub_event(sub);
  v1::FormatKind kind;
  if (!ParseCode(a.kind, "FORMAT_KIND_", &v1::FormatKind_Parse, &kind)) {
    return "--format must be round_robin, swiss, knockout, team_round_robin, "
           "team_swiss, "
           "relay or match";
  }
  e.mutable_format()->set_kind(kind);
  if (a.points_first)
    e.mutable_format()->set_swiss_ranking(v1::SWISS_RANKING_POINTS_FIRST);
  int komi = 0;
  if (!KomiX2(a.komi, &komi))
    return "--komi must be a multiple of 0.5 (7.5, 0.5, 6.5)";
  e.mutable_rules()->set_komi_x2(komi);
  e.mutable_rules()->set_handicap_policy(v1::HANDICAP_POLICY_EVEN);
  e.mutable_rules()->set_handicap_reduction(9);
  if (a.rules == "chinese")
    e.mutable_rules()->set_rule_set(v1::RULE_SET_CHINESE);
  else if (a.rules == "japanese")
    e.mutable_rules()->set_rule_set(v1::RULE_SET_JAPANESE_KOREAN);
  else
    return "--rules must be chinese or japanese";
  if (!a.time_class.empty()) {
    v1::TimeClass tc;
    if (!ParseCode(a.time_class, "TIME_CLASS_", &v1::TimeClass_Parse, &tc)) {
      return "--time-class must be A, B, C, D or X";
    }
    e.mutable_time()->set_time_class(tc);
  }
  e.set_shared_places_allowed(!a.no_shared);
  e.set_highest_group(!a.lower_group);
  v1::PairingSettings* p = e.mutable_pairing();
  if (a.pairing == "mcmahon")
    p->set_system(v1::PAIRING_SYSTEM_MCMAHON);
  else if (a.pairing != "swiss")
    return "--pairing must be swiss or mcmahon";
  if (!a.bar.empty()) SetRank(a.bar, p->mutable_mcmahon_bar());
  if (!a.floor.empty()) SetRank(a.floor, p->mutable_mcmahon_floor());
  if (a.handicap_reduction >= 0) {
    e.mutable_rules()->set_handicap_policy(v1::HANDICAP_POLICY_RANK_DIFFERENCE);
    e.mutable_rules()->set_handicap_reduction(a.handicap_reduction);
  }
  return "";
}

void AddCreate(CLI::App* event, CliContext& ctx, Action& action) {
  auto* create = event->add_subcommand("create",
                                       "create an event (national admin or "
                                       "an operator of the organising agency)");
  auto a = std::make_shared<CreateArgs>();
  v1::Event& e = a->event;
  v1::Format* f = e.mutable_format();
  create->add_option("--name", *e.mutable_name(), "event name")->required();
  create
      ->add_option("--organiser", *e.mutable_organiser_prefix(),
                   "organising agency's prefix (000 national)")
      ->required();
  create->add_option("--start", a->start, "first day YYYY-MM-DD")->required();
  create->add_option("--end", a->end, "last day (default: --start)");
  create->add_option("--competition", *e.mutable_competition(),
                     "catalogue code (rankctl event competitions)");
  create->add_option("--group", *e.mutable_group(),
                     "catalogue group code (pro_a, amateur, ...)");
  create->add_flag("--lower-group", a->lower_group,
                   "this is not the highest group of a multi-group event");
  create
      ->add_option("--level", a->level,
                   "world|continental|national|provincial|city|club")
      ->required();
  create
      ->add_option("--sub-event", a->sub_event,
                   "men_individual, open_team, mixed_pairs, ...")
      ->required();
  create
      ->add_option("--format", a->kind,
                   "round_robin|swiss|knockout|team_round_robin|"
                   "team_swiss|relay|match")
      ->capture_default_str();
  const auto int_flag = [&](const char* flag, void (v1::Format::*set)(int32_t),
                            const char* help) {
    create->add_option_function<int32_t>(
        flag, [f, set](int32_t v) { (f->*set)(v); }, help);
  };
  int_flag("--rounds", &v1::Format::set_rounds, "Swiss rounds R");
  int_flag("--cycles", &v1::Format::set_cycles,
           "round robin: 1 single, 2 double");
  int_flag("--lives", &v1::Format::set_lives,
           "knockout: losses that eliminate");
  int_flag("--boards", &v1::Format::set_boards,
           "team formats: boards per match");
  int_flag("--best-of", &v1::Format::set_best_of, "match: games scheduled");
  create->add_flag("--points-first", a->points_first,
                   "Swiss: points first, total as tiebreak");
  create->add_option("--komi", a->komi, "komi in points")
      ->capture_default_str();
  create->add_option("--rules", a->rules, "chinese|japanese")
      ->capture_default_str();
  create->add_option("--time-class", a->time_class, "EGF time class A|B|C|D|X");
  create->add_flag("--no-shared-places", a->no_shared,
                   "equal players are separated by play-off or lots");
  v1::PairingSettings* p = e.mutable_pairing();
  create
      ->add_option("--pairing", a->pairing,
                   "Swiss events: how rankctl event pair pairs them, "
                   "swiss (by score) or mcmahon (by McMahon score)")
      ->capture_default_str();
  create->add_option("--mcmahon-bar", a->bar,
                     "McMahon: every player at or above this rank starts "
                     "equal (e.g. 3d)");
  create->add_option("--mcmahon-floor", a->floor,
                     "McMahon: every player at or below this rank starts "
                     "equal (e.g. 20k)");
  create->add_option_function<int32_t>(
      "--same-club-rounds", [p](int32_t v) { p->set_same_club_rounds(v); },
      "pairing: players of one club (else country) avoid each other in "
      "rounds 1..N when the score groups allow (default 0: never)");
  create->add_option_function<int32_t>(
      "--max-handicap", [p](int32_t v) { p->set_max_handicap(v); },
      "pairing: at most this many handicap stones (default 9)");
  create->add_flag_function(
      "--first-round-by-lot",
      [p](int64_t n) { p->set_first_round_by_lot(n > 0); },
      "pairing: round 1 by lot instead of by rank");
  create->add_option("--handicap-reduction", a->handicap_reduction,
                     "handicap games: the rank difference minus N stones "
                     "(EGF HA[hN]); default: even games");
  create->add_option("--country", *e.mutable_country(), "ISO country code");
  create->add_option("--city", *e.mutable_city(), "city");
  create->callback([&, a] {
    action = [&, a]() -> int {
      const std::string error = BuildEvent(*a);
      if (!error.empty()) return CliContext::Usage(error);
      v1::CreateEventRequest req;
      *req.mutable_event() = a->event;
      return Unary<v1::TournamentService, v1::CreateEventResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.CreateEvent(c, req, resp);
          },
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

void AddCompetitions(CLI::App* event, CliContext& ctx, Action& action) {
  auto* comps = event->add_subcommand("competitions",
                                      "the competition catalogue (public)");
  comps->callback([&] {
    action = [&]() -> int {
      v1::ListCompetitionsRequest req;
      return Unary<v1::TournamentService, v1::ListCompetitionsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ListCompetitions(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"CODE", "LEVEL", "GROUPS", "NAME"}};
            for (const auto& c : resp.competitions()) {
              std::string groups;
              for (const auto& g : c.groups())
                groups += (groups.empty() ? "" : ",") + g;
              rows.push_back({c.code(), Level(c.level()),
                              groups.empty() ? "-" : groups,
                              c.name_en() + " " + c.name_zh()});
            }
            PrintTable(rows);
          });
    };
  });
}

void AddGet(CLI::App* event, CliContext& ctx, Action& action) {
  auto gid = std::make_shared<int64_t>(0);
  WithEventId(event, "get", "show an event (public)", gid)->callback([&, gid] {
    action = [&, gid]() -> int {
      v1::GetEventRequest req;
      req.set_event_id(*gid);
      return Unary<v1::TournamentService, v1::GetEventResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetEvent(c, req, resp);
          },
          [](const auto& resp) { PrintEvent(resp.event()); });
    };
  });
}

void AddList(CLI::App* event, CliContext& ctx, Action& action) {
  auto* list = event->add_subcommand("list", "list events (public)");
  auto lr = std::make_shared<v1::ListEventsRequest>();
  auto from = std::make_shared<std::string>(),
       to = std::make_shared<std::string>();
  list->add_option("--organiser", *lr->mutable_organiser_prefix(),
                   "organising agency prefix");
  list->add_option("--competition", *lr->mutable_competition(),
                   "catalogue code");
  list->add_option("--from", *from, "starting on or after YYYY-MM-DD");
  list->add_option("--to", *to, "starting on or before YYYY-MM-DD");
  list->callback([&, lr, from, to] {
    action = [&, lr, from, to]() -> int {
      if (!from->empty() && !SetDate(*from, lr->mutable_starts_on_or_after()))
        return kExitUsage;
      if (!to->empty() && !SetDate(*to, lr->mutable_starts_on_or_before()))
        return kExitUsage;
      return AllPages<v1::TournamentService, v1::ListEventsRequest,
                      v1::ListEventsResponse>(
          ctx, *lr,
          [&](auto& s, auto* c, const auto& req, auto* resp) {
            return s.ListEvents(c, req, resp);
          },
          [](const auto& resp) { PrintEvents(resp.events()); });
    };
  });
}

void AddStandings(CLI::App* event, CliContext& ctx, Action& action) {
  auto sid = std::make_shared<int64_t>(0);
  auto sout = std::make_shared<std::string>();
  auto* standings = WithEventId(event, "standings",
                                "standings with every criterion (public)", sid);
  standings->add_option(
      "--out", *sout,
      "also write them to FILE: an Excel workbook when it ends in .xlsx "
      "(team formats: the matches and relay players on sheets of their own), "
      "else CSV (UTF-8 with BOM)");
  standings->callback([&, sid, sout] {
    action = [&, sid, sout]() -> int {
      v1::GetStandingsRequest req;
      req.set_event_id(*sid);
      return UnaryFirst<v1::TournamentService, v1::GetStandingsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetStandings(c, req, resp);
          },
          [&](const auto& resp) {
            if (sout->empty()) return kExitOk;
            const std::string error =
                WriteOfficeFile(*sout, StandingsSheets(resp.standings()));
            return error.empty() ? kExitOk : CliContext::Usage(error);
          },
          [&](const auto& resp) {
            PrintStandings(resp.standings());
            if (!sout->empty())
              std::cout << "wrote the standings to " << *sout << "\n";
          });
    };
  });
}

void AddExport(CLI::App* event, CliContext& ctx, Action& action) {
  auto eid = std::make_shared<int64_t>(0);
  auto efmt = std::make_shared<std::string>("egf");
  auto* exp = WithEventId(
      event, "export", "write the results as an EGF or CSV file (public)", eid);
  exp->add_option("--format", *efmt, "egf|csv")->capture_default_str();
  exp->callback([&, eid, efmt] {
    action = [&, eid, efmt]() -> int {
      v1::ExportResultsRequest req;
      req.set_event_id(*eid);
      v1::ResultFileFormat f;
      if (!SetFileFormat(*efmt, &f))
        return CliContext::Usage("--format must be egf or csv");
      req.set_format(f);
      return Unary<v1::TournamentService, v1::ExportResultsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ExportResults(c, req, resp);
          },
          [&](const auto& resp) {
            // The CSV is for Excel as much as for `event import` (which takes
            // the BOM); an EGF file goes to programs as written.
            if (f == v1::RESULT_FILE_FORMAT_CSV) std::cout << kUtf8Bom;
            std::cout << resp.content();
          });
    };
  });
}

void AddReads(CLI::App* event, CliContext& ctx, Action& action) {
  AddCompetitions(event, ctx, action);
  AddGet(event, ctx, action);
  AddList(event, ctx, action);
  AddStandings(event, ctx, action);
  AddExport(event, ctx, action);
}

// "3=12" -> {3, 12}; false when not ROW=PLAYER_ID with both positive.
bool RowAndId(const std::string& spec, int32_t* row, int64_t* id) {
  const size_t eq = spec.find('=');
  const std::string_view text(spec);
  return eq != std::string::npos && ParseDecimal(text.substr(0, eq), row) &&
         *row > 0 && ParseDecimal(text.substr(eq + 1), id) && *id > 0;
}

std::string MatchState(v1::RowMatchState s) {
  switch (s) {
    case v1::ROW_MATCH_STATE_FILE_ID:
      return "player id in the file";
    case v1::ROW_MATCH_STATE_MATCHED:
      return "matched";
    case v1::ROW_MATCH_STATE_LINKED:
      return "linked (--link)";
    case v1::ROW_MATCH_STATE_GUEST:
      return "guest";
    case v1::ROW_MATCH_STATE_AMBIGUOUS:
      return "AMBIGUOUS";
    case v1::ROW_MATCH_STATE_UNKNOWN:
      return "UNKNOWN";
    default:
      return "-";
  }
}

// The matching of an import: one row a line, candidates of unresolved rows
// below them.
void PrintMatches(const v1::ImportResultsResponse& resp) {
  std::vector<std::vector<std::string>> rows = {
      {"ROW", "LINE", "NAME", "RANK", "CLUB", "MATCH", "PLAYER"}};
  for (const auto& m : resp.matches()) {
    rows.push_back({std::to_string(m.row()), std::to_string(m.line()), m.name(),
                    m.has_rank() ? RankText(m.rank()) : "-",
                    m.club().empty() ? "-" : m.club(), MatchState(m.state()),
                    m.player_id() > 0 ? std::to_string(m.player_id()) : "-"});
  }
  PrintTable(rows);
  for (const auto& m : resp.matches()) {
    if (m.state() == v1::ROW_MATCH_STATE_FILE_ID ||
        m.state() == v1::ROW_MATCH_STATE_LINKED) {
      // Linked by id although the row says otherwise: shown, for a check.
      for (const auto& c : m.candidates()) {
        if (!c.differs().empty()) {
          std::cout << "row " << m.row() << " " << m.name() << ": player "
                    << c.player_id() << " " << c.differs() << "\n";
        }
      }
    }
    if (m.state() != v1::ROW_MATCH_STATE_AMBIGUOUS &&
        m.state() != v1::ROW_MATCH_STATE_UNKNOWN) {
      continue;
    }
    std::cout << "row " << m.row() << " " << m.name() << ":";
    if (m.candidates().empty())
      std::cout << " no registered player of that name";
    for (const auto& c : m.candidates()) {
      std::cout << "\n  player " << c.player_id() << " " << c.name()
                << (c.latin_name().empty() ? "" : " / " + c.latin_name())
                << ", agency " << c.agency_prefix()
                << (c.has_rank() ? ", " + RankText(c.rank()) : "")
                << (c.differs().empty() ? "" : " (" + c.differs() + ")");
    }
    std::cout << "\n";
  }
  if (resp.unresolved() > 0) {
    std::cout << resp.unresolved()
              << " row(s) unresolved: --link ROW=PLAYER_ID or --guest ROW for "
                 "each, or "
                 "--allow-guests\n";
  }
}

void AddImport(CLI::App* event, CliContext& ctx, Action& action) {
  auto* imp = event->add_subcommand("import",
                                    "replace an event's results with an EGF or "
                                    "CSV file, its rows linked to registered "
                                    "players (checked whole first)");
  auto file = std::make_shared<std::string>();
  auto ifmt = std::make_shared<std::string>("egf");
  auto iid = std::make_shared<int64_t>(0);
  auto dry = std::make_shared<bool>(false);
  auto links = std::make_shared<std::vector<std::string>>();
  auto guests = std::make_shared<std::vector<int32_t>>();
  auto allow_guests = std::make_shared<bool>(false);
  auto withdrawn = std::make_shared<std::vector<std::string>>();
  imp->add_option("file", *file, "result file")->required();
  imp->add_option("--format", *ifmt, "egf|csv")->capture_default_str();
  imp->add_option("--event", *iid, "event id to import into");
  imp->add_flag("--dry-run", *dry,
                "check the file and print how its rows match the registry; "
                "store nothing");
  imp->add_option("--link", *links,
                  "ROW=PLAYER_ID: row ROW of the file (as --dry-run numbers "
                  "them, 1 = the first "
                  "player row) is that registered player");
  imp->add_option("--guest", *guests,
                  "ROW: store that row as a guest (no registered player)");
  imp->add_flag("--allow-guests", *allow_guests,
                "store every row the registry cannot settle as a guest");
  imp->add_option(
      "--withdrawn", *withdrawn,
      "ROW=ROUND: row ROW withdrew after ROUND rounds (0 = before the start); "
      "an EGF file cannot say so (CSV: the withdrawn_after column)");
  imp->callback(
      [&, file, ifmt, iid, dry, links, guests, allow_guests, withdrawn] {
        action = [&, file, ifmt, iid, dry, links, guests, allow_guests,
                  withdrawn]() -> int {
          if (*iid == 0 && !*dry)
            return CliContext::Usage("give --event ID or --dry-run");
          v1::ImportResultsRequest req;
          req.set_event_id(*iid);
          req.set_dry_run(*dry);
          req.set_allow_guests(*allow_guests);
          v1::ResultFileFormat f;
          if (!SetFileFormat(*ifmt, &f))
            return CliContext::Usage("--format must be egf or csv");
          req.set_format(f);
          for (const std::string& spec : *links) {
            int32_t row = 0;
            int64_t id = 0;
            if (!RowAndId(spec, &row, &id)) {
              return CliContext::Usage("--link '" + spec +
                                       "': expected ROW=PLAYER_ID");
            }
            v1::RowResolution* r = req.add_resolutions();
            r->set_row(row);
            r->set_player_id(id);
          }
          for (int32_t row : *guests) {
            v1::RowResolution* r = req.add_resolutions();
            r->set_row(row);
            r->set_guest(true);
          }
          for (const std::string& spec : *withdrawn) {
            const size_t eq = spec.find('=');
            const std::string_view text(spec);
            int32_t row = 0, after = 0;
            if (eq == std::string::npos ||
                !ParseDecimal(text.substr(0, eq), &row) || row < 1 ||
                !ParseDecimal(text.substr(eq + 1), &after) || after < 0) {
              return CliContext::Usage("--withdrawn '" + spec +
                                       "': expected ROW=ROUND, e.g. 5=3");
            }
            v1::Withdrawal* w = req.add_withdrawals();
            w->set_entrant_id(row);
            w->set_after_round(after);
          }
          if (!ReadWholeFile(*file, req.mutable_content())) {
            return CliContext::Usage("cannot read " + *file);
          }
          return Unary<v1::TournamentService, v1::ImportResultsResponse>(
              ctx,
              [&](auto& s, auto* c, auto* resp) {
                return s.ImportResults(c, req, resp);
              },
              [&](const auto& resp) {
                std::cout << (resp.event().name().empty() ? "(no name)"
                                                          : resp.event().name())
                          << ": " << resp.results().entrants_size()
                          << " players, " << resp.results().games_size()
                          << " games, " << resp.results().byes_size() << " byes"
                          << (req.dry_run() || req.event_id() == 0
                                  ? " (dry run: nothing stored)"
                                  : " stored")
                          << "\n";
                PrintMatches(resp);
                for (const auto& w : resp.warnings())
                  std::cout << "warning: " << w << "\n";
              });
        };
      });
}

// "3-7" -> {3, 7}.
bool Pair(const std::string& spec, int32_t* a, int32_t* b) {
  const size_t dash = spec.find('-');
  const std::string_view text(spec);
  return dash != std::string::npos && ParseDecimal(text.substr(0, dash), a) &&
         ParseDecimal(text.substr(dash + 1), b);
}

// Prints what an EditResults changed, then the standings.
void PrintEdit(const v1::EditResultsResponse& resp) {
  for (const auto& c : resp.changes()) std::cout << c << "\n";
  PrintStandings(resp.standings());
}

int Edit(CliContext& ctx, const v1::EditResultsRequest& req) {
  return Unary<v1::TournamentService, v1::EditResultsResponse>(
      ctx,
      [&](auto& s, auto* c, auto* resp) { return s.EditResults(c, req, resp); },
      [](const auto& resp) { PrintEdit(resp); });
}

void AddResult(CLI::App* event, CliContext& ctx, Action& action) {
  auto* res =
      event->add_subcommand("result",
                            "record or correct games and byes of one round: "
                            "only the games named change (a game "
                            "replaces the one between the same two players); "
                            "--whole-round replaces the round");
  auto rr = std::make_shared<v1::RecordRoundRequest>();
  auto games = std::make_shared<std::vector<std::string>>();
  auto byes = std::make_shared<std::vector<std::string>>();
  auto removes = std::make_shared<std::vector<std::string>>();
  auto whole = std::make_shared<bool>(false);
  auto playoff = std::make_shared<bool>(false);
  auto board = std::make_shared<int32_t>(0);
  auto white_first = std::make_shared<bool>(false);
  res->add_option_function<int64_t>(
         "event", [rr](int64_t v) { rr->set_event_id(v); }, "event id")
      ->required();
  res->add_option_function<int32_t>(
         "--round", [rr](int32_t v) { rr->set_round(v); }, "round number")
      ->required();
  res->add_option(
      "--game", *games,
      "BLACK-WHITE:b|w|d|x|?[!][,hN][,kKOMI][,wbN][,wwN]: entrant ids, black "
      "first; b black wins, w white wins, d draw, x both lose, ? unknown; ! "
      "forfeit, h handicap, k komi, wb/ww warnings. Example: --game 3-7:w "
      "(entrant 3 black, 7 white, white won)");
  res->add_option("--bye", *byes, "ENTRANT[:POINTS] (points 2 by default)");
  res->add_option("--remove", *removes,
                  "A-B: remove the game between entrants A and B");
  res->add_option("--board", *board,
                  "team formats: the board of every --game; with --winner: "
                  "the board of a round paired by rankctl event pair");
  auto winner = std::make_shared<std::string>();
  auto forfeit = std::make_shared<bool>(false);
  res->add_option("--winner", *winner,
                  "black|white|jigo|both-lose: the result of --board B of a "
                  "paired round (its players, colours, handicap and komi "
                  "stay as paired)");
  res->add_flag("--forfeit", *forfeit,
                "with --winner: won by forfeit, not played over the board");
  res->add_flag("--playoff", *playoff,
                "the games are play-offs for a tied place (score nothing)");
  res->add_flag("--white-first", *white_first,
                "every --game names white first (WHITE-BLACK:RESULT, as "
                "white-first score "
                "sheets do); b and w still mean black and white");
  res->add_flag(
      "--whole-round", *whole,
      "replace every game and bye of the round with those given (RecordRound)");
  res->callback([&, rr, games, byes, removes, whole, playoff, board,
                 white_first, winner, forfeit] {
    action = [&, rr, games, byes, removes, whole, playoff, board, white_first,
              winner, forfeit]() -> int {
      if (!winner->empty()) {
        if (!games->empty() || !byes->empty() || !removes->empty() || *whole ||
            *playoff) {
          return CliContext::Usage(
              "--winner records one paired board: not with --game, --bye, "
              "--remove, --whole-round or --playoff");
        }
        return RecordBoardResult(ctx, rr->event_id(), rr->round(), *board,
                                 *winner, *forfeit);
      }
      if (*forfeit) return CliContext::Usage("--forfeit goes with --winner");
      v1::EditResultsRequest edit;
      edit.set_event_id(rr->event_id());
      for (const std::string& spec : *games) {
        std::string error;
        if (!ParseGame(spec, rr->round(), rr->add_games(), &error,
                       *white_first)) {
          return CliContext::Usage(error);
        }
        v1::Game* g = rr->mutable_games(rr->games_size() - 1);
        g->set_board(*board);
        if (*playoff) g->set_kind(v1::GAME_KIND_PLACE_PLAYOFF);
        *edit.add_set_games() = *g;
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
        *edit.add_set_byes() = *b;
      }
      for (const std::string& spec : *removes) {
        int32_t a = 0, b = 0;
        if (*whole || !Pair(spec, &a, &b)) {
          return CliContext::Usage("--remove '" + spec +
                                   "': expected A-B (not with --whole-round)");
        }
        v1::GameRef* g = edit.add_remove_games();
        g->set_round(rr->round());
        g->set_entrant_a(a);
        g->set_entrant_b(b);
      }
      if (*whole) {
        if (*playoff)
          return CliContext::Usage(
              "--playoff games are not part of a round's pairing");
        return Unary<v1::TournamentService, v1::RecordRoundResponse>(
            ctx,
            [&](auto& s, auto* c, auto* resp) {
              return s.RecordRound(c, *rr, resp);
            },
            [](const auto& resp) { PrintStandings(resp.standings()); });
      }
      if (edit.set_games_size() + edit.set_byes_size() +
              edit.remove_games_size() ==
          0) {
        return CliContext::Usage(
            "give --game, --bye or --remove (or --whole-round)");
      }
      return Edit(ctx, edit);
    };
  });
}

void AddEnter(CLI::App* event, CliContext& ctx, Action& action) {
  auto* enter = event->add_subcommand(
      "enter",
      "enter registered players (by player id) or guests into an event");
  auto er = std::make_shared<v1::EditResultsRequest>();
  auto players = std::make_shared<std::vector<int64_t>>();
  auto guests = std::make_shared<std::vector<std::string>>();
  enter
      ->add_option_function<int64_t>(
          "event", [er](int64_t v) { er->set_event_id(v); }, "event id")
      ->required();
  enter->add_option("--player", *players, "player id (repeat, or 12,13,14)")
      ->delimiter(',');
  enter->add_option(
      "--guest", *guests,
      "FAMILY:GIVEN:RANK[:CLUB]: an unregistered player (repeat)");
  enter->callback([&, er, players, guests] {
    action = [&, er, players, guests]() -> int {
      for (int64_t id : *players) er->add_add_entrants()->set_player_id(id);
      for (const std::string& spec : *guests) {
        std::vector<std::string> parts;
        std::stringstream ss(spec);
        for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
        if (parts.size() < 3 || parts.size() > 4 || parts[0].empty()) {
          return CliContext::Usage("--guest '" + spec +
                                   "': expected FAMILY:GIVEN:RANK[:CLUB]");
        }
        v1::Entrant* g = er->add_add_entrants()->mutable_guest();
        g->set_family_name(parts[0]);
        g->set_given_name(parts[1]);
        SetRank(parts[2], g->mutable_rank());
        if (parts.size() == 4) g->set_club(parts[3]);
      }
      if (er->add_entrants_size() == 0)
        return CliContext::Usage("give --player or --guest");
      return Edit(ctx, *er);
    };
  });
}

void AddTeam(CLI::App* event, CliContext& ctx, Action& action) {
  auto* team = event->add_subcommand("team",
                                     "add a team (or replace the team of --id) "
                                     "with its board order, players by id");
  auto tr = std::make_shared<v1::EditResultsRequest>();
  auto entry = std::make_shared<v1::TeamEntry>();
  team->add_option_function<int64_t>(
          "event", [tr](int64_t v) { tr->set_event_id(v); }, "event id")
      ->required();
  team->add_option("--name", *entry->mutable_name(), "team name")->required();
  team->add_option_function<int32_t>(
      "--id", [entry](int32_t v) { entry->set_id(v); },
      "team id to replace (default: a new team)");
  auto boards = std::make_shared<std::vector<int64_t>>();
  team->add_option("--boards", *boards,
                   "player ids, board 1 first (12,13,14,15)")
      ->delimiter(',')
      ->required();
  team->callback([&, tr, entry, boards] {
    action = [&, tr, entry, boards]() -> int {
      for (int64_t id : *boards) entry->add_board_player_ids(id);
      *tr->add_set_teams() = *entry;
      return Edit(ctx, *tr);
    };
  });
}

void AddWithdraw(CLI::App* event, CliContext& ctx, Action& action) {
  auto* wd = event->add_subcommand("withdraw",
                                   "record that an entrant (or team) withdrew "
                                   "after round N (--undo cancels)");
  auto wr = std::make_shared<v1::EditResultsRequest>();
  auto w = std::make_shared<v1::Withdrawal>();
  wd->add_option_function<int64_t>(
        "event", [wr](int64_t v) { wr->set_event_id(v); }, "event id")
      ->required();
  wd->add_option_function<int32_t>(
      "--entrant", [w](int32_t v) { w->set_entrant_id(v); }, "entrant id");
  wd->add_option_function<int32_t>(
      "--team", [w](int32_t v) { w->set_team_id(v); }, "team id");
  auto after = wd->add_option_function<int32_t>(
      "--after-round", [w](int32_t v) { w->set_after_round(v); },
      "rounds completed before the withdrawal (0 = before the first)");
  auto undo = std::make_shared<bool>(false);
  wd->add_flag("--undo", *undo, "cancel the recorded withdrawal");
  wd->callback([&, wr, w, undo, after] {
    action = [&, wr, w, undo, after]() -> int {
      if ((w->entrant_id() == 0) == (w->team_id() == 0)) {
        return CliContext::Usage("give --entrant ID or --team ID");
      }
      if (!*undo && after->count() == 0)
        return CliContext::Usage("give --after-round N");
      w->set_undo(*undo);
      *wr->add_withdrawals() = *w;
      return Edit(ctx, *wr);
    };
  });
}

void AddDecide(CLI::App* event, CliContext& ctx, Action& action) {
  auto* decide = event->add_subcommand("decide",
                                       "record the outcome of a play-off or a "
                                       "drawing of lots among tied entrants "
                                       "(or teams), best first");
  auto dr = std::make_shared<v1::EditResultsRequest>();
  auto playoff = std::make_shared<std::vector<int32_t>>();
  auto lots = std::make_shared<std::vector<int32_t>>();
  decide
      ->add_option_function<int64_t>(
          "event", [dr](int64_t v) { dr->set_event_id(v); }, "event id")
      ->required();
  decide
      ->add_option("--playoff", *playoff,
                   "ids in the order the play-off gave, e.g. 5,3")
      ->delimiter(',');
  decide->add_option("--lots", *lots, "ids in the order the lots gave")
      ->delimiter(',');
  decide->callback([&, dr, playoff, lots] {
    action = [&, dr, playoff, lots]() -> int {
      if (playoff->empty() == lots->empty())
        return CliContext::Usage("give --playoff or --lots");
      v1::TieDecision* d = dr->add_tie_decisions();
      d->set_method(playoff->empty() ? v1::TIE_DECISION_METHOD_LOTS
                                     : v1::TIE_DECISION_METHOD_PLAYOFF);
      for (int32_t id : playoff->empty() ? *lots : *playoff) d->add_order(id);
      return Edit(ctx, *dr);
    };
  });

  auto lid = std::make_shared<int64_t>(0);
  WithEventId(event, "entrants",
              "an event's entrants, teams and withdrawals (public)", lid)
      ->callback([&, lid] {
        action = [&, lid]() -> int {
          v1::GetResultsRequest req;
          req.set_event_id(*lid);
          return Unary<v1::TournamentService, v1::GetResultsResponse>(
              ctx,
              [&](auto& s, auto* c, auto* resp) {
                return s.GetResults(c, req, resp);
              },
              [](const auto& resp) {
                const auto& r = resp.results();
                std::vector<std::vector<std::string>> rows = {
                    {"ID", "PLAYER", "NAME", "RANK", "CLUB", "TEAM",
                     "WITHDREW"}};
                for (const auto& e : r.entrants()) {
                  rows.push_back(
                      {std::to_string(e.id()),
                       e.player_id() > 0 ? std::to_string(e.player_id())
                                         : "guest",
                       EntrantName(e.family_name(), e.given_name()),
                       e.has_rank() ? RankText(e.rank()) : "-",
                       e.club().empty() ? "-" : e.club(),
                       e.team_id() > 0 ? std::to_string(e.team_id()) : "-",
                       e.withdrawn()
                           ? "after round " +
                                 std::to_string(e.withdrawn_after_round())
                           : "-"});
                }
                PrintTable(rows);
                for (const auto& t : r.teams()) {
                  std::string order;
                  for (int32_t b : t.board_order()) {
                    order += (order.empty() ? "" : ", ") + std::to_string(b);
                  }
                  std::cout
                      << "team " << t.id() << " " << t.name() << ": boards "
                      << order
                      << (t.withdrawn()
                              ? "; withdrew after round " +
                                    std::to_string(t.withdrawn_after_round())
                              : "")
                      << "\n";
                }
              });
        };
      });
}

void AddEntries(CLI::App* event, CliContext& ctx, Action& action) {
  AddEnter(event, ctx, action);
  AddTeam(event, ctx, action);
  AddWithdraw(event, ctx, action);
  AddDecide(event, ctx, action);
}

void AddWrites(CLI::App* event, CliContext& ctx, Action& action) {
  AddImport(event, ctx, action);
  AddResult(event, ctx, action);
  AddEntries(event, ctx, action);
  AddPairingCommands(event, ctx, action);

  auto cid = std::make_shared<int64_t>(0);
  WithEventId(event, "close", "close an event: its results become final", cid)
      ->callback([&, cid] {
        action = [&, cid]() -> int {
          v1::CloseEventRequest req;
          req.set_event_id(*cid);
          return Unary<v1::TournamentService, v1::CloseEventResponse>(
              ctx,
              [&](auto& s, auto* c, auto* resp) {
                return s.CloseEvent(c, req, resp);
              },
              [](const auto& resp) {
                std::cout << "event " << resp.event().id() << " closed\n";
                PrintStandings(resp.standings());
              });
        };
      });
}

// The grade a near miss would have given, in lower case so that it never
// reads as a grant.
std::string GradeWords(v1::AthleteGrade g) {
  switch (g) {
    case v1::ATHLETE_GRADE_INTERNATIONAL_MASTER:
      return "international master of sport (国际级运动健将)";
    case v1::ATHLETE_GRADE_MASTER:
      return "master of sport (运动健将)";
    case v1::ATHLETE_GRADE_GRADE_1:
      return "grade 1 athlete (一级运动员)";
    case v1::ATHLETE_GRADE_GRADE_2:
      return "grade 2 athlete (二级运动员)";
    case v1::ATHLETE_GRADE_GRADE_3:
      return "grade 3 athlete (三级运动员)";
    default:
      return "-";
  }
}

std::string GrantBasis(const v1::GradeBasis& b) {
  if (b.has_placing()) {
    const auto& p = b.placing();
    return p.event_name() + " (event " + std::to_string(p.event_id()) +
           "), place " + std::to_string(p.place()) + (p.shared() ? "=" : "") +
           " of " + std::to_string(p.entrants_played());
  }
  if (b.has_certificate()) {
    return "certificate " + b.certificate().number() + " " +
           RankText(b.certificate().rank());
  }
  return "-";
}

void AddGradeCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* grade =
      app.add_subcommand("grade", "athlete technical grades (public)");
  grade->require_subcommand(1);
  auto pid = std::make_shared<int64_t>(0);
  auto* player = grade->add_subcommand(
      "player", "grades a registered player may apply for");
  player->add_option("player", *pid, "player id")->required();
  player->callback([&, pid] {
    action = [&, pid]() -> int {
      v1::EvaluatePlayerRequest req;
      req.set_player_id(*pid);
      return Unary<v1::EligibilityService, v1::EvaluatePlayerResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.EvaluatePlayer(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"GRADE", "CLAUSE", "BASIS"}};
            for (const auto& g : resp.grants()) {
              rows.push_back({g.grade_name_en() + " " + g.grade_name_zh(),
                              g.clause(), GrantBasis(g.basis())});
            }
            PrintTable(rows);
            for (const auto& m : resp.near_misses()) {
              std::cout << "near miss: " << GrantBasis(m.basis())
                        << (m.grade() != v1::ATHLETE_GRADE_UNSPECIFIED
                                ? " (would give " + GradeWords(m.grade()) +
                                      ", clause " + m.clause() + ")"
                                : std::string())
                        << ": " << m.reason() << "\n";
            }
          });
    };
  });
  auto eid = std::make_shared<int64_t>(0);
  auto* event =
      grade->add_subcommand("event", "every entrant of an event who qualifies");
  event->add_option("event", *eid, "event id")->required();
  event->callback([&, eid] {
    action = [&, eid]() -> int {
      v1::EvaluateEventRequest req;
      req.set_event_id(*eid);
      return Unary<v1::EligibilityService, v1::EvaluateEventResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.EvaluateEvent(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"PLACE", "ID", "NAME", "GRADES"}};
            for (const auto& q : resp.qualifying()) {
              std::string grades;
              for (const auto& g : q.grants()) {
                grades += (grades.empty() ? "" : ", ") + g.grade_name_en() +
                          " (" + g.clause() + ")";
              }
              rows.push_back({std::to_string(q.place()), std::to_string(q.id()),
                              q.name(), grades});
            }
            PrintTable(rows);
            for (const auto& b : resp.blockers())
              std::cout << "note: " << b << "\n";
          });
    };
  });
}

}  // namespace

void AddEventCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* event = app.add_subcommand(
      "event", "tournaments: events, results, standings, files");
  event->require_subcommand(1);
  AddCreate(event, ctx, action);
  AddReads(event, ctx, action);
  AddWrites(event, ctx, action);
  AddGradeCommands(app, ctx, action);
}

}  // namespace gorank::cli
