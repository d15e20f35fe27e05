#include "services/eligibility/eligibility.h"

#include <algorithm>
#include <map>
#include <set>

namespace gorank::eligibility {
namespace {

using tournaments::SubEvent;
using tournaments::SubEventCode;

struct Findings {
  std::vector<GradeGrant> grants;
  std::vector<NearMiss> misses;
  // Reasons that hold for every entrant of the event (notes 1-3, the
  // competition or group outside the table), for EvaluateEvent.
  std::vector<std::string> event_blockers;
};

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

void Miss(Findings& f, std::optional<Grade> grade, std::string clause,
          Basis basis, std::vector<std::string> reasons) {
  NearMiss m;
  m.grade = grade;
  m.clause = std::move(clause);
  m.basis = std::move(basis);
  m.reason = Join(reasons);
  m.reasons = std::move(reasons);
  f.misses.push_back(std::move(m));
}

// A near miss no rule fits: every reason also blocks the whole event.
void Blocked(Findings& f, std::string clause, Basis basis,
             std::vector<std::string> reasons) {
  f.event_blockers.insert(f.event_blockers.end(), reasons.begin(),
                          reasons.end());
  Miss(f, std::nullopt, std::move(clause), std::move(basis),
       std::move(reasons));
}

bool Covers(const GradeStandard& s, const std::vector<SubEvent>& list,
            SubEvent sub_event) {
  if (std::find(list.begin(), list.end(), sub_event) != list.end()) return true;
  return std::find(list.begin(), list.end(), SubEvent::kUnspecified) !=
             list.end() &&
         s.IsEligibleSubEvent(sub_event);
}

std::string Needs(const GradeRule& r) {
  if (r.place_from == 1) return "top " + std::to_string(r.place_to);
  return "places " + std::to_string(r.place_from) + "-" +
         std::to_string(r.place_to);
}

std::string Describe(const EventPlacing& p) {
  return p.event_name + " (" +
         (p.group.empty() ? "main group" : "group " + p.group) + ", " +
         SubEventCode(p.sub_event) + ") place " + std::to_string(p.place) +
         (p.shared ? "=" : "") + " of " + std::to_string(p.entrants_played) +
         " played";
}

// The placing as the standard sees it after notes 4 and 5 (recognised
// events); false, with a near miss recorded, when the competition has
// recognitions but none for this sub-event.
bool Recognise(const GradeStandard& s, const EventPlacing& p,
               std::string& competition, std::string& group, Findings& f) {
  std::string clauses;
  for (const Recognition& r : s.recognitions()) {
    if (r.competition != p.competition) continue;
    if (Covers(s, r.sub_events, p.sub_event)) {
      competition = r.counts_as;
      group = r.group;
      return true;
    }
    clauses += (clauses.empty() ? "" : ", ") + r.clause;
  }
  if (clauses.empty()) return true;
  Blocked(f, clauses, {p, std::nullopt},
          {"sub-event " + SubEventCode(p.sub_event) + " of " + p.competition +
           " is not a recognised event"});
  return false;
}

// Rules of `competition` for the placing's group: those naming the group,
// else those naming none (note 3: they apply to the highest group only,
// `not_highest` says when they are held back by it). Empty when the table
// has nothing for the group.
std::vector<const GradeRule*> RulesForGroup(const GradeStandard& s,
                                            const EventPlacing& p,
                                            const std::string& competition,
                                            const std::string& group,
                                            bool& not_highest) {
  std::set<std::string> named;
  for (const GradeRule& r : s.rules()) {
    if (r.competition == competition && !r.group.empty()) named.insert(r.group);
  }
  std::vector<const GradeRule*> out;
  not_highest = false;
  for (const GradeRule& r : s.rules()) {
    if (r.competition != competition) continue;
    if (!r.group.empty() && r.group == group) out.push_back(&r);
    if (r.group.empty() && !named.count(group)) {
      out.push_back(&r);
      not_highest = not_highest || !p.highest_group;
    }
  }
  return out;
}

std::string GroupText(const std::string& group) {
  return group.empty() ? std::string("(unnamed)") : group;
}

// Every reason a placing in the range of a rule is held back, in the
// standard's order: note 2, note 3, a pending place.
std::vector<std::string> HoldBacks(const GradeStandard& s,
                                   const EventPlacing& p,
                                   const std::string& group, bool not_highest) {
  std::vector<std::string> reasons;
  if (p.entrants_played < s.min_played()) {
    reasons.push_back("only " + std::to_string(p.entrants_played) +
                      " entrants played; at least " +
                      std::to_string(s.min_played()) + " required");
  }
  if (not_highest) {
    reasons.push_back("group " + GroupText(group) + " not the event's highest");
  }
  if (p.pending) {
    reasons.push_back("place pending; no grade until it is decided");
  }
  if (!p.event_closed) {
    reasons.push_back("event not closed; its places give grades once it is");
  }
  return reasons;
}

void EvaluatePlacing(const GradeStandard& s, const EventPlacing& p,
                     Findings& f) {
  std::string competition = p.competition, group = p.group;
  if (!Recognise(s, p, competition, group, f)) return;
  const bool known = std::any_of(
      s.rules().begin(), s.rules().end(),
      [&](const GradeRule& r) { return r.competition == competition; });
  const Basis basis{p, std::nullopt};
  if (!known) {
    Blocked(f, "", basis,
            {"competition '" +
             (competition.empty() ? std::string("(none)") : competition) +
             "' gives no athlete grade"});
    return;
  }
  if (!s.IsEligibleSubEvent(p.sub_event)) {
    Blocked(f, s.eligible_clause(), basis,
            {"sub-event " + SubEventCode(p.sub_event) + " not eligible"});
    return;
  }
  bool not_highest = false;
  const std::vector<const GradeRule*> for_group =
      RulesForGroup(s, p, competition, group, not_highest);
  if (for_group.empty()) {
    Blocked(f, "", basis,
            {"no grade for " +
             (group.empty() ? std::string("an event without a group")
                            : "group " + group) +
             " of " + competition});
    return;
  }
  std::vector<const GradeRule*> rules;
  for (const GradeRule* r : for_group) {
    if (Covers(s, r->sub_events, p.sub_event)) rules.push_back(r);
  }
  if (rules.empty()) {
    Blocked(f, for_group.front()->clause, basis,
            {"no grade for sub-event " + SubEventCode(p.sub_event) + " in " +
             (group.empty() ? "this event" : "group " + group)});
    return;
  }
  std::vector<std::string> held = HoldBacks(s, p, group, not_highest);
  if (p.entrants_played < s.min_played()) {
    f.event_blockers.push_back(held.front());
  }
  if (not_highest) {
    f.event_blockers.push_back("group " + GroupText(group) +
                               " not the event's highest");
  }
  std::vector<const GradeRule*> met;
  const GradeRule* better = nullptr;
  for (const GradeRule* r : rules) {
    if (p.place >= r->place_from && p.place <= r->place_to) {
      met.push_back(r);
    } else if (r->place_to < p.place &&
               (better == nullptr || r->place_to > better->place_to)) {
      better = r;
    }
  }
  if (!held.empty()) {
    // Name the grade the placing would have met; else the nearest better.
    const GradeRule* named = !met.empty() ? met.front() : better;
    if (met.empty() && better != nullptr) {
      held.push_back("place " + std::to_string(p.place) + ", needs " +
                     Needs(*better));
    }
    Miss(f, named ? std::optional<Grade>(named->grade) : std::nullopt,
         named ? named->clause : "", basis, std::move(held));
    return;
  }
  for (const GradeRule* r : met) {
    f.grants.push_back({r->grade, r->clause, basis,
                        s.Info(r->grade).name_en + " (" +
                            s.Info(r->grade).name_zh + "): " + Describe(p) +
                            ", clause " + r->clause});
  }
  if (better != nullptr) {
    Miss(f, better->grade, better->clause, basis,
         {"place " + std::to_string(p.place) + ", needs " + Needs(*better)});
  }
}

void EvaluateCertificate(const GradeStandard& s, const DanCertificate& c,
                         Findings& f) {
  const Basis basis{std::nullopt, c};
  const DanRoute* route = nullptr;
  const DanRoute* lowest = nullptr;
  for (const DanRoute& r : s.dan_routes()) {
    if (r.rank == c.rank) route = &r;
    if (lowest == nullptr || r.rank < lowest->rank) lowest = &r;
  }
  if (route == nullptr) {
    if (lowest != nullptr && c.rank.IsAmateurDan() && c.rank < lowest->rank) {
      Miss(f, std::nullopt, lowest->clause, basis,
           {c.rank.ToString() + " certificate gives no grade; " +
            lowest->rank.ToString() + " and above qualify"});
    }
    return;
  }
  const std::string rank = c.rank.ToString();
  std::vector<std::string> reasons;
  if (c.by_appraisal) {
    reasons.push_back(rank +
                      " obtained by appraisal; an appraised dan never "
                      "qualifies");
  }
  if (c.rank >= s.notice_from() && !c.effective) {
    reasons.push_back(rank + " certificate still under notice");
  }
  if (!reasons.empty()) {
    Miss(f, route->grade, route->clause, basis, std::move(reasons));
  } else {
    f.grants.push_back({route->grade, route->clause, basis,
                        s.Info(route->grade).name_en + " (" +
                            s.Info(route->grade).name_zh + "): amateur " +
                            rank + " certificate " + c.number});
  }
}

void SortGrants(std::vector<GradeGrant>& grants) {
  std::stable_sort(grants.begin(), grants.end(),
                   [](const GradeGrant& a, const GradeGrant& b) {
                     return a.grade < b.grade;
                   });
}

}  // namespace

PlayerEvaluation EvaluatePlayer(const GradeStandard& standard,
                                const PlayerRecord& record) {
  Findings f;
  for (const EventPlacing& p : record.placings) EvaluatePlacing(standard, p, f);
  for (const DanCertificate& c : record.certificates) {
    EvaluateCertificate(standard, c, f);
  }
  SortGrants(f.grants);
  return {std::move(f.grants), std::move(f.misses)};
}

EventPlacing PlacingOf(const tournaments::Event& event,
                       const tournaments::Standings& standings,
                       const tournaments::StandingRow& row) {
  EventPlacing p;
  p.event_id = event.id;
  p.event_name = event.name;
  p.competition = event.competition;
  p.group = event.group;
  p.highest_group = event.highest_group;
  p.sub_event = event.sub_event;
  p.end = event.end;
  p.place = row.place;
  p.shared = row.state == tournaments::PlaceState::kShared;
  p.pending = row.state == tournaments::PlaceState::kPendingPlayoff ||
              standings.status == tournaments::StandingsStatus::kPendingResults;
  p.entrants_played = standings.entrants_played;
  return p;
}

absl::StatusOr<EventEvaluation> EvaluateEvent(
    const GradeStandard& standard, const tournaments::Event& event,
    const tournaments::EventResults& results,
    const tournaments::Standings& standings) {
  EventEvaluation out;
  if (standings.status == tournaments::StandingsStatus::kPendingResults) {
    out.blockers.push_back("standings pending: " + standings.pending_reason);
    return out;
  }
  std::map<int, std::vector<registry::PlayerId>> players;  // row id -> ids
  std::map<int, bool> known;
  for (const tournaments::Entrant& e : results.entrants) {
    const int key =
        standings.teams ? (e.team ? e.team->value : -1) : e.id.value;
    if (!standings.teams) known[key] = true;
    if (e.player_id.has_value()) players[key].push_back(*e.player_id);
  }
  for (const tournaments::Team& t : results.teams) {
    if (standings.teams) known[t.id.value] = true;
  }
  std::set<std::string> blockers;
  if (standings.status == tournaments::StandingsStatus::kPendingPlayoff) {
    blockers.insert("standings: " + standings.pending_reason +
                    " (those places give no grade until it is recorded)");
  }
  for (const tournaments::StandingRow& row : standings.rows) {
    if (!known.count(row.id)) {
      return absl::InvalidArgumentError(
          "standings row " + std::to_string(row.id) +
          " names no entrant or team of these results");
    }
    Findings f;
    EvaluatePlacing(standard, PlacingOf(event, standings, row), f);
    blockers.insert(f.event_blockers.begin(), f.event_blockers.end());
    if (f.grants.empty()) continue;
    SortGrants(f.grants);
    out.qualifying.push_back(
        {row.id, row.name, players[row.id], row.place, std::move(f.grants)});
  }
  out.blockers.assign(blockers.begin(), blockers.end());
  return out;
}

}  // namespace gorank::eligibility
