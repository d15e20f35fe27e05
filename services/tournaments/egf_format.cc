// EGF results format reader and writer. Layout written (fixed width, as
// OpenGotha and pairgoth write it): place (the row number) right-aligned in
// 4, name in 30, rank right-aligned in 3, country 2, club, each criterion
// right-aligned in 4, each round's cell right-aligned in 8, then " |PIN".
#include <algorithm>
#include <cctype>
#include <map>

#include "services/tournaments/cross_table.h"
#include "services/tournaments/data_table.h"
#include "services/tournaments/result_file.h"

namespace gorank::tournaments {
namespace {

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> Tokens(const std::string& s) {
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    p = s.find_first_not_of(" \t\r", p);
    if (p == std::string::npos) break;
    const size_t e = s.find_first_of(" \t\r", p);
    out.push_back(s.substr(p, e - p));
    if (e == std::string::npos) break;
    p = e;
  }
  return out;
}

bool RankLike(const std::string& t) {
  if (t.empty() || t.size() > 3) return false;
  size_t digits = 0;
  while (digits < t.size() &&
         std::isdigit(static_cast<unsigned char>(t[digits])))
    ++digits;
  if (digits == 0 || digits > 2) return false;
  return digits == t.size() ||
         (digits + 1 == t.size() && std::strchr("kKdDpP", t.back()) != nullptr);
}

// "7.5" -> 15 half points; nullopt unless a multiple of 0.5.
std::optional<int> ParseHalfPoints(const std::string& text) {
  const std::string t = Trim(text);
  const bool negative = !t.empty() && t[0] == '-';
  const std::string body = negative ? t.substr(1) : t;
  const size_t dot = body.find('.');
  const std::string whole = body.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : body.substr(dot + 1);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  if (!AllDigits(whole) || whole.size() > 4 || (frac != "" && frac != "5")) {
    return std::nullopt;
  }
  const int v = std::stoi(whole) * 2 + (frac == "5" ? 1 : 0);
  return negative ? -v : v;
}

bool IsDecimal(const std::string& t) {
  const size_t dot = t.find('.');
  if (dot == std::string::npos) return AllDigits(t);
  return AllDigits(t.substr(0, dot)) && AllDigits(t.substr(dot + 1));
}

void ReadHeader(const std::string& tag, const std::string& value, int line,
                ResultFile& file, std::vector<std::string>& problems) {
  const std::string where = "line " + std::to_string(line) + ": ";
  Event& e = file.event;
  if (tag == "CL") {
    auto c = ParseTimeClassCode(Trim(value));
    if (c.ok())
      e.time.time_class = *c;
    else
      problems.push_back(where + "CL[" + value +
                         "]: class must be A, B, C, D or X");
  } else if (tag == "EV") {
    e.name = value;
  } else if (tag == "PC") {
    const size_t comma = value.find(',');
    e.country = Trim(value.substr(0, comma));
    if (comma != std::string::npos) e.city = Trim(value.substr(comma + 1));
  } else if (tag == "DT") {
    const std::vector<std::string> parts = SplitString(value, ',');
    for (size_t i = 0; i < parts.size() && i < 2; ++i) {
      auto d = Date::Parse(Trim(parts[i]));
      if (!d.ok()) {
        problems.push_back(where + "DT[" + value +
                           "]: dates must be YYYY-MM-DD");
        return;
      }
      (i == 0 ? e.start : e.end) = *d;
    }
    if (parts.size() == 1) e.end = e.start;
  } else if (tag == "HA") {
    std::string v = Trim(value);
    if (!v.empty() && (v[0] == 'h' || v[0] == 'H')) v.erase(0, 1);
    if (AllDigits(v) && v.size() <= 2)
      e.rules.handicap_reduction = std::stoi(v);
    else
      problems.push_back(where + "HA[" + value +
                         "]: expected h<number>, e.g. h9");
  } else if (tag == "KM") {
    auto k = ParseHalfPoints(value);
    if (k.has_value())
      e.rules.komi_x2 = *k;
    else
      problems.push_back(where + "KM[" + value +
                         "]: komi must be a multiple of 0.5");
  } else if (tag == "TM") {
    if (IsDecimal(Trim(value)))
      e.time.adjusted_minutes = Trim(value);
    else
      problems.push_back(where + "TM[" + value + "]: minutes must be a number");
  } else if (tag == "CM") {
    e.time.system = value;
  } else {
    file.comments.push_back(tag + "[" + value + "]");
  }
}

// A player line split into its fixed fields; `rest` = criteria + results.
bool ReadRow(const std::string& text, int line, CrossTableRow& row,
             std::vector<std::string>& rest,
             std::vector<std::string>& problems) {
  std::vector<std::string> t = Tokens(text.substr(0, text.find(';')));
  row.line = line;
  if (!t.empty() && t.back().size() > 1 && t.back()[0] == '|') {
    row.egd_pin = t.back().substr(1);
    t.pop_back();
  }
  size_t i = (!t.empty() && AllDigits(t[0])) ? 1 : 0;
  size_t rank_at = i + 2;  // "Surname Given" when no rank-like token found
  for (size_t k = i + 1; k < t.size() && k <= i + 3; ++k) {
    if (RankLike(t[k])) {
      rank_at = k;
      break;
    }
  }
  if (rank_at + 2 >= t.size()) {
    problems.push_back("line " + std::to_string(line) +
                       ": a player row needs place, name, rank, country and "
                       "club before the results");
    return false;
  }
  row.family_name = t[i];
  for (size_t k = i + 1; k < rank_at; ++k) {
    row.given_name += (row.given_name.empty() ? "" : " ") + t[k];
  }
  row.rank = t[rank_at];
  row.country = t[rank_at + 1];
  row.club = t[rank_at + 2];
  rest.assign(t.begin() + rank_at + 3, t.end());
  return true;
}

size_t TrailingCells(const std::vector<std::string>& rest) {
  size_t n = 0;
  while (n < rest.size() && ParseResultCell(rest[rest.size() - 1 - n])) ++n;
  return n;
}

// R = the most common trailing run (a criterion such as "0=" may lengthen a
// run by one; a genuine extra result is reported).
int SplitRounds(std::vector<CrossTableRow>& rows,
                const std::vector<std::vector<std::string>>& rests,
                std::vector<std::string>& problems) {
  std::map<size_t, int> count;
  for (const auto& rest : rests) ++count[TrailingCells(rest)];
  size_t rounds = 0;
  int best = -1;
  for (const auto& [len, c] : count) {
    if (c >= best) {
      rounds = len;
      best = c;
    }
  }
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& rest = rests[k];
    const size_t run = TrailingCells(rest);
    bool wrong = run < rounds;
    if (run > rounds) {
      const auto extra = ParseResultCell(rest[rest.size() - rounds - 1]);
      wrong = extra->opponent != 0 || rest[rest.size() - rounds - 1].size() > 2;
    }
    if (wrong) {
      problems.push_back("line " + std::to_string(rows[k].line) + ": " +
                         std::to_string(run) + " round results, expected " +
                         std::to_string(rounds) + " like the other rows");
    }
    const size_t take = std::min(run, rounds);
    rows[k].criteria.assign(rest.begin(), rest.end() - take);
    rows[k].cells.assign(rest.end() - take, rest.end());
    rows[k].cells.resize(rounds, "0-");
  }
  return static_cast<int>(rounds);
}

std::string Pad(const std::string& s, size_t width, bool right) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

std::string NameField(const Entrant& e) {
  std::string name = e.family_name;
  std::replace(name.begin(), name.end(), ' ', '_');
  if (!e.given_name.empty()) {
    std::string given = e.given_name;
    std::replace(given.begin(), given.end(), ' ', '_');
    name += " " + given;
  }
  return name;
}

// EGF column title and value for a standings criterion; "" title = skip.
std::pair<std::string, Rational> Column(const std::string& name, Rational v) {
  if (name == kCritPoints) return {"NBW", v / Rational(2)};
  if (name == kCritRuleA) return {"SBcn", v};
  if (name == kCritSos) return {"SOS", v};
  if (name == kCritTotal) return {"TOT", v};
  if (name == kCritWarnings) return {"WARN", v};
  if (name == kCritTiesWon) return {"TW", v};
  if (name == kCritEliminatedIn) return {"OUT", v};
  return {name, v};
}

// No game over the board in the row's last rounds: absent ("0-") or lost
// by forfeit. EGF cannot say "withdrew", so the director is asked.
void WarnTrailingAbsences(const std::vector<CrossTableRow>& rows,
                          const EventResults& results, ResultFile& file) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<std::string>& cells = rows[i].cells;
    size_t run = 0;
    while (run < cells.size()) {
      const auto c = ParseResultCell(cells[cells.size() - 1 - run]);
      const bool no_game = c.has_value() && c->outcome == '-' &&
                           (c->opponent == 0 || c->forfeit);
      if (!no_game) break;
      ++run;
    }
    if (run == 0) continue;
    const int row = static_cast<int>(i) + 1;
    const int last = static_cast<int>(cells.size());
    const int first = last - static_cast<int>(run) + 1;
    const std::string rounds =
        first == last
            ? "round " + std::to_string(last)
            : "rounds " + std::to_string(first) + "-" + std::to_string(last);
    file.warnings.push_back(
        {row, "line " + std::to_string(rows[i].line) + ", row " +
                  std::to_string(row) + " (" +
                  results.entrants[i].DisplayName() +
                  "): no game over the board in " + rounds +
                  "; an EGF file cannot say \"withdrew\": if the player "
                  "withdrew, import with --withdrawn " +
                  std::to_string(row) + "=" + std::to_string(first - 1) +
                  " (or use the CSV file's withdrawn_after column)"});
  }
}

}  // namespace

absl::StatusOr<ResultFile> ReadEgf(const std::string& text) {
  ResultFile file;
  std::vector<std::string> problems;
  std::vector<CrossTableRow> rows;
  std::vector<std::vector<std::string>> rests;
  int line = 0;
  for (std::string raw : SplitString(text, '\n')) {
    ++line;
    // A file saved as "UTF-8 with BOM" (Notepad, Excel).
    if (line == 1 && raw.rfind("\xEF\xBB\xBF", 0) == 0) raw.erase(0, 3);
    const std::string s = Trim(raw);
    if (s.empty()) continue;
    if (s[0] == ';') {
      const std::string body = Trim(s.substr(1));
      const size_t close = body.find(']');
      if (body.size() >= 4 &&
          std::isupper(static_cast<unsigned char>(body[0])) &&
          std::isupper(static_cast<unsigned char>(body[1])) && body[2] == '[' &&
          close != std::string::npos) {
        ReadHeader(body.substr(0, 2), body.substr(3, close - 3), line, file,
                   problems);
      } else if (body.rfind("Pl ", 0) == 0) {
        const std::vector<std::string> t = Tokens(body);
        const auto club = std::find(t.begin(), t.end(), "Club");
        if (club != t.end()) file.criteria_titles.assign(club + 1, t.end());
      } else if (!body.empty()) {
        file.comments.push_back(body);
      }
      continue;
    }
    CrossTableRow row;
    std::vector<std::string> rest;
    if (ReadRow(s, line, row, rest, problems)) {
      rows.push_back(std::move(row));
      rests.push_back(std::move(rest));
    }
  }
  if (rows.empty() && problems.empty()) {
    problems.push_back("line " + std::to_string(line) + ": no player rows");
  }
  const int rounds = SplitRounds(rows, rests, problems);
  file.results = BuildResultsFromCrossTable(rows, rounds, problems);
  if (!problems.empty())
    return ProblemsStatus("EGF results file refused", problems);
  for (const CrossTableRow& r : rows) file.row_lines.push_back(r.line);
  file.event.format.rounds = rounds;
  WarnTrailingAbsences(rows, file.results, file);
  return file;
}

absl::StatusOr<std::string> WriteEgf(const Event& event,
                                     const EventResults& stored,
                                     const Standings* standings,
                                     const std::vector<std::string>& comments) {
  if (standings != nullptr && standings->teams) {
    return absl::FailedPreconditionError(
        "EGF files list players; export the games of a team event without "
        "team standings");
  }
  // The cells must agree with the totals: voided games go, implied
  // forfeits come in.
  absl::StatusOr<EventResults> counted = CountedResults(event, stored);
  if (!counted.ok()) return counted.status();
  const EventResults& results = *counted;
  std::vector<int> order;
  std::vector<std::pair<std::string, size_t>> columns;  // title, index
  std::map<int, const StandingRow*> row_of;
  if (standings != nullptr) {
    for (const StandingRow& r : standings->rows) {
      order.push_back(r.id);
      row_of[r.id] = &r;
    }
    for (size_t c = 0; c < standings->criteria_names.size(); ++c) {
      const std::string& name = standings->criteria_names[c];
      const bool any = std::any_of(
          standings->rows.begin(), standings->rows.end(),
          [&](const StandingRow& r) { return r.criteria[c] != Rational(0); });
      if (name == kCritWarnings && !any) continue;
      columns.push_back({Column(name, 0).first, c});
    }
  }
  std::map<int, const Entrant*> entrant;
  for (const Entrant& e : results.entrants) {
    entrant[e.id.value] = &e;
    if (!e.rank.has_value()) {
      return absl::FailedPreconditionError("entrant " + e.DisplayName() +
                                           " has no rank; EGF rows need one");
    }
    if (!row_of.count(e.id.value)) order.push_back(e.id.value);
  }
  const int rounds = RoundsOf(event, results);
  auto cells = CrossTableCells(results, order, rounds);
  if (!cells.ok()) return cells.status();

  std::string out;
  auto put = [&out](const std::string& s) { out += s + "\n"; };
  const std::string cl = TimeClassCode(event.time.time_class);
  if (!cl.empty()) put("; CL[" + cl + "]");
  put("; EV[" + event.name + "]");
  if (!event.country.empty() || !event.city.empty()) {
    put("; PC[" + event.country +
        (event.city.empty() ? "" : ", " + event.city) + "]");
  }
  if (event.start.IsValid()) {
    const Date end = event.end.IsValid() ? event.end : event.start;
    put("; DT[" + event.start.ToString() + "," + end.ToString() + "]");
  }
  put("; HA[h" + std::to_string(event.rules.handicap_reduction) + "]");
  put("; KM[" + Rational(event.rules.komi_x2, 2).ToString() + "]");
  if (!event.time.adjusted_minutes.empty())
    put("; TM[" + event.time.adjusted_minutes + "]");
  if (!event.time.system.empty()) put("; CM[" + event.time.system + "]");
  for (const std::string& c : comments) put("; " + c);
  put(";");
  std::string title =
      "; Pl " + Pad("Name", 30, false) + " " + Pad("Rk", 3, true) + " Co Club ";
  for (const auto& [name, index] : columns) title += " " + Pad(name, 4, true);
  while (title.back() == ' ') title.pop_back();
  put(title);
  for (size_t k = 0; k < order.size(); ++k) {
    const Entrant& e = *entrant[order[k]];
    std::string club = e.club.empty() ? "xxxx" : e.club;
    std::replace(club.begin(), club.end(), ' ', '_');
    std::string line = Pad(std::to_string(k + 1), 4, true) + " " +
                       Pad(NameField(e), 30, false) + " " +
                       Pad(e.rank->ToString(), 3, true) + " " +
                       (e.country.empty() ? "XX" : e.country) + " " +
                       Pad(club, 4, false);
    const StandingRow* row =
        row_of.count(e.id.value) ? row_of[e.id.value] : nullptr;
    for (const auto& [name, index] : columns) {
      const Rational v = row != nullptr ? row->criteria[index] : Rational(0);
      // One number a column: a non-terminating value as a rounded decimal.
      line +=
          " " +
          Pad(Column(standings->criteria_names[index], v).second.ToDecimal(2),
              4, true);
    }
    for (const std::string& cell : (*cells)[k])
      line += " " + Pad(cell, 8, true);
    if (!e.egd_pin.empty()) line += " |" + e.egd_pin;
    put(line);
  }
  return out;
}

}  // namespace gorank::tournaments
