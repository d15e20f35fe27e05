// rankd's CSV cross table (RFC 4180 quoting, UTF-8). Documented in
// RESULT_FORMATS.md; in short:
//
//   # any line starting with '#' is a comment (not inside the header)
//   row,family_name,given_name,rank,country,club,egd_pin,player_id,withdrawn_after,r1,r2,...,rR
//   1,Qian,Ming,1d,CN,Bjng,19990002,,,4=/w0,3+/b0,2-/w0,5+/w0,6+!b0
//
// `row` is 1..N in file order and is what the result cells name;
// `player_id` is the registry id (blank for a guest); `withdrawn_after` is
// the number of rounds completed before a withdrawal (blank: none); the
// cells use the EGF cell syntax of cross_table.h.
#include <algorithm>

#include "services/tournaments/cross_table.h"
#include "services/tournaments/data_table.h"
#include "services/tournaments/result_file.h"

namespace gorank::tournaments {
namespace {

constexpr const char* kFixedColumns[] = {
    "row",  "family_name", "given_name", "rank",           "country",
    "club", "egd_pin",     "player_id",  "withdrawn_after"};
constexpr size_t kFixed = 9;

// Splits one CSV line; false on an unterminated quote.
bool SplitCsv(const std::string& line, std::vector<std::string>& fields) {
  fields.assign(1, "");
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return !quoted;
}

std::string Quote(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

bool ParseInt(const std::string& s, int64_t& value) {
  if (s.empty() || s.size() > 18 ||
      !std::all_of(s.begin(), s.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  value = std::stoll(s);
  return true;
}

int CheckHeader(const std::vector<std::string>& f, int line,
                std::vector<std::string>& problems) {
  bool ok = f.size() >= kFixed;
  for (size_t i = 0; ok && i < kFixed; ++i) ok = f[i] == kFixedColumns[i];
  for (size_t i = kFixed; ok && i < f.size(); ++i) {
    ok = f[i] == "r" + std::to_string(i - kFixed + 1);
  }
  if (!ok) {
    problems.push_back("line " + std::to_string(line) +
                       ": header must be row,family_name,given_name,rank,"
                       "country,club,egd_pin,player_id,withdrawn_after,r1..rR");
    return -1;
  }
  return static_cast<int>(f.size() - kFixed);
}

void ReadRow(const std::vector<std::string>& f, int line, int rounds,
             std::vector<CrossTableRow>& rows,
             std::vector<std::string>& problems) {
  const std::string where = "line " + std::to_string(line) + ": ";
  if (static_cast<int>(f.size()) != static_cast<int>(kFixed) + rounds) {
    problems.push_back(
        where +
        std::to_string(static_cast<int>(f.size()) - static_cast<int>(kFixed)) +
        " round results, expected " + std::to_string(rounds));
    return;
  }
  CrossTableRow row;
  row.line = line;
  int64_t number = 0;
  if (!ParseInt(f[0], number) ||
      number != static_cast<int64_t>(rows.size()) + 1) {
    problems.push_back(
        where + "row must be " + std::to_string(rows.size() + 1) +
        " (rows are numbered 1..N in file order), got '" + f[0] + "'");
  }
  row.family_name = f[1];
  row.given_name = f[2];
  row.rank = f[3];
  row.country = f[4];
  row.club = f[5];
  row.egd_pin = f[6];
  int64_t v = 0;
  if (!f[7].empty()) {
    if (ParseInt(f[7], v))
      row.player_id = registry::PlayerId{v};
    else
      problems.push_back(where + "player_id '" + f[7] + "' is not a number");
  }
  if (!f[8].empty()) {
    if (ParseInt(f[8], v) && v < 1000)
      row.withdrawn_after_round = static_cast<int>(v);
    else
      problems.push_back(where + "withdrawn_after '" + f[8] +
                         "' is not a round number");
  }
  if (row.family_name.empty())
    problems.push_back(where + "family_name is empty");
  row.cells.assign(f.begin() + kFixed, f.end());
  rows.push_back(std::move(row));
}

}  // namespace

absl::StatusOr<ResultFile> ReadCsv(const std::string& text) {
  std::vector<std::string> problems;
  std::vector<CrossTableRow> rows;
  int rounds = -1;
  int line = 0;
  for (std::string raw : SplitString(text, '\n')) {
    ++line;
    // rankctl's export and Excel's "CSV UTF-8" start with a BOM.
    if (line == 1 && raw.rfind("\xEF\xBB\xBF", 0) == 0) raw.erase(0, 3);
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (raw.empty() || raw[0] == '#') continue;
    std::vector<std::string> fields;
    if (!SplitCsv(raw, fields)) {
      problems.push_back("line " + std::to_string(line) +
                         ": unterminated quote");
      continue;
    }
    if (rounds < 0) {
      rounds = CheckHeader(fields, line, problems);
      if (rounds < 0) break;
      continue;
    }
    ReadRow(fields, line, rounds, rows, problems);
  }
  if (rounds >= 0 && rows.empty()) {
    problems.push_back("line " + std::to_string(line) + ": no player rows");
  } else if (rounds < 0 && problems.empty()) {
    problems.push_back("line 1: empty file; the header row is required");
  }
  ResultFile file;
  if (problems.empty()) {
    file.results = BuildResultsFromCrossTable(rows, rounds, problems);
  }
  if (!problems.empty())
    return ProblemsStatus("CSV results file refused", problems);
  for (const CrossTableRow& r : rows) file.row_lines.push_back(r.line);
  file.event.format.rounds = rounds;
  return file;
}

absl::StatusOr<std::string> WriteCsv(const Event& event,
                                     const EventResults& stored) {
  // The cells agree with the totals: voided games go, implied forfeits
  // come in; withdrawn_after keeps the withdrawal itself.
  absl::StatusOr<EventResults> counted = CountedResults(event, stored);
  if (!counted.ok()) return counted.status();
  const EventResults& results = *counted;
  std::vector<int> order;
  for (const Entrant& e : results.entrants) {
    if (!e.rank.has_value()) {
      return absl::FailedPreconditionError("entrant " + e.DisplayName() +
                                           " has no rank; CSV rows need one");
    }
    order.push_back(e.id.value);
  }
  std::sort(order.begin(), order.end());
  const int rounds = RoundsOf(event, results);
  auto cells = CrossTableCells(results, order, rounds);
  if (!cells.ok()) return cells.status();
  std::string out;
  for (const char* c : kFixedColumns)
    out += std::string(out.empty() ? "" : ",") + c;
  for (int r = 1; r <= rounds; ++r) out += ",r" + std::to_string(r);
  out += "\n";
  for (size_t k = 0; k < order.size(); ++k) {
    const Entrant& e =
        *std::find_if(results.entrants.begin(), results.entrants.end(),
                      [&](const Entrant& x) { return x.id.value == order[k]; });
    std::vector<std::string> f = {
        std::to_string(k + 1),
        e.family_name,
        e.given_name,
        e.rank->ToString(),
        e.country,
        e.club,
        e.egd_pin,
        e.player_id.has_value() ? std::to_string(e.player_id->value) : "",
        e.withdrawn_after_round.has_value()
            ? std::to_string(*e.withdrawn_after_round)
            : ""};
    f.insert(f.end(), (*cells)[k].begin(), (*cells)[k].end());
    std::string line;
    for (const std::string& s : f) line += (line.empty() ? "" : ",") + Quote(s);
    out += line + "\n";
  }
  return out;
}

}  // namespace gorank::tournaments
