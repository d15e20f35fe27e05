#include "services/ratings/rating_import.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "services/registry/resident_id.h"

namespace gorank::ratings {
namespace {

using Kind = PlayerLookup::Kind;

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
}

// A positive decimal id without leading zeros, or "".
std::string CanonicalId(const std::string& digits) {
  if (!AllDigits(digits) || digits.size() > 15) return "";
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return "";
  return digits.substr(first);
}

// Shortest text of a rating for messages ("2150", "2150.5").
std::string Num(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// A decimal number as people write it: optional sign, digits, optional
// point and digits. No exponent, no "nan"/"inf", no separators.
std::optional<double> ParseDecimal(const std::string& text) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  size_t digits = 0;
  bool point = false;
  for (size_t j = i; j < text.size(); ++j) {
    if (text[j] >= '0' && text[j] <= '9') {
      ++digits;
    } else if (text[j] == '.' && !point) {
      point = true;
    } else {
      return std::nullopt;
    }
  }
  if (digits == 0 || text.size() - i > 40) return std::nullopt;
  double v = 0;
  const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(v)) {
    return std::nullopt;
  }
  return v == 0.0 ? 0.0 : v;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base.empty() ? "(unnamed file)" : base;
}

std::string Describe(const PlayerMatch& m) {
  switch (m.kind) {
    case Kind::kId:
      return absl::StrCat("player ", m.player.value, " (player id)");
    case Kind::kResidentId:
      return absl::StrCat("player ", m.player.value, " (resident ID)");
    case Kind::kExternalId:
      return absl::StrCat("player ", m.player.value, " (external id of agency ",
                          m.agency_prefix, ")");
  }
  return "";
}

std::string StartText(const RatingStart& s) {
  std::string t = "gor " + Num(s.gor);
  if (s.pro_elo) absl::StrAppend(&t, ", pro_rating ", Num(*s.pro_elo));
  absl::StrAppend(&t, " as of ", s.as_of.ToString(), " (", s.origin, ")");
  return t;
}

// Which player `text` names, or the reason a person can act on.
absl::StatusOr<PlayerId> ChoosePlayer(const std::string& text,
                                      const std::vector<PlayerLookup>& lookups,
                                      std::vector<PlayerMatch> matches) {
  std::sort(matches.begin(), matches.end(),
            [](const PlayerMatch& a, const PlayerMatch& b) {
              return a.player.value < b.player.value;
            });
  std::vector<PlayerMatch> distinct;
  for (const PlayerMatch& m : matches) {
    if (distinct.empty() || distinct.back().player.value != m.player.value) {
      distinct.push_back(m);
    }
  }
  if (distinct.size() == 1) return distinct.front().player;
  const bool resident = std::any_of(
      lookups.begin(), lookups.end(),
      [](const PlayerLookup& l) { return l.kind == Kind::kResidentId; });
  if (distinct.empty()) {
    if (lookups.size() == 1 && lookups[0].kind == Kind::kId) {
      return absl::NotFoundError("no registered player has id " +
                                 lookups[0].value +
                                 "; write the id of a registered player");
    }
    if (lookups.size() == 1 && lookups[0].kind == Kind::kExternalId &&
        !lookups[0].agency_prefix.empty()) {
      return absl::NotFoundError(
          "agency " + lookups[0].agency_prefix +
          " has no player with external id '" + lookups[0].value +
          "'; import the player first (rankctl player import) or correct "
          "the value");
    }
    return absl::NotFoundError(
        std::string("no registered player has this ") +
        (resident ? "resident ID" : "player id or external id '" + text + "'") +
        "; import the player first (rankctl player import) or write the "
        "player id");
  }
  std::string who;
  for (size_t i = 0; i < distinct.size() && i < 5; ++i) {
    absl::StrAppend(&who, i ? ", " : "", Describe(distinct[i]));
  }
  if (distinct.size() > 5) absl::StrAppend(&who, ", ...");
  std::string hint;
  for (const PlayerMatch& m : distinct) {
    if (m.kind == Kind::kId) {
      absl::StrAppend(&hint, hint.empty() ? "" : " or ", "'id:", m.player.value,
                      "' for player ", m.player.value);
    } else if (m.kind == Kind::kExternalId) {
      absl::StrAppend(&hint, hint.empty() ? "" : " or ", "'", m.agency_prefix,
                      ":", m.external_id, "' for player ", m.player.value);
    }
  }
  return absl::InvalidArgumentError(
      (resident ? std::string("this value") : "'" + text + "'") +
      " names more than one player: " + who + "; write " +
      (hint.empty() ? "the player id" : hint));
}

struct CheckedRow {
  size_t index = 0;
  PlayerId player;
  double gor = 0;
  std::optional<double> pro;
  std::optional<Date> as_of;
};

// The field checks of one row; refusals appended. Absent when refused.
std::optional<CheckedRow> CheckRow(const StartRow& row,
                                   const std::vector<PlayerMatch>& matches,
                                   const RatingBook& book, const Date& today,
                                   std::vector<RowRefusal>& refusals) {
  const size_t before = refusals.size();
  auto refuse = [&](const std::string& column, std::string reason) {
    refusals.push_back(RowRefusal{row.line, column, std::move(reason)});
  };
  CheckedRow out;
  const std::string player =
      std::string(absl::StripAsciiWhitespace(row.player));
  if (player.empty()) {
    refuse("player",
           "player is empty; write the player id, the resident ID or the "
           "external id (AGENCY:ID for one agency's external id)");
  } else {
    absl::StatusOr<PlayerId> id =
        ChoosePlayer(player, PlayerLookups(player), matches);
    if (id.ok()) {
      out.player = *id;
    } else {
      refuse("player", std::string(id.status().message()));
    }
  }
  const double floor = book.settings().egf.floor;
  const std::string gor = std::string(absl::StripAsciiWhitespace(row.gor));
  std::optional<double> g = ParseDecimal(gor);
  if (gor.empty()) {
    refuse("gor",
           "gor is empty; write the rating as a decimal number, e.g. "
           "2150 or 2150.5");
  } else if (!g) {
    refuse("gor", "gor '" + gor +
                      "' is not a decimal number; write e.g. 2150 or 2150.5 "
                      "(a point, no thousands separator, no exponent)");
  } else if (*g < floor || *g > kMaxImportedGor) {
    refuse("gor", "gor " + gor + " is outside the EGF scale " + Num(floor) +
                      " .. " + Num(kMaxImportedGor) +
                      "; write the player's GoR");
  } else {
    out.gor = *g;
  }
  const std::string pro =
      std::string(absl::StripAsciiWhitespace(row.pro_rating));
  if (!pro.empty()) {
    std::optional<double> p = ParseDecimal(pro);
    if (!p) {
      refuse("pro_rating", "pro_rating '" + pro +
                               "' is not a decimal number; write e.g. 2450 "
                               "or leave it empty");
    } else if (*p <= 0 || *p > kMaxImportedPro) {
      refuse("pro_rating", "pro_rating " + pro + " is outside 0 .. " +
                               Num(kMaxImportedPro) +
                               " (exclusive of 0); write the professional "
                               "rating or leave it empty");
    } else {
      out.pro = *p;
    }
  }
  const std::string as_of = std::string(absl::StripAsciiWhitespace(row.as_of));
  if (!as_of.empty()) {
    absl::StatusOr<Date> d =
        as_of.size() == 10 && as_of[4] == '-' && as_of[7] == '-'
            ? Date::Parse(as_of)
            : absl::InvalidArgumentError("");
    if (!d.ok()) {
      refuse("as_of", "as_of '" + as_of +
                          "' is not a date; write YYYY-MM-DD, e.g. 2026-01-31, "
                          "or leave it empty for today");
    } else if (*d > today) {
      refuse("as_of", "as_of " + as_of + " is after today (" +
                          today.ToString() +
                          "); a start is as of today or earlier");
    } else {
      out.as_of = *d;
    }
  }
  if (refusals.size() != before) return std::nullopt;
  return out;
}

bool SameStart(const CheckedRow& row, const RatingStart& stored) {
  return row.gor == stored.gor && row.pro == stored.pro_elo &&
         (!row.as_of || *row.as_of == stored.as_of);
}

}  // namespace

std::vector<PlayerLookup> PlayerLookups(const std::string& player_text) {
  const std::string t = std::string(absl::StripAsciiWhitespace(player_text));
  std::vector<PlayerLookup> out;
  if (t.empty()) return out;
  if (t.rfind("id:", 0) == 0) {
    const std::string id = CanonicalId(t.substr(3));
    if (!id.empty()) return {PlayerLookup{Kind::kId, id, ""}};
  }
  if (t.size() > 4 && t[3] == ':' && AllDigits(t.substr(0, 3))) {
    return {PlayerLookup{Kind::kExternalId, t.substr(4), t.substr(0, 3)}};
  }
  const std::string id = CanonicalId(t);
  if (!id.empty()) out.push_back(PlayerLookup{Kind::kId, id, ""});
  absl::StatusOr<std::string> resident = registry::NormalizeResidentId(t);
  if (resident.ok()) {
    out.push_back(PlayerLookup{Kind::kResidentId, *resident, ""});
  }
  if (t.size() <= 64) out.push_back(PlayerLookup{Kind::kExternalId, t, ""});
  return out;
}

absl::StatusOr<StartImportPlan> PlanStartImport(
    const StartImport& file,
    const std::vector<std::vector<PlayerMatch>>& matches,
    const RatingBook& book, const std::map<PlayerId, RatingStart>& stored,
    const Date& today, int64_t now_unix) {
  if (file.rows.empty()) {
    return absl::InvalidArgumentError(
        "the rating file has no rows; write a header (player,gor,pro_rating,"
        "as_of) and one row per player");
  }
  if (file.rows.size() > static_cast<size_t>(kMaxImportRows)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a rating import carries at most ", kMaxImportRows,
                     " rows; split the file"));
  }
  if (matches.size() != file.rows.size()) {
    return absl::InvalidArgumentError("one list of matches per row needed");
  }
  const std::string sha = absl::AsciiStrToLower(file.file_sha256);
  if (!sha.empty() &&
      (sha.size() != 64 ||
       sha.find_first_not_of("0123456789abcdef") != std::string::npos)) {
    return absl::InvalidArgumentError(
        "file_sha256 must be 64 hex digits (the SHA-256 of the file) or empty");
  }
  StartImportPlan plan;
  StartImportReport& report = plan.report;
  report.rows = static_cast<int>(file.rows.size());
  std::vector<CheckedRow> checked;
  for (size_t i = 0; i < file.rows.size(); ++i) {
    std::optional<CheckedRow> row =
        CheckRow(file.rows[i], matches[i], book, today, report.refusals);
    if (!row) continue;
    row->index = i;
    checked.push_back(*row);
  }
  // One start per player and file: a player on several rows is refused on
  // each of them.
  absl::flat_hash_map<int64_t, std::vector<int>> lines;
  for (const CheckedRow& r : checked) {
    lines[r.player.value].push_back(file.rows[r.index].line);
  }
  const std::string base = BaseName(file.file_name);
  for (const CheckedRow& r : checked) {
    const StartRow& row = file.rows[r.index];
    const std::vector<int>& on = lines[r.player.value];
    if (on.size() > 1) {
      std::string list;
      for (int l : on) absl::StrAppend(&list, list.empty() ? "" : ", ", l);
      report.refusals.push_back(RowRefusal{
          row.line, "player",
          absl::StrCat("player ", r.player.value, " is on lines ", list,
                       " of this file; a file gives one start per player: "
                       "keep one of those rows")});
      continue;
    }
    auto old = stored.find(r.player);
    if (old != stored.end() && SameStart(r, old->second)) {
      report.outcomes.push_back(RowOutcome{row.line, r.player, true, ""});
      ++report.matched;
      continue;
    }
    std::optional<PlayerRating> now = book.Find(r.player);
    if (now && (now->rated_events > 0 || now->pro_games > 0)) {
      report.refusals.push_back(RowRefusal{
          row.line, "player",
          absl::StrCat("player ", r.player.value, " already has a rating from ",
                       now->rated_events,
                       now->rated_events == 1 ? " event" : " events", " (GoR ",
                       Num(now->gor),
                       "); an imported start only applies before the "
                       "player's first rated event: remove the row")});
      continue;
    }
    RatingStart start;
    start.player = r.player;
    start.gor = r.gor;
    start.pro_elo = r.pro;
    start.as_of = r.as_of.value_or(today);
    start.origin = "import " + base + (sha.empty() ? "" : " sha256:" + sha) +
                   " line " + std::to_string(row.line) + " as of " +
                   start.as_of.ToString();
    start.recorded_unix = now_unix;
    RowOutcome outcome{row.line, r.player, false, ""};
    if (old != stored.end()) {
      outcome.note = "replaces the start " + StartText(old->second);
    }
    report.outcomes.push_back(std::move(outcome));
    ++report.added;
    plan.starts.push_back(std::move(start));
  }
  std::stable_sort(
      report.refusals.begin(), report.refusals.end(),
      [](const RowRefusal& a, const RowRefusal& b) { return a.line < b.line; });
  std::sort(
      report.outcomes.begin(), report.outcomes.end(),
      [](const RowOutcome& a, const RowOutcome& b) { return a.line < b.line; });
  std::sort(plan.starts.begin(), plan.starts.end(),
            [](const RatingStart& a, const RatingStart& b) {
              return a.player.value < b.player.value;
            });
  int refused_rows = 0;
  int last = -1;
  for (const RowRefusal& r : report.refusals) {
    if (r.line != last) ++refused_rows;
    last = r.line;
  }
  report.refused = refused_rows;
  return plan;
}

}  // namespace gorank::ratings
