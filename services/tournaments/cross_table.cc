#include "services/tournaments/cross_table.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

#include "services/tournaments/result_file.h"

namespace gorank::tournaments {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string Underscores(std::string s, char from, char to) {
  std::replace(s.begin(), s.end(), from, to);
  return s;
}

char Mirror(char outcome) {
  if (outcome == '+') return '-';
  if (outcome == '-') return '+';
  return outcome;
}

std::string At(const CrossTableRow& row, int round) {
  return "line " + std::to_string(row.line) + ": round " +
         std::to_string(round) + ": ";
}

void AddEntrants(const std::vector<CrossTableRow>& rows, EventResults& results,
                 std::vector<std::string>& problems) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const CrossTableRow& row = rows[i];
    Entrant e;
    e.id = EntrantId{static_cast<int>(i) + 1};
    e.family_name = Underscores(row.family_name, '_', ' ');
    e.given_name = Underscores(row.given_name, '_', ' ');
    std::string rank = row.rank;
    if (!rank.empty() && std::all_of(rank.begin(), rank.end(), IsDigit)) {
      rank += "k";  // EGD data: a rank without a letter is a kyu grade
    }
    auto parsed = registry::Rank::Parse(rank);
    if (parsed.ok()) {
      e.rank = *parsed;
    } else {
      problems.push_back("line " + std::to_string(row.line) + ": bad rank '" +
                         row.rank + "' (expected e.g. 5k, 3d, 9p)");
    }
    e.country = row.country;
    e.club = row.club;
    e.egd_pin = row.egd_pin;
    e.player_id = row.player_id;
    e.withdrawn_after_round = row.withdrawn_after_round;
    results.entrants.push_back(std::move(e));
  }
}

// Checks that row j's cell mirrors row i's; i < j.
bool Symmetric(const ResultCell& a, const ResultCell& b, std::string& why) {
  const bool double_forfeit =
      a.outcome == '-' && b.outcome == '-' && a.forfeit && b.forfeit;
  if (b.outcome != Mirror(a.outcome) && !double_forfeit) {
    why = std::string("results do not match ('") + a.outcome + "' against '" +
          b.outcome + "')";
    return false;
  }
  if (a.forfeit != b.forfeit) {
    why = "forfeit marked on one side only";
    return false;
  }
  if (a.colour != '?' && b.colour != '?' && a.colour == b.colour) {
    why = std::string("both sides played ") +
          (a.colour == 'w' ? "white" : "black");
    return false;
  }
  if (a.handicap != b.handicap) {
    why = "handicaps differ (" + std::to_string(a.handicap) + " and " +
          std::to_string(b.handicap) + ")";
    return false;
  }
  return true;
}

Game MakeGame(int round, int i, int j, const ResultCell& a,
              const ResultCell& b) {
  Game g;
  g.round = round;
  const bool i_black = a.colour == 'b' || (a.colour == '?' && b.colour == 'w');
  g.colours_known = a.colour != '?' || b.colour != '?';
  g.black = EntrantId{i_black || !g.colours_known ? i : j};
  g.white = EntrantId{g.black.value == i ? j : i};
  const bool i_is_black = g.black.value == i;
  g.forfeit = a.forfeit;
  g.handicap = a.handicap;
  switch (a.outcome) {
    case '+':
      g.outcome = i_is_black ? Outcome::kBlackWins : Outcome::kWhiteWins;
      break;
    case '-':
      g.outcome = b.outcome == '-' ? Outcome::kBothLose
                                   : (i_is_black ? Outcome::kWhiteWins
                                                 : Outcome::kBlackWins);
      break;
    case '=':
      g.outcome = Outcome::kDraw;
      break;
    default:
      g.outcome = Outcome::kUnknown;
  }
  return g;
}

}  // namespace

std::optional<ResultCell> ParseResultCell(const std::string& text) {
  size_t p = 0;
  while (p < text.size() && IsDigit(text[p])) ++p;
  if (p == 0 || p > 5 || p >= text.size()) return std::nullopt;
  ResultCell cell;
  cell.opponent = std::stoi(text.substr(0, p));
  const char o = text[p++];
  if (o != '+' && o != '-' && o != '=' && o != '?') return std::nullopt;
  cell.outcome = o;
  if (p < text.size() && (text[p] == '/' || text[p] == '!')) {
    cell.forfeit = text[p] == '!';
    ++p;
  }
  if (p < text.size() && std::strchr("wbWB?", text[p]) != nullptr) {
    cell.colour = static_cast<char>(std::tolower(text[p]));
    ++p;
  }
  if (p < text.size() && (text[p] == 'h' || text[p] == 'H')) ++p;
  const size_t digits = p;
  while (p < text.size() && IsDigit(text[p])) ++p;
  if (p > digits) {
    if (p - digits > 2) return std::nullopt;
    cell.handicap = std::stoi(text.substr(digits, p - digits));
  }
  if (p < text.size() && text[p] == '!') {
    cell.forfeit = true;
    ++p;
  }
  if (p != text.size()) return std::nullopt;
  return cell;
}

std::string FormatResultCell(const ResultCell& c) {
  std::string out = std::to_string(c.opponent) + c.outcome;
  if (c.opponent == 0) return out;
  out += c.forfeit ? '!' : '/';
  out += c.colour;
  out += std::to_string(c.handicap);
  return out;
}

EventResults BuildResultsFromCrossTable(const std::vector<CrossTableRow>& rows,
                                        int rounds,
                                        std::vector<std::string>& problems) {
  EventResults results;
  AddEntrants(rows, results, problems);
  const int n = static_cast<int>(rows.size());
  // cells[i][r], parsed; nullopt where unparsable (already reported).
  std::vector<std::vector<std::optional<ResultCell>>> cells(n);
  for (int i = 0; i < n; ++i) {
    for (int r = 1; r <= rounds; ++r) {
      const std::string& text = rows[i].cells[r - 1];
      auto cell = ParseResultCell(text);
      if (!cell.has_value()) {
        problems.push_back(At(rows[i], r) + "cannot read result '" + text +
                           "'");
      } else if (cell->opponent > n || cell->opponent == i + 1) {
        problems.push_back(At(rows[i], r) + "unknown opponent row " +
                           std::to_string(cell->opponent) + " (rows are 1.." +
                           std::to_string(n) + ", not the player's own)");
        cell.reset();
      }
      cells[i].push_back(cell);
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int r = 1; r <= rounds; ++r) {
      const auto& a = cells[i][r - 1];
      if (!a.has_value()) continue;
      if (a->opponent == 0) {
        if (a->outcome == '?') {
          problems.push_back(At(rows[i], r) + "'0?' is not a result");
        } else if (a->outcome != '-') {
          results.byes.push_back(Bye{r, EntrantId{i + 1}, std::nullopt,
                                     a->outcome == '+' ? 2 : 1});
        }
        continue;
      }
      const int j = a->opponent - 1;
      const auto& b = cells[j][r - 1];
      if (!b.has_value()) continue;
      if (b->opponent != i + 1) {
        problems.push_back(At(rows[i], r) + "names row " +
                           std::to_string(j + 1) + " as opponent, but row " +
                           std::to_string(j + 1) + " (line " +
                           std::to_string(rows[j].line) + ") names row " +
                           std::to_string(b->opponent));
        continue;
      }
      if (j < i) continue;  // checked and built from the lower row
      std::string why;
      if (!Symmetric(*a, *b, why)) {
        problems.push_back(At(rows[i], r) + "game against row " +
                           std::to_string(j + 1) + " (line " +
                           std::to_string(rows[j].line) + "): " + why);
        continue;
      }
      results.games.push_back(MakeGame(r, i + 1, j + 1, *a, *b));
    }
  }
  return results;
}

absl::StatusOr<std::vector<std::vector<std::string>>> CrossTableCells(
    const EventResults& results, const std::vector<int>& order, int rounds) {
  std::map<int, int> row_of;
  for (size_t k = 0; k < order.size(); ++k) row_of[order[k]] = k + 1;
  // (entrant, round) -> cell
  std::map<std::pair<int, int>, ResultCell> cell;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) continue;
    if (g.outcome == Outcome::kUnknown) {
      return absl::FailedPreconditionError(
          "round " + std::to_string(g.round) + " game " +
          std::to_string(g.black.value) + " v " +
          std::to_string(g.white.value) +
          " has no result yet; unknown results are never exported");
    }
    if (!row_of.count(g.black.value) || !row_of.count(g.white.value)) {
      return absl::FailedPreconditionError(
          "a game names an entrant not in "
          "the export order");
    }
    for (bool black : {true, false}) {
      ResultCell c;
      const EntrantId self = black ? g.black : g.white;
      const EntrantId other = black ? g.white : g.black;
      c.opponent = row_of[other.value];
      const int p = GamePoints(g, black);
      c.outcome = p == 2 ? '+' : p == 1 ? '=' : '-';
      c.forfeit = g.forfeit;
      c.colour = !g.colours_known ? '?' : black ? 'b' : 'w';
      c.handicap = g.handicap;
      cell[{self.value, g.round}] = c;
    }
  }
  for (const Bye& b : results.byes) {
    ResultCell c;
    c.outcome = b.points == 2 ? '+' : b.points == 1 ? '=' : '-';
    cell[{b.entrant.value, b.round}] = c;
  }
  std::vector<std::vector<std::string>> out;
  for (int id : order) {
    std::vector<std::string> row;
    for (int r = 1; r <= rounds; ++r) {
      auto it = cell.find({id, r});
      row.push_back(it == cell.end() ? "0-" : FormatResultCell(it->second));
    }
    out.push_back(std::move(row));
  }
  return out;
}

int RoundsOf(const Event& event, const EventResults& results) {
  int rounds = event.format.rounds;
  for (const Game& g : results.games) rounds = std::max(rounds, g.round);
  for (const Bye& b : results.byes) rounds = std::max(rounds, b.round);
  return rounds;
}

absl::Status ApplyWithdrawals(
    const std::vector<std::pair<int, int>>& withdrawals, ResultFile& file) {
  std::vector<std::string> problems;
  std::set<int> seen;
  const int n = static_cast<int>(file.results.entrants.size());
  const int rounds = file.event.format.rounds;
  for (const auto& [row, after] : withdrawals) {
    const std::string what = "withdrawal " + std::to_string(row) + "=" +
                             std::to_string(after) + ": ";
    if (row < 1 || row > n) {
      problems.push_back(what + "the file's rows are 1.." + std::to_string(n));
    } else if (after < 0 || after > rounds) {
      problems.push_back(what + "the round must be 0.." +
                         std::to_string(rounds) +
                         " (rounds completed before the withdrawal)");
    } else if (!seen.insert(row).second) {
      problems.push_back(what + "row " + std::to_string(row) +
                         " is given twice");
    } else {
      file.results.entrants[row - 1].withdrawn_after_round = after;
    }
  }
  if (!problems.empty()) return ProblemsStatus("withdrawals refused", problems);
  std::erase_if(file.warnings,
                [&](const FileWarning& w) { return seen.count(w.row) > 0; });
  return absl::OkStatus();
}

absl::Status ProblemsStatus(const std::string& title,
                            const std::vector<std::string>& problems) {
  std::string message = title + " (" + std::to_string(problems.size()) +
                        (problems.size() == 1 ? " problem):" : " problems):");
  for (const std::string& p : problems) message += "\n  " + p;
  return absl::InvalidArgumentError(message);
}

}  // namespace gorank::tournaments
