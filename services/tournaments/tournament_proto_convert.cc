#include "services/tournaments/tournament_proto_convert.h"

#include "services/common/common_proto_convert.h"
#include "services/common/status_macros.h"
#include "services/registry/common_proto_convert.h"
#include "services/tournaments/pairing_proto_convert.h"

namespace gorank::tournaments {
namespace {

using gorank::DateFromProto;
using gorank::DateToProto;
using registry::RankFromProto;
using registry::RankToProto;

// Domain enums whose values equal the proto's (UNSPECIFIED = 0).
template <typename E>
absl::StatusOr<E> SameEnum(int value, bool (*valid)(int), const char* field) {
  if (!valid(value)) {
    return absl::InvalidArgumentError(std::string(field) + ": unknown value " +
                                      std::to_string(value));
  }
  return static_cast<E>(value);
}

absl::StatusOr<Format> FormatFromProto(const v1::Format& f) {
  Format out;
  GORANK_ASSIGN_OR_RETURN(out.kind,
                          SameEnum<FormatKind>(f.kind(), v1::FormatKind_IsValid,
                                               "event.format.kind"));
  out.cycles = f.cycles() == 0 ? 1 : f.cycles();
  out.rounds = f.rounds();
  out.lives = f.lives() == 0 ? 1 : f.lives();
  out.boards = f.boards();
  out.best_of = f.best_of();
  if (!v1::SwissRanking_IsValid(f.swiss_ranking())) {
    return absl::InvalidArgumentError(
        "event.format.swiss_ranking: unknown value");
  }
  out.swiss_ranking = f.swiss_ranking() == v1::SWISS_RANKING_POINTS_FIRST
                          ? SwissRanking::kPointsFirst
                          : SwissRanking::kTotal;
  return out;
}

absl::StatusOr<Rules> RulesFromProto(const v1::Rules& r) {
  Rules out;
  GORANK_ASSIGN_OR_RETURN(out.rule_set,
                          SameEnum<RuleSet>(r.rule_set(), v1::RuleSet_IsValid,
                                            "event.rules.rule_set"));
  if (out.rule_set == RuleSet::kUnspecified) out.rule_set = RuleSet::kChinese;
  out.komi_x2 = r.komi_x2();
  GORANK_ASSIGN_OR_RETURN(
      out.handicap_policy,
      SameEnum<HandicapPolicy>(r.handicap_policy(), v1::HandicapPolicy_IsValid,
                               "event.rules.handicap_policy"));
  out.handicap_reduction = r.handicap_reduction();
  return out;
}

absl::StatusOr<Entrant> EntrantFromProto(const v1::Entrant& e) {
  Entrant out;
  out.id = EntrantId{e.id()};
  if (e.player_id() != 0) out.player_id = registry::PlayerId{e.player_id()};
  out.family_name = e.family_name();
  out.given_name = e.given_name();
  GORANK_ASSIGN_OR_RETURN(out.rank, RankFromProto(e.rank(), "entrants.rank"));
  out.country = e.country();
  out.club = e.club();
  out.egd_pin = e.egd_pin();
  if (e.team_id() != 0) out.team = TeamId{e.team_id()};
  if (e.withdrawn()) out.withdrawn_after_round = e.withdrawn_after_round();
  return out;
}

void EntrantToProto(const Entrant& e, v1::Entrant* out) {
  out->set_id(e.id.value);
  out->set_player_id(e.player_id.value_or(registry::PlayerId{}).value);
  out->set_family_name(e.family_name);
  out->set_given_name(e.given_name);
  if (e.rank) RankToProto(*e.rank, out->mutable_rank());
  out->set_country(e.country);
  out->set_club(e.club);
  out->set_egd_pin(e.egd_pin);
  out->set_team_id(e.team ? e.team->value : 0);
  out->set_withdrawn(e.withdrawn_after_round.has_value());
  out->set_withdrawn_after_round(e.withdrawn_after_round.value_or(0));
}

void GameToProto(const Game& g, v1::Game* out) {
  out->set_round(g.round);
  out->set_board(g.board);
  out->set_black_entrant_id(g.black.value);
  out->set_white_entrant_id(g.white.value);
  out->set_colours_known(g.colours_known);
  out->set_outcome(static_cast<v1::GameOutcome>(g.outcome));
  out->set_forfeit(g.forfeit);
  out->set_kind(g.kind == GameKind::kPlacePlayoff ? v1::GAME_KIND_PLACE_PLAYOFF
                                                  : v1::GAME_KIND_REGULAR);
  out->set_handicap(g.handicap);
  out->set_has_komi(g.komi_x2.has_value());
  out->set_komi_x2(g.komi_x2.value_or(0));
  out->set_black_warnings(g.black_warnings);
  out->set_white_warnings(g.white_warnings);
}

v1::PlaceState PlaceStateToProto(PlaceState s) {
  switch (s) {
    case PlaceState::kAlone:
      return v1::PLACE_STATE_ALONE;
    case PlaceState::kShared:
      return v1::PLACE_STATE_SHARED;
    case PlaceState::kByPlayoff:
      return v1::PLACE_STATE_BY_PLAYOFF;
    case PlaceState::kByLots:
      return v1::PLACE_STATE_BY_LOTS;
    case PlaceState::kPendingPlayoff:
      return v1::PLACE_STATE_PENDING_PLAYOFF;
  }
  return v1::PLACE_STATE_UNSPECIFIED;
}

v1::StandingsStatus StatusToProto(StandingsStatus s) {
  switch (s) {
    case StandingsStatus::kFinal:
      return v1::STANDINGS_STATUS_FINAL;
    case StandingsStatus::kPendingResults:
      return v1::STANDINGS_STATUS_PENDING_RESULTS;
    case StandingsStatus::kPendingPlayoff:
      return v1::STANDINGS_STATUS_PENDING_PLAYOFF;
  }
  return v1::STANDINGS_STATUS_UNSPECIFIED;
}

}  // namespace

absl::StatusOr<Event> EventFromProto(const v1::Event& e) {
  Event out;
  out.id = EventId{e.id()};
  out.name = e.name();
  GORANK_ASSIGN_OR_RETURN(auto start, DateFromProto(e.start(), "event.start"));
  GORANK_ASSIGN_OR_RETURN(auto end, DateFromProto(e.end(), "event.end"));
  out.start = start.value_or(Date{});
  out.end = end.value_or(Date{});
  out.organiser_prefix = e.organiser_prefix();
  out.country = e.country();
  out.city = e.city();
  GORANK_ASSIGN_OR_RETURN(
      out.level,
      SameEnum<EventLevel>(e.level(), v1::EventLevel_IsValid, "event.level"));
  out.competition = e.competition();
  out.group = e.group();
  out.highest_group = e.highest_group();
  GORANK_ASSIGN_OR_RETURN(
      out.sub_event, SameEnum<SubEvent>(e.sub_event(), v1::SubEvent_IsValid,
                                        "event.sub_event"));
  GORANK_ASSIGN_OR_RETURN(out.format, FormatFromProto(e.format()));
  if (e.has_rules()) {
    GORANK_ASSIGN_OR_RETURN(out.rules, RulesFromProto(e.rules()));
  }
  GORANK_ASSIGN_OR_RETURN(
      out.time.time_class,
      SameEnum<TimeClass>(e.time().time_class(), v1::TimeClass_IsValid,
                          "event.time.time_class"));
  out.time.adjusted_minutes = e.time().adjusted_minutes();
  out.time.system = e.time().system();
  out.shared_places_allowed = e.shared_places_allowed();
  out.closed = e.closed();
  GORANK_ASSIGN_OR_RETURN(out.pairing, PairingSettingsFromProto(e.pairing()));
  return out;
}

void EventToProto(const Event& e, v1::Event* out) {
  out->set_id(e.id.value);
  out->set_name(e.name);
  if (e.start.IsValid()) DateToProto(e.start, out->mutable_start());
  if (e.end.IsValid()) DateToProto(e.end, out->mutable_end());
  out->set_organiser_prefix(e.organiser_prefix);
  out->set_country(e.country);
  out->set_city(e.city);
  out->set_level(static_cast<v1::EventLevel>(e.level));
  out->set_competition(e.competition);
  out->set_group(e.group);
  out->set_highest_group(e.highest_group);
  out->set_sub_event(SubEventToProto(e.sub_event));
  v1::Format* f = out->mutable_format();
  f->set_kind(static_cast<v1::FormatKind>(e.format.kind));
  f->set_cycles(e.format.cycles);
  f->set_rounds(e.format.rounds);
  f->set_lives(e.format.lives);
  f->set_boards(e.format.boards);
  f->set_best_of(e.format.best_of);
  f->set_swiss_ranking(e.format.swiss_ranking == SwissRanking::kPointsFirst
                           ? v1::SWISS_RANKING_POINTS_FIRST
                           : v1::SWISS_RANKING_TOTAL);
  v1::Rules* r = out->mutable_rules();
  r->set_rule_set(static_cast<v1::RuleSet>(e.rules.rule_set));
  r->set_komi_x2(e.rules.komi_x2);
  r->set_handicap_policy(
      static_cast<v1::HandicapPolicy>(e.rules.handicap_policy));
  r->set_handicap_reduction(e.rules.handicap_reduction);
  out->mutable_time()->set_time_class(
      static_cast<v1::TimeClass>(e.time.time_class));
  out->mutable_time()->set_adjusted_minutes(e.time.adjusted_minutes);
  out->mutable_time()->set_system(e.time.system);
  out->set_shared_places_allowed(e.shared_places_allowed);
  out->set_closed(e.closed);
  PairingSettingsToProto(e.pairing, out->mutable_pairing());
}

v1::SubEvent SubEventToProto(SubEvent s) {
  return static_cast<v1::SubEvent>(s);
}

absl::StatusOr<Game> GameFromProto(const v1::Game& g,
                                   const std::string& field) {
  Game out;
  out.round = g.round();
  out.board = g.board();
  out.black = EntrantId{g.black_entrant_id()};
  out.white = EntrantId{g.white_entrant_id()};
  out.colours_known = g.colours_known();
  GORANK_ASSIGN_OR_RETURN(
      out.outcome, SameEnum<Outcome>(g.outcome(), v1::GameOutcome_IsValid,
                                     (field + ".outcome").c_str()));
  out.forfeit = g.forfeit();
  if (!v1::GameKind_IsValid(g.kind())) {
    return absl::InvalidArgumentError(field + ".kind: unknown value");
  }
  out.kind = g.kind() == v1::GAME_KIND_PLACE_PLAYOFF ? GameKind::kPlacePlayoff
                                                     : GameKind::kRegular;
  out.handicap = g.handicap();
  if (g.has_komi()) out.komi_x2 = g.komi_x2();
  out.black_warnings = g.black_warnings();
  out.white_warnings = g.white_warnings();
  return out;
}

absl::StatusOr<Bye> ByeFromProto(const v1::Bye& b) {
  if (b.points() < 0 || b.points() > 2) {
    return absl::InvalidArgumentError("byes.points must be 0, 1 or 2");
  }
  Bye out;
  out.round = b.round();
  out.entrant = EntrantId{b.entrant_id()};
  if (b.team_id() != 0) out.team = TeamId{b.team_id()};
  out.points = b.points();
  return out;
}

absl::StatusOr<EventResults> ResultsFromProto(const v1::EventResults& r) {
  EventResults out;
  for (const v1::Entrant& e : r.entrants()) {
    GORANK_ASSIGN_OR_RETURN(Entrant en, EntrantFromProto(e));
    out.entrants.push_back(std::move(en));
  }
  for (const v1::Team& t : r.teams()) {
    Team team{TeamId{t.id()}, t.name(), {}, std::nullopt};
    for (int32_t b : t.board_order()) team.board_order.push_back(EntrantId{b});
    if (t.withdrawn()) team.withdrawn_after_round = t.withdrawn_after_round();
    out.teams.push_back(std::move(team));
  }
  for (int i = 0; i < r.games_size(); ++i) {
    GORANK_ASSIGN_OR_RETURN(
        Game g, GameFromProto(r.games(i), "games[" + std::to_string(i) + "]"));
    out.games.push_back(g);
  }
  for (const v1::Bye& b : r.byes()) {
    GORANK_ASSIGN_OR_RETURN(Bye bye, ByeFromProto(b));
    out.byes.push_back(bye);
  }
  for (const v1::TieDecision& d : r.tie_decisions()) {
    if (d.method() != v1::TIE_DECISION_METHOD_PLAYOFF &&
        d.method() != v1::TIE_DECISION_METHOD_LOTS) {
      return absl::InvalidArgumentError(
          "tie_decisions.method must be PLAYOFF or LOTS");
    }
    TieDecision t;
    t.method = d.method() == v1::TIE_DECISION_METHOD_LOTS
                   ? TieDecisionMethod::kLots
                   : TieDecisionMethod::kPlayoff;
    t.order.assign(d.order().begin(), d.order().end());
    out.tie_decisions.push_back(std::move(t));
  }
  return out;
}

void ResultsToProto(const EventResults& r, v1::EventResults* out) {
  for (const Entrant& e : r.entrants) EntrantToProto(e, out->add_entrants());
  for (const Team& t : r.teams) {
    v1::Team* p = out->add_teams();
    p->set_id(t.id.value);
    p->set_name(t.name);
    for (EntrantId b : t.board_order) p->add_board_order(b.value);
    p->set_withdrawn(t.withdrawn_after_round.has_value());
    p->set_withdrawn_after_round(t.withdrawn_after_round.value_or(0));
  }
  for (const Game& g : r.games) GameToProto(g, out->add_games());
  for (const Bye& b : r.byes) {
    v1::Bye* p = out->add_byes();
    p->set_round(b.round);
    p->set_entrant_id(b.entrant.value);
    p->set_team_id(b.team ? b.team->value : 0);
    p->set_points(b.points);
  }
  for (const TieDecision& d : r.tie_decisions) {
    v1::TieDecision* p = out->add_tie_decisions();
    p->set_method(d.method == TieDecisionMethod::kLots
                      ? v1::TIE_DECISION_METHOD_LOTS
                      : v1::TIE_DECISION_METHOD_PLAYOFF);
    for (int id : d.order) p->add_order(id);
  }
}

absl::StatusOr<EventFilter> FilterFromProto(const v1::ListEventsRequest& req) {
  EventFilter f;
  f.organiser_prefix = req.organiser_prefix();
  f.competition = req.competition();
  f.newest_first = req.newest_first();
  if (req.player_id() < 0)
    return absl::InvalidArgumentError("player_id must not be negative");
  if (req.player_id() > 0) f.player = registry::PlayerId{req.player_id()};
  f.name_contains = req.name_contains();
  GORANK_ASSIGN_OR_RETURN(
      f.starts_on_or_after,
      DateFromProto(req.starts_on_or_after(), "starts_on_or_after"));
  GORANK_ASSIGN_OR_RETURN(
      f.starts_on_or_before,
      DateFromProto(req.starts_on_or_before(), "starts_on_or_before"));
  return f;
}

absl::StatusOr<ResultFileFormat> FileFormatFromProto(v1::ResultFileFormat f) {
  switch (f) {
    case v1::RESULT_FILE_FORMAT_EGF:
      return ResultFileFormat::kEgf;
    case v1::RESULT_FILE_FORMAT_CSV:
      return ResultFileFormat::kCsv;
    default:
      return absl::InvalidArgumentError("format must be EGF or CSV");
  }
}

void StandingsToProto(const Standings& s, v1::Standings* out) {
  out->set_status(StatusToProto(s.status));
  out->set_pending_reason(s.pending_reason);
  out->set_teams(s.teams);
  for (const std::string& n : s.criteria_names) out->add_criteria_names(n);
  for (const StandingRow& row : s.rows) {
    v1::StandingRow* p = out->add_rows();
    p->set_place(row.place);
    p->set_state(PlaceStateToProto(row.state));
    p->set_place_label(row.place_label);
    p->set_id(row.id);
    p->set_name(row.name);
    for (const Rational& v : row.criteria) {
      v1::CriterionValue* c = p->add_criteria();
      c->set_numerator(v.num());
      c->set_denominator(v.den());
      c->set_display(v.ToString());
    }
    p->set_note(row.note);
    for (int id : row.players_left) p->add_players_left(id);
  }
  out->set_entrants_played(s.entrants_played);
  for (EntrantId id : s.voided) out->add_voided_entrant_ids(id.value);
  for (const TeamMatchResult& m : s.matches) {
    v1::TeamMatch* p = out->add_matches();
    p->set_round(m.round);
    p->set_team_a(m.team_a);
    p->set_team_b(m.team_b);
    p->set_board_points_a(m.board_points_a);
    p->set_board_points_b(m.board_points_b);
    p->set_match_points_a(m.match_points_a);
    p->set_match_points_b(m.match_points_b);
  }
  for (const RelayPlayer& r : s.relay_players) {
    v1::RelayPlayer* p = out->add_relay_players();
    p->set_entrant_id(r.entrant.value);
    p->set_team_id(r.team.value);
    p->set_name(r.name);
    p->set_games_won(r.games_won);
    p->set_games_played(r.games_played);
    p->set_left_after_game(r.left_after_game);
  }
}

void CompetitionToProto(const Competition& c, v1::Competition* out) {
  out->set_code(c.code);
  out->set_level(static_cast<v1::EventLevel>(c.level));
  for (const std::string& g : c.groups) out->add_groups(g);
  out->set_name_en(c.name_en);
  out->set_name_zh(c.name_zh);
}

// ------------------------------------------- EditResults and import matching

namespace {

absl::StatusOr<TieDecision> DecisionFromProto(const v1::TieDecision& d) {
  if (d.method() != v1::TIE_DECISION_METHOD_PLAYOFF &&
      d.method() != v1::TIE_DECISION_METHOD_LOTS) {
    return absl::InvalidArgumentError(
        "tie_decisions.method must be PLAYOFF or LOTS");
  }
  TieDecision t;
  t.method = d.method() == v1::TIE_DECISION_METHOD_LOTS
                 ? TieDecisionMethod::kLots
                 : TieDecisionMethod::kPlayoff;
  t.order.assign(d.order().begin(), d.order().end());
  return t;
}

v1::RowMatchState MatchStateToProto(RowMatchState s) {
  switch (s) {
    case RowMatchState::kFileId:
      return v1::ROW_MATCH_STATE_FILE_ID;
    case RowMatchState::kMatched:
      return v1::ROW_MATCH_STATE_MATCHED;
    case RowMatchState::kLinked:
      return v1::ROW_MATCH_STATE_LINKED;
    case RowMatchState::kGuest:
      return v1::ROW_MATCH_STATE_GUEST;
    case RowMatchState::kAmbiguous:
      return v1::ROW_MATCH_STATE_AMBIGUOUS;
    case RowMatchState::kUnknown:
      return v1::ROW_MATCH_STATE_UNKNOWN;
  }
  return v1::ROW_MATCH_STATE_UNSPECIFIED;
}

}  // namespace

absl::StatusOr<ResultsEdit> EditFromProto(const v1::EditResultsRequest& req) {
  ResultsEdit out;
  for (const v1::EntrantEntry& e : req.add_entrants()) {
    EntrantEntry entry;
    if (e.player_id() < 0) {
      return absl::InvalidArgumentError(
          "add_entrants.player_id must be positive");
    }
    if (e.player_id() > 0) {
      entry.player_id = registry::PlayerId{e.player_id()};
    } else {
      GORANK_ASSIGN_OR_RETURN(entry.guest, EntrantFromProto(e.guest()));
    }
    GORANK_ASSIGN_OR_RETURN(entry.rank,
                            RankFromProto(e.rank(), "add_entrants.rank"));
    out.add_entrants.push_back(std::move(entry));
  }
  for (const v1::TeamEntry& t : req.set_teams()) {
    std::vector<registry::PlayerId> boards;
    for (int64_t id : t.board_player_ids())
      boards.push_back(registry::PlayerId{id});
    out.set_teams.push_back({t.id(), t.name(), std::move(boards)});
  }
  for (int i = 0; i < req.set_games_size(); ++i) {
    GORANK_ASSIGN_OR_RETURN(
        Game g, GameFromProto(req.set_games(i),
                              "set_games[" + std::to_string(i) + "]"));
    out.set_games.push_back(g);
  }
  for (const v1::GameRef& g : req.remove_games()) {
    out.remove_games.push_back(
        {g.round(), EntrantId{g.entrant_a()}, EntrantId{g.entrant_b()}});
  }
  for (const v1::Bye& b : req.set_byes()) {
    GORANK_ASSIGN_OR_RETURN(Bye bye, ByeFromProto(b));
    out.set_byes.push_back(bye);
  }
  for (const v1::Withdrawal& w : req.withdrawals()) {
    Withdrawal out_w;
    if (w.entrant_id() != 0) out_w.entrant = EntrantId{w.entrant_id()};
    if (w.team_id() != 0) out_w.team = TeamId{w.team_id()};
    out_w.after_round = w.after_round();
    out_w.undo = w.undo();
    out.withdrawals.push_back(out_w);
  }
  for (const v1::TieDecision& d : req.tie_decisions()) {
    GORANK_ASSIGN_OR_RETURN(TieDecision t, DecisionFromProto(d));
    out.tie_decisions.push_back(std::move(t));
  }
  return out;
}

ImportOptions ImportOptionsFromProto(const v1::ImportResultsRequest& req) {
  ImportOptions out;
  for (const v1::RowResolution& r : req.resolutions()) {
    out.resolutions.push_back(
        {r.row(), registry::PlayerId{r.player_id()}, r.guest()});
  }
  out.allow_guests = req.allow_guests();
  out.dry_run = req.dry_run();
  for (const v1::Withdrawal& w : req.withdrawals()) {
    out.withdrawals.push_back({w.entrant_id(), w.after_round()});
  }
  return out;
}

void RowMatchToProto(const RowMatch& m, v1::RowMatch* out) {
  out->set_row(m.row);
  out->set_line(m.line);
  out->set_name(m.name);
  if (m.rank) RankToProto(*m.rank, out->mutable_rank());
  out->set_club(m.club);
  out->set_state(MatchStateToProto(m.state));
  out->set_player_id(m.player_id.value_or(registry::PlayerId{}).value);
  for (const PlayerCandidate& c : m.candidates) {
    v1::PlayerCandidate* p = out->add_candidates();
    p->set_player_id(c.player.id.value);
    p->set_name(c.player.name);
    p->set_latin_name(c.player.latin_name);
    p->set_agency_prefix(c.player.agency_prefix);
    if (c.player.rank) RankToProto(*c.player.rank, p->mutable_rank());
    p->set_differs(c.differs);
  }
}

void PlayerPlaceToProto(const PlayerPlace& p, v1::PlayerPlace* out) {
  out->set_event_id(p.event.value);
  out->set_entrant_id(p.entrant.value);
  out->set_place(p.place);
  out->set_state(PlaceStateToProto(p.state));
  out->set_place_label(p.place_label);
  out->set_standings_status(StatusToProto(p.status));
}

}  // namespace gorank::tournaments
