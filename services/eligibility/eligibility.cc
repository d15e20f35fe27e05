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
};

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
  f.misses.push_back({std::nullopt,
                      clauses,
                      {p, std::nullopt},
                      "sub-event " + SubEventCode(p.sub_event) + " of " +
                          p.competition + " is not a recognised event"});
  return false;
}

// Rules of `competition` for the placing's group (note 3 for rules that
// name no group); empty with a near miss recorded when none applies.
std::vector<const GradeRule*> RulesForGroup(const GradeStandard& s,
                                            const EventPlacing& p,
                                            const std::string& competition,
                                            const std::string& group,
                                            Findings& f) {
  std::set<std::string> named;
  for (const GradeRule& r : s.rules()) {
    if (r.competition == competition && !r.group.empty()) named.insert(r.group);
  }
  std::vector<const GradeRule*> out;
  bool not_highest = false;
  for (const GradeRule& r : s.rules()) {
    if (r.competition != competition) continue;
    if (!r.group.empty() && r.group == group) out.push_back(&r);
    if (r.group.empty() && !named.count(group)) {
      if (p.highest_group)
        out.push_back(&r);
      else
        not_highest = true;
    }
  }
  if (out.empty()) {
    f.misses.push_back(
        {std::nullopt,
         not_highest ? s.highest_group_clause() : "",
         {p, std::nullopt},
         not_highest
             ? "group " + (group.empty() ? std::string("(unnamed)") : group) +
                   " not the event's highest"
             : "no grade for " +
                   (group.empty() ? std::string("an event without a group")
                                  : "group " + group) +
                   " of " + competition});
  }
  return out;
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
    f.misses.push_back(
        {std::nullopt, "", basis,
         "competition '" +
             (competition.empty() ? std::string("(none)") : competition) +
             "' gives no athlete grade"});
    return;
  }
  if (!s.IsEligibleSubEvent(p.sub_event)) {
    f.misses.push_back(
        {std::nullopt, s.eligible_clause(), basis,
         "sub-event " + SubEventCode(p.sub_event) + " not eligible"});
    return;
  }
  if (p.entrants_played < s.min_played()) {
    f.misses.push_back({std::nullopt, s.min_played_clause(), basis,
                        "only " + std::to_string(p.entrants_played) +
                            " entrants played; at least " +
                            std::to_string(s.min_played()) + " required"});
    return;
  }
  const std::vector<const GradeRule*> for_group =
      RulesForGroup(s, p, competition, group, f);
  if (for_group.empty()) return;  // the near miss is recorded
  std::vector<const GradeRule*> rules;
  for (const GradeRule* r : for_group) {
    if (Covers(s, r->sub_events, p.sub_event)) rules.push_back(r);
  }
  if (rules.empty()) {
    f.misses.push_back({std::nullopt, for_group.front()->clause, basis,
                        "no grade for sub-event " + SubEventCode(p.sub_event) +
                            " in " +
                            (group.empty() ? "this event" : "group " + group)});
    return;
  }
  if (p.pending) {
    f.misses.push_back({rules.front()->grade, rules.front()->clause, basis,
                        "place pending; no grade until it is decided"});
    return;
  }
  const GradeRule* better = nullptr;
  for (const GradeRule* r : rules) {
    if (p.place >= r->place_from && p.place <= r->place_to) {
      f.grants.push_back({r->grade, r->clause, basis,
                          s.Info(r->grade).name_en + " (" +
                              s.Info(r->grade).name_zh + "): " + Describe(p) +
                              ", clause " + r->clause});
    } else if (r->place_to < p.place &&
               (better == nullptr || r->place_to > better->place_to)) {
      better = r;
    }
  }
  if (better != nullptr) {
    f.misses.push_back(
        {better->grade, better->clause, basis,
         "place " + std::to_string(p.place) + ", needs " + Needs(*better)});
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
      f.misses.push_back({std::nullopt, lowest->clause, basis,
                          c.rank.ToString() + " certificate gives no grade; " +
                              lowest->rank.ToString() + " and above qualify"});
    }
    return;
  }
  const std::string rank = c.rank.ToString();
  if (c.by_appraisal) {
    f.misses.push_back({route->grade, route->clause, basis,
                        rank + " obtained by appraisal; an appraised dan never "
                               "qualifies"});
  } else if (c.rank >= s.notice_from() && !c.effective) {
    f.misses.push_back({route->grade, route->clause, basis,
                        rank + " certificate still under notice"});
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
  std::map<int, std::vector<int64_t>> players;  // row id -> player ids
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
  for (const tournaments::StandingRow& row : standings.rows) {
    if (!known.count(row.id)) {
      return absl::InvalidArgumentError(
          "standings row " + std::to_string(row.id) +
          " names no entrant or team of these results");
    }
    Findings f;
    EvaluatePlacing(standard, PlacingOf(event, standings, row), f);
    for (const NearMiss& m : f.misses) {
      if (!m.grade.has_value()) blockers.insert(m.reason);
    }
    if (f.grants.empty()) continue;
    SortGrants(f.grants);
    out.qualifying.push_back(
        {row.id, row.name, players[row.id], row.place, std::move(f.grants)});
  }
  out.blockers.assign(blockers.begin(), blockers.end());
  return out;
}

}  // namespace gorank::eligibility
