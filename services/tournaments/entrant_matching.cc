#include "services/tournaments/entrant_matching.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "services/common/status_macros.h"

namespace gorank::tournaments {
namespace {

std::string Lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "wang" -> "Wang" (ASCII only; Chinese is left alone).
std::string Title(std::string s) {
  s = Lower(s);
  if (!s.empty())
    s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::string Upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The name without blanks and underscores, ASCII lower-cased: "Wang Lei",
// "WANG_Lei" and "wanglei" compare equal; "王 磊" equals "王磊".
std::string Key(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '_' || c == '\t') continue;
    out.push_back(
        static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// The spellings a registry may hold for a row's name.
std::vector<std::string> NameVariants(const Entrant& e) {
  const std::string& f = e.family_name;
  const std::string& g = e.given_name;
  std::set<std::string> out;
  const auto add = [&](const std::string& s) {
    if (!s.empty()) out.insert(s);
  };
  add(f + g);
  if (!g.empty()) {
    for (const std::string& fam : {f, Title(f), Upper(f)}) {
      for (const std::string& giv : {g, Title(g)}) {
        add(fam + " " + giv);
        add(giv + " " + fam);
      }
    }
  } else {
    add(Title(f));
  }
  return {out.begin(), out.end()};
}

bool NameFits(const Entrant& e, const RegisteredPlayer& p) {
  const std::string a = Key(e.family_name + e.given_name);
  const std::string b = Key(e.given_name + e.family_name);
  for (const std::string& n : {p.name, p.latin_name}) {
    const std::string k = Key(n);
    if (!k.empty() && (k == a || k == b)) return true;
  }
  return false;
}

bool ClubKnown(const std::string& club) {
  const std::string c = Lower(club);
  return !c.empty() && c != "xxxx" && c != "-" && c != "?";
}

// What differs between the row and the player ("" when everything known
// fits).
std::string Differs(const Entrant& e, const RegisteredPlayer& p) {
  std::vector<std::string> parts;
  if (e.rank.has_value() && p.rank.has_value() && !(*e.rank == *p.rank)) {
    parts.push_back("registered rank " + p.rank->ToString() +
                    ", the file says " + e.rank->ToString());
  }
  if (ClubKnown(e.club)) {
    bool fits = e.club == p.agency_prefix;
    for (const std::string& n : p.agency_names)
      fits = fits || Key(n) == Key(e.club);
    if (!fits) {
      parts.push_back("agency " + p.agency_prefix + ", the file's club is '" +
                      e.club + "'");
    }
  }
  std::string out;
  for (const std::string& s : parts) out += (out.empty() ? "" : "; ") + s;
  return out;
}

std::string Row(const RowMatch& m) {
  std::string s = "row " + std::to_string(m.row);
  if (m.line > 0) s += " (line " + std::to_string(m.line) + ")";
  return s;
}

absl::Status MatchByName(const Entrant& e, const PlayerDirectory& directory,
                         RowMatch& m) {
  std::map<registry::PlayerId, RegisteredPlayer> found;
  for (const std::string& variant : NameVariants(e)) {
    GORANK_ASSIGN_OR_RETURN(std::vector<RegisteredPlayer> players,
                            directory.FindByName(variant));
    for (RegisteredPlayer& p : players) {
      if (NameFits(e, p)) found.emplace(p.id, std::move(p));
    }
  }
  int fitting = 0;
  for (auto& [id, p] : found) {
    PlayerCandidate c{p, Differs(e, p)};
    if (c.differs.empty()) {
      ++fitting;
      m.player_id = id;
    }
    m.candidates.push_back(std::move(c));
  }
  if (fitting == 1) {
    m.state = RowMatchState::kMatched;
  } else {
    m.player_id.reset();
    m.state =
        found.empty() ? RowMatchState::kUnknown : RowMatchState::kAmbiguous;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<RowMatch>> MatchRows(
    const ResultFile& file, const PlayerDirectory& directory,
    const std::vector<RowResolution>& resolutions) {
  const std::vector<Entrant>& entrants = file.results.entrants;
  const int n = static_cast<int>(entrants.size());
  std::vector<std::string> problems;
  std::map<int, RowResolution> by_row;
  for (const RowResolution& r : resolutions) {
    const std::string what = "resolution of row " + std::to_string(r.row);
    if (r.row < 1 || r.row > n) {
      problems.push_back(what + ": the file's rows are 1.." +
                         std::to_string(n));
    } else if ((r.player_id.value > 0) == r.guest || r.player_id.value < 0) {
      problems.push_back(what + ": give either a player id to link or guest");
    } else if (!by_row.emplace(r.row, r).second) {
      problems.push_back(what + ": the row is resolved twice");
    }
  }
  std::vector<RowMatch> out;
  for (int i = 0; i < n; ++i) {
    const Entrant& e = entrants[i];
    RowMatch m;
    m.row = i + 1;
    m.line =
        i < static_cast<int>(file.row_lines.size()) ? file.row_lines[i] : 0;
    m.name = e.DisplayName();
    m.rank = e.rank;
    m.club = e.club;
    const auto resolution = by_row.find(m.row);
    const registry::PlayerId linked =
        resolution != by_row.end() ? resolution->second.player_id
                                   : e.player_id.value_or(registry::PlayerId{});
    if (resolution != by_row.end() && resolution->second.guest) {
      m.state = RowMatchState::kGuest;
    } else if (linked.value > 0) {
      absl::StatusOr<RegisteredPlayer> p = directory.Get(linked);
      if (absl::IsNotFound(p.status())) {
        problems.push_back(Row(m) + ": player " + std::to_string(linked.value) +
                           " is not registered");
      } else if (!p.ok()) {
        return p.status();
      } else {
        m.state = resolution != by_row.end() ? RowMatchState::kLinked
                                             : RowMatchState::kFileId;
        m.player_id = linked;
        // Linked by id: a different name is shown, not refused (names change).
        std::string differs = Differs(e, *p);
        if (!NameFits(e, *p)) {
          differs = "registered as " + p->name +
                    (p->latin_name.empty() ? "" : " / " + p->latin_name) +
                    (differs.empty() ? "" : "; " + differs);
        }
        m.candidates.push_back({*p, differs});
      }
    } else {
      GORANK_RETURN_IF_ERROR(MatchByName(e, directory, m));
    }
    out.push_back(std::move(m));
  }
  std::map<registry::PlayerId, int> row_of;
  for (const RowMatch& m : out) {
    if (!m.player_id) continue;
    auto [it, fresh] = row_of.emplace(*m.player_id, m.row);
    if (!fresh) {
      problems.push_back(Row(m) + ": player " +
                         std::to_string(m.player_id->value) +
                         " is already row " + std::to_string(it->second));
    }
  }
  if (!problems.empty()) {
    std::string message = "the file's rows cannot be linked as given:";
    for (const std::string& p : problems) message += "\n  " + p;
    return absl::InvalidArgumentError(message);
  }
  return out;
}

absl::Status ApplyMatches(std::vector<RowMatch>& matches, bool allow_guests,
                          EventResults& results) {
  // Short, so that a file of many rows still fits an error message: the
  // row number (what a resolution names), the name, the candidates' ids.
  std::string unresolved;
  int count = 0;
  for (const RowMatch& m : matches) {
    if (!m.Unresolved()) continue;
    ++count;
    std::string ids;
    for (const PlayerCandidate& c : m.candidates) {
      ids += (ids.empty() ? "" : ", ") + std::to_string(c.player.id.value);
    }
    unresolved += (unresolved.empty() ? " " : "; ") + std::to_string(m.row) +
                  " " + m.name + " (" +
                  (ids.empty() ? "unknown" : "players " + ids) + ")";
  }
  if (count > 0 && !allow_guests) {
    return absl::FailedPreconditionError(
        std::to_string(count) +
        " row(s) not linked to a registered player, nothing stored (resolve "
        "each with "
        "--link ROW=PLAYER_ID or --guest ROW, or --allow-guests; --dry-run "
        "lists the "
        "candidates); rows:" +
        unresolved);
  }
  for (RowMatch& m : matches) {
    if (m.Unresolved()) m.state = RowMatchState::kGuest;
    Entrant& e = results.entrants[m.row - 1];
    if (m.state == RowMatchState::kGuest) {
      e.player_id.reset();
    } else {
      e.player_id = m.player_id;
    }
  }
  return absl::OkStatus();
}

std::string DescribeRowMatch(const RowMatch& m) {
  std::string s = Row(m) + " " + m.name;
  if (m.rank) s += " " + m.rank->ToString();
  if (!m.club.empty()) s += " " + m.club;
  s += ": ";
  switch (m.state) {
    case RowMatchState::kFileId:
      s += "player " + std::to_string(m.player_id->value) + " (file)";
      break;
    case RowMatchState::kMatched:
      s += "player " + std::to_string(m.player_id->value);
      break;
    case RowMatchState::kLinked:
      s += "player " + std::to_string(m.player_id->value) + " (linked)";
      break;
    case RowMatchState::kGuest:
      s += "guest";
      break;
    case RowMatchState::kAmbiguous:
      s += "ambiguous:";
      break;
    case RowMatchState::kUnknown:
      s += "no registered player of that name";
      break;
  }
  if (m.state == RowMatchState::kAmbiguous) {
    std::string list;
    for (const PlayerCandidate& c : m.candidates) {
      list += (list.empty() ? " " : ", ") + std::string("player ") +
              std::to_string(c.player.id.value) + " " + c.player.name;
      if (!c.player.latin_name.empty()) list += " / " + c.player.latin_name;
      list += " " + c.player.agency_prefix;
      if (c.player.rank) list += " " + c.player.rank->ToString();
      if (!c.differs.empty()) list += " (" + c.differs + ")";
    }
    s += list;
  }
  return s;
}

}  // namespace gorank::tournaments
