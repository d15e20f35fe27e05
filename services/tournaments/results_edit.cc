#include "services/tournaments/results_edit.h"

#include <algorithm>
#include <set>

namespace gorank::tournaments {
namespace {

std::string N(int v) { return std::to_string(v); }

char OutcomeLetter(Outcome o) {
  switch (o) {
    case Outcome::kBlackWins:
      return 'b';
    case Outcome::kWhiteWins:
      return 'w';
    case Outcome::kDraw:
      return 'd';
    case Outcome::kBothLose:
      return 'x';
    case Outcome::kUnknown:
      return '?';
  }
  return '?';
}

// "round 3: 2-7:b!" (black first).
std::string GameText(const Game& g) {
  std::string s = "round " + N(g.round) + ": " +
                  (g.kind == GameKind::kPlacePlayoff ? "play-off " : "") +
                  N(g.black.value) + "-" + N(g.white.value) + ":" +
                  OutcomeLetter(g.outcome);
  if (g.forfeit) s += "!";
  return s;
}

bool SamePair(const Game& g, int round, EntrantId a, EntrantId b) {
  return g.round == round &&
         ((g.black == a && g.white == b) || (g.black == b && g.white == a));
}

Entrant* FindEntrant(EventResults& r, int id) {
  for (Entrant& e : r.entrants) {
    if (e.id.value == id) return &e;
  }
  return nullptr;
}

Entrant* FindPlayer(EventResults& r, registry::PlayerId player_id) {
  for (Entrant& e : r.entrants) {
    if (e.player_id == player_id) return &e;
  }
  return nullptr;
}

int NextEntrantId(const EventResults& r) {
  int id = 0;
  for (const Entrant& e : r.entrants) id = std::max(id, e.id.value);
  return id + 1;
}

class Editor {
 public:
  Editor(const EventResults& before, const PlayerDirectory* directory)
      : directory_(directory) {
    out_.results = before;
  }

  absl::Status Run(const ResultsEdit& edit) {
    if (edit.empty())
      return absl::InvalidArgumentError("the edit names no change");
    for (const EntrantEntry& e : edit.add_entrants) {
      absl::Status s = AddEntrant(e);
      if (!s.ok()) return s;
    }
    for (const TeamEntry& t : edit.set_teams) {
      absl::Status s = SetTeam(t);
      if (!s.ok()) return s;
    }
    for (const Game& g : edit.set_games) SetGame(g);
    for (const GameRef& ref : edit.remove_games) RemoveGame(ref);
    for (const Bye& b : edit.set_byes) SetBye(b);
    for (const Withdrawal& w : edit.withdrawals) Withdraw(w);
    for (const TieDecision& d : edit.tie_decisions) Decide(d);
    if (problems_.empty()) return absl::OkStatus();
    std::string message = "the edit cannot be applied:";
    for (const std::string& p : problems_) message += "\n  " + p;
    return absl::InvalidArgumentError(message);
  }

  EditOutcome& outcome() { return out_; }

 private:
  EventResults& r() { return out_.results; }
  void Change(std::string text) { out_.changes.push_back(std::move(text)); }

  // The entrant of `player_id`, entered now if needed; null on a problem.
  absl::StatusOr<Entrant*> EnterPlayer(
      registry::PlayerId player_id, const std::optional<registry::Rank>& rank,
      bool must_be_new) {
    if (Entrant* e = FindPlayer(r(), player_id)) {
      if (must_be_new) {
        problems_.push_back("player " + std::to_string(player_id.value) +
                            " is already entrant " + N(e->id.value));
      }
      return e;
    }
    if (directory_ == nullptr) {
      return absl::FailedPreconditionError(
          "this server cannot read the registry");
    }
    absl::StatusOr<RegisteredPlayer> p = directory_->Get(player_id);
    if (absl::IsNotFound(p.status())) {
      return absl::NotFoundError(
          "player " + std::to_string(player_id.value) +
          " is not registered (rankctl player search NAME)");
    }
    if (!p.ok()) return p.status();
    Entrant e;
    e.id = EntrantId{NextEntrantId(r())};
    e.player_id = player_id;
    e.family_name = p->name.empty() ? p->latin_name : p->name;
    e.rank = rank ? rank : p->rank;
    e.club = p->agency_prefix;
    e.country = "CN";
    r().entrants.push_back(e);
    Change("entrant " + N(e.id.value) + ": player " +
           std::to_string(player_id.value) + " " + e.family_name +
           (e.rank ? " " + e.rank->ToString() : ""));
    return &r().entrants.back();
  }

  absl::Status AddEntrant(const EntrantEntry& entry) {
    if (entry.player_id.has_value()) {
      absl::StatusOr<Entrant*> e =
          EnterPlayer(*entry.player_id, entry.rank, true);
      return e.status();
    }
    Entrant e = entry.guest;
    if (entry.rank) e.rank = entry.rank;
    e.id = EntrantId{NextEntrantId(r())};
    e.player_id.reset();
    if (e.family_name.empty() || !e.rank.has_value()) {
      problems_.push_back("a guest needs a name and a rank");
      return absl::OkStatus();
    }
    r().entrants.push_back(e);
    Change("entrant " + N(e.id.value) + ": guest " + e.DisplayName() + " " +
           e.rank->ToString());
    return absl::OkStatus();
  }

  absl::Status SetTeam(const TeamEntry& entry) {
    int id = entry.id;
    if (id < 0) {
      problems_.push_back("team id " + N(id) + " is negative");
      return absl::OkStatus();
    }
    if (id == 0) {
      for (const Team& t : r().teams) id = std::max(id, t.id.value);
      ++id;
    }
    if (entry.name.empty())
      problems_.push_back("team " + N(id) + ": a team needs a name");
    if (entry.board_player_ids.empty()) {
      problems_.push_back("team " + N(id) +
                          ": give the board order (player ids)");
    }
    Team team{TeamId{id}, entry.name, {}, std::nullopt};
    std::set<registry::PlayerId> seen;
    for (registry::PlayerId pid : entry.board_player_ids) {
      if (!seen.insert(pid).second) {
        problems_.push_back("team " + N(id) + ": player " +
                            std::to_string(pid.value) + " is on two boards");
        continue;
      }
      absl::StatusOr<Entrant*> e = EnterPlayer(pid, std::nullopt, false);
      if (!e.ok()) return e.status();
      if ((*e)->team.has_value() && (*e)->team->value != id) {
        problems_.push_back("team " + N(id) + ": player " +
                            std::to_string(pid.value) + " plays for team " +
                            N((*e)->team->value));
        continue;
      }
      team.board_order.push_back((*e)->id);
    }
    bool replaced = false;
    for (Team& t : r().teams) {
      if (t.id.value != id) continue;
      team.withdrawn_after_round = t.withdrawn_after_round;
      t = team;
      replaced = true;
    }
    if (!replaced) r().teams.push_back(team);
    for (Entrant& e : r().entrants) {
      const bool member =
          std::find(team.board_order.begin(), team.board_order.end(), e.id) !=
          team.board_order.end();
      if (member) {
        e.team = TeamId{id};
      } else if (e.team == TeamId{id}) {
        e.team.reset();
      }
    }
    std::string boards;
    for (EntrantId e : team.board_order)
      boards += (boards.empty() ? "" : ",") + N(e.value);
    Change("team " + N(id) + " " + team.name +
           (replaced ? " replaced" : " added") + ": boards " + boards);
    return absl::OkStatus();
  }

  void SetGame(const Game& g) {
    for (Game& old : r().games) {
      if (old.kind == g.kind && SamePair(old, g.round, g.black, g.white) &&
          (g.board == 0 || old.board == g.board)) {
        Change(GameText(g) + " (was " +
               GameText(old).substr(GameText(old).find(": ") + 2) + ")");
        old = g;
        return;
      }
    }
    r().games.push_back(g);
    Change(GameText(g) + " added");
  }

  void RemoveGame(const GameRef& ref) {
    const auto it = std::find_if(
        r().games.begin(), r().games.end(),
        [&](const Game& g) { return SamePair(g, ref.round, ref.a, ref.b); });
    if (it == r().games.end()) {
      problems_.push_back("round " + N(ref.round) + " has no game " +
                          N(ref.a.value) + "-" + N(ref.b.value) + " to remove");
      return;
    }
    Change(GameText(*it) + " removed");
    r().games.erase(it);
  }

  void SetBye(const Bye& b) {
    for (Bye& old : r().byes) {
      if (old.round == b.round && old.entrant == b.entrant &&
          old.team == b.team) {
        old = b;
        Change("round " + N(b.round) + ": bye of " + N(b.entrant.value) + " (" +
               N(b.points) + " points) replaced");
        return;
      }
    }
    r().byes.push_back(b);
    Change("round " + N(b.round) + ": bye of " + N(b.entrant.value) + " (" +
           N(b.points) + " points) added");
  }

  void Withdraw(const Withdrawal& w) {
    if (w.entrant.has_value() == w.team.has_value()) {
      problems_.push_back("a withdrawal names exactly one entrant or team");
      return;
    }
    if (w.after_round < 0) {
      problems_.push_back("a withdrawal's after_round must be 0 or more");
      return;
    }
    std::optional<int>* slot = nullptr;
    std::string who;
    if (w.entrant) {
      who = "entrant " + N(w.entrant->value);
      if (Entrant* e = FindEntrant(r(), w.entrant->value))
        slot = &e->withdrawn_after_round;
    } else {
      who = "team " + N(w.team->value);
      for (Team& t : r().teams) {
        if (t.id == *w.team) slot = &t.withdrawn_after_round;
      }
    }
    if (slot == nullptr) {
      problems_.push_back("withdrawal of unknown " + who);
      return;
    }
    if (w.undo) {
      slot->reset();
      Change(who + ": withdrawal cancelled");
    } else {
      *slot = w.after_round;
      Change(who + ": withdrew after round " + N(w.after_round));
    }
  }

  void Decide(const TieDecision& d) {
    const std::set<int> ids(d.order.begin(), d.order.end());
    std::string order;
    for (int id : d.order) order += (order.empty() ? "" : ",") + N(id);
    const std::string what =
        std::string(d.method == TieDecisionMethod::kLots ? "lots"
                                                         : "play-off") +
        " " + order;
    if (ids.size() != d.order.size() || ids.size() < 2) {
      problems_.push_back("tie decision " + order +
                          ": name two or more different ids");
      return;
    }
    for (TieDecision& old : r().tie_decisions) {
      if (std::set<int>(old.order.begin(), old.order.end()) == ids) {
        old = d;
        Change(what + " (replaces the earlier decision)");
        return;
      }
    }
    r().tie_decisions.push_back(d);
    Change(what + " recorded");
  }

  const PlayerDirectory* directory_;
  EditOutcome out_;
  std::vector<std::string> problems_;
};

}  // namespace

absl::StatusOr<EditOutcome> ApplyEdit(const EventResults& before,
                                      const ResultsEdit& edit,
                                      const PlayerDirectory* directory) {
  Editor editor(before, directory);
  absl::Status s = editor.Run(edit);
  if (!s.ok()) return s;
  return std::move(editor.outcome());
}

}  // namespace gorank::tournaments
