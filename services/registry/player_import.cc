// PlayerRegistry::Import: a player file, checked as a whole, then stored in
// one transaction (or not at all).
//
// The rules (README "player import" says the same for users):
// - Every field of every row is checked; each problem is a refusal naming
//   the row's line, the column and what to write instead.
// - A row names a player already in the registry when its resident ID, or
//   its external_id within its agency, is recorded: the row is matched and
//   nothing is added. An import never changes a player: a matched row whose
//   name, Latin name, gender, birth date, agency or resident ID differs from
//   the registry is refused (naming both values); a different rank is only
//   a note (ranks change through their own flows). The one thing an import
//   adds to a player already there is an external_id the player lacks.
// - Two rows of one file with the same resident ID, or the same external_id
//   in one agency, are refused (the later one, naming the earlier line).
// - A new row without a resident ID whose name and birth date equal those of
//   a player (in the registry or earlier in the file) without one either is
//   noted as a possible duplicate, not refused.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "services/common/status_macros.h"
#include "services/registry/player_registry.h"
#include "services/registry/resident_id.h"

namespace gorank::registry {
namespace {

constexpr size_t kMaxFileNameBytes = 255;

// One row while it is checked.
struct Work {
  const PlayerImportRow* row = nullptr;
  Player player;  // name .. external_id, rank; id once matched or stored
  std::optional<Date> rank_date;
  bool refused = false;
  bool matched = false;
  std::string note;
  std::optional<ExternalIdLink> link;
};

std::string Trim(const std::string& s) {
  return std::string(absl::StripAsciiWhitespace(s));
}

// "2008-01-10", "20080110", and what spreadsheets write: "2008/1/10",
// "2008-1-10".
absl::StatusOr<Date> ParseFileDate(const std::string& text) {
  const size_t a = text.find_first_of("-/");
  if (a == 4) {
    const size_t b = text.find(text[a], a + 1);
    auto number = [](const std::string& s) -> int {
      if (s.empty() || s.size() > 4 ||
          s.find_first_not_of("0123456789") != std::string::npos)
        return -1;
      return std::stoi(s);
    };
    if (b != std::string::npos) {
      const int y = number(text.substr(0, a));
      const int m = number(text.substr(a + 1, b - a - 1));
      const int d = number(text.substr(b + 1));
      const Date date{y, m, d};
      if (y > 0 && m > 0 && d > 0 && b - a - 1 <= 2 &&
          text.size() - b - 1 <= 2 && date.IsValid())
        return date;
    }
    return absl::InvalidArgumentError("not a date");
  }
  return Date::Parse(text);
}

std::optional<Gender> ParseGender(const std::string& text) {
  const std::string t = absl::AsciiStrToLower(text);
  if (t.empty()) return Gender::kUnspecified;
  if (t == "male" || t == "m" || t == "男") return Gender::kMale;
  if (t == "female" || t == "f" || t == "女") return Gender::kFemale;
  return std::nullopt;
}

const char* GenderWord(Gender g) {
  switch (g) {
    case Gender::kMale:
      return "male";
    case Gender::kFemale:
      return "female";
    default:
      return "not given";
  }
}

std::string DateText(const std::optional<Date>& d) {
  return d ? d->ToString() : "none";
}

std::string OrNone(const std::string& s) { return s.empty() ? "none" : s; }

class Checker {
 public:
  Checker(const auth::Caller& caller,
          const std::map<std::string, Agency>& agencies, const Date& today,
          ImportSummary* summary)
      : caller_(caller),
        agencies_(agencies),
        today_(today),
        summary_(summary) {}

  void Refuse(Work& w, const std::string& column, std::string reason) {
    w.refused = true;
    summary_->refusals.push_back({w.row->line, column, std::move(reason)});
  }

  // Parses and checks the fields of one row on their own.
  void Parse(Work& w) {
    const PlayerImportRow& r = *w.row;
    Player& p = w.player;
    p.name = Trim(r.name);
    if (p.name.empty()) {
      Refuse(w, "name", "name is empty; every row needs the player's name");
    } else {
      Check(w, "name", ValidatePlayerName("name", p.name, true));
    }
    p.latin_name = Trim(r.latin_name);
    Check(w, "latin_name",
          ValidatePlayerName("latin_name", p.latin_name, false));
    if (auto g = ParseGender(Trim(r.gender))) {
      p.gender = *g;
    } else {
      Refuse(w, "gender",
             "gender '" + Trim(r.gender) +
                 "' is not one of male, female, m, f, 男, 女; write one of "
                 "them or leave it empty");
    }
    ParseAgency(w, Trim(r.agency));
    const std::string birth = Trim(r.birth_date);
    if (!birth.empty()) {
      absl::StatusOr<Date> d = ParseFileDate(birth);
      if (!d.ok()) {
        Refuse(w, "birth_date",
               "birth_date '" + birth +
                   "' is not a date; write YYYY-MM-DD, e.g. 2008-01-10");
      } else if (!ValidateBirthDate(*d, today_).ok()) {
        Refuse(w, "birth_date",
               "birth_date " + d->ToString() +
                   " must be between 1900-01-01 and today");
      } else {
        p.birth_date = *d;
      }
    }
    const std::string rid = Trim(r.resident_id);
    if (!rid.empty()) {
      absl::StatusOr<std::string> n = NormalizeResidentId(rid);
      if (!n.ok()) {
        Refuse(w, "resident_id",
               std::string(n.status().message()) +
                   "; write the 18-character resident ID (the last may be X) "
                   "or leave it empty");
      } else {
        p.resident_id = *n;
        const Date from_id = ResidentIdBirthDate(p.resident_id);
        if (p.birth_date && *p.birth_date != from_id) {
          Refuse(w, "birth_date",
                 "birth_date " + p.birth_date->ToString() +
                     " differs from the birth date in the resident ID (" +
                     from_id.ToString() +
                     "); correct one of them, or leave birth_date empty");
        } else {
          p.birth_date = from_id;
        }
      }
    }
    ParseRank(w, Trim(r.rank), Trim(r.rank_date));
    p.external_id = Trim(r.external_id);
    if (p.external_id.size() > kMaxExternalIdBytes) {
      Refuse(w, "external_id",
             "external_id is " + std::to_string(p.external_id.size()) +
                 " bytes; the limit is " + std::to_string(kMaxExternalIdBytes) +
                 " bytes");
    } else {
      Check(w, "external_id", ValidateExternalId(p.external_id));
    }
  }

 private:
  void Check(Work& w, const std::string& column, const absl::Status& s) {
    if (!s.ok()) Refuse(w, column, std::string(s.message()));
  }

  void ParseAgency(Work& w, const std::string& prefix) {
    w.player.agency_prefix = prefix;
    if (prefix.empty()) {
      Refuse(w, "agency",
             "agency is empty; write the three-digit prefix of the player's "
             "agency, e.g. 110");
      return;
    }
    if (!IsAgencyPrefix(prefix)) {
      Refuse(w, "agency",
             "agency '" + prefix + "' is not a three-digit prefix, e.g. 110");
      return;
    }
    if (!caller_.ActsFor(prefix)) {
      Refuse(
          w, "agency",
          "an operator of agency " + caller_.agency_prefix +
              " imports players of its own agency only; this row is of "
              "agency " +
              prefix +
              " (import it with that agency's token or the national admin's)");
      return;
    }
    auto it = agencies_.find(prefix);
    if (it == agencies_.end()) {
      Refuse(w, "agency",
             "agency " + prefix +
                 " does not exist (`rankctl agency list` shows the prefixes)");
    } else if (it->second.status == AgencyStatus::kSuspended) {
      Refuse(w, "agency",
             "agency " + prefix + " is suspended (" + it->second.status_reason +
                 "); players cannot be added to it");
    }
  }

  void ParseRank(Work& w, const std::string& rank, const std::string& date) {
    if (!rank.empty()) {
      absl::StatusOr<Rank> parsed = Rank::Parse(rank);
      if (!parsed.ok()) {
        Refuse(w, "rank",
               "rank '" + rank +
                   "' is not a Go rank; write e.g. 5k, 3d, 9p, 5级, 业余3段 or "
                   "职业九段, or leave it empty");
      } else if (!caller_.IsNational() && !WithinAgencyAuthority(*parsed)) {
        Refuse(w, "rank",
               "an agency may record ranks up to 3d; " + parsed->ToString() +
                   " needs the national body (import this row with the "
                   "national admin's token)");
      } else {
        w.player.rank = *parsed;
      }
    }
    if (date.empty()) return;
    if (rank.empty()) {
      Refuse(w, "rank_date",
             "rank_date without a rank; fill in rank or leave rank_date empty");
      return;
    }
    absl::StatusOr<Date> d = ParseFileDate(date);
    if (!d.ok()) {
      Refuse(w, "rank_date",
             "rank_date '" + date +
                 "' is not a date; write YYYY-MM-DD, e.g. 2019-07-01");
    } else if (*d > today_ || d->year < 1900) {
      Refuse(w, "rank_date",
             "rank_date " + d->ToString() +
                 " must be between 1900-01-01 and today");
    } else if (w.player.birth_date && *d < *w.player.birth_date) {
      Refuse(w, "rank_date",
             "rank_date " + d->ToString() + " is before the birth date " +
                 w.player.birth_date->ToString());
    } else {
      w.rank_date = *d;
    }
  }

  const auth::Caller& caller_;
  const std::map<std::string, Agency>& agencies_;
  Date today_;
  ImportSummary* summary_;
};

// Refuses the later of two rows with the same resident ID, or the same
// external id in one agency.
void RefuseDuplicatesInFile(std::vector<Work>& work, Checker& checker) {
  std::unordered_map<std::string, int> resident, external;
  for (Work& w : work) {
    const Player& p = w.player;
    if (!p.resident_id.empty()) {
      auto [it, fresh] = resident.emplace(p.resident_id, w.row->line);
      if (!fresh) {
        checker.Refuse(w, "resident_id",
                       "the same resident ID is on line " +
                           std::to_string(it->second) +
                           "; a player is in the file once");
      }
    }
    if (!p.external_id.empty()) {
      auto [it, fresh] =
          external.emplace(p.agency_prefix + '\n' + p.external_id, w.row->line);
      if (!fresh) {
        checker.Refuse(w, "external_id",
                       "the same external_id of agency " + p.agency_prefix +
                           " is on line " + std::to_string(it->second) +
                           "; a player is in the file once");
      }
    }
  }
}

// A matched row: refusals for every field that differs from `stored`.
void CompareMatched(Work& w, const Player& stored, const std::string& how,
                    Checker& checker) {
  const Player& p = w.player;
  const std::string who = "this row is player " +
                          std::to_string(stored.id.value) + " (same " + how +
                          "), ";
  const std::string tail =
      ". An import never changes a player: correct the file, or change the "
      "player first "
      "(rankctl player update " +
      std::to_string(stored.id.value) + ")";
  if (stored.agency_prefix != p.agency_prefix) {
    checker.Refuse(w, "agency",
                   who + "who belongs to agency " + stored.agency_prefix +
                       ", not " + p.agency_prefix +
                       "; a transfer is the national body's (rankctl player "
                       "update " +
                       std::to_string(stored.id.value) + " --agency " +
                       p.agency_prefix + ")");
    return;  // the other fields are that agency's business
  }
  auto differs = [&](const std::string& column, const std::string& registry,
                     const std::string& file) {
    checker.Refuse(w, column,
                   who + "whose " + column + " in the registry is " + registry +
                       "; the file has " + file + tail);
  };
  if (p.name != stored.name) differs("name", stored.name, p.name);
  if (!p.latin_name.empty() && p.latin_name != stored.latin_name)
    differs("latin_name", OrNone(stored.latin_name), p.latin_name);
  if (p.gender != Gender::kUnspecified && p.gender != stored.gender)
    differs("gender", GenderWord(stored.gender), GenderWord(p.gender));
  if (p.birth_date && p.birth_date != stored.birth_date)
    differs("birth_date", DateText(stored.birth_date),
            p.birth_date->ToString());
  if (!p.resident_id.empty() && p.resident_id != stored.resident_id) {
    checker.Refuse(
        w, "resident_id",
        who +
            (stored.resident_id.empty()
                 ? "who has no resident ID in the registry"
                 : "whose resident ID in the registry is another one") +
            tail);
  }
  if (!p.external_id.empty() && !stored.external_id.empty() &&
      p.external_id != stored.external_id) {
    differs("external_id", stored.external_id, p.external_id);
  }
}

// The audit record's JSON: the file and, for each player of the chunk, its
// PlayerJson with the row's line (built as text: the audit log parses it
// once when it encodes the entry).
std::string PlayerChunkJson(const PlayerImportOptions& o,
                            const std::vector<Work*>& rows, size_t begin,
                            size_t end, const std::vector<PlayerId>& ids) {
  std::string players = "[";
  for (size_t i = begin; i < end; ++i) {
    Player p = rows[i]->player;
    p.id = ids[i - begin];
    std::string j = PlayerJson(p);  // an object: "{...}"
    j.insert(j.size() - 1, ",\"line\":" + std::to_string(rows[i]->row->line));
    if (i > begin) players += ',';
    players += j;
  }
  players += ']';
  return absl::StrCat("{\"file\":", nlohmann::json(o.file_name).dump(),
                      ",\"lines\":[", rows[begin]->row->line, ",",
                      rows[end - 1]->row->line, "],\"players\":", players,
                      ",\"sha256\":\"", o.file_sha256, "\"}");
}

}  // namespace

absl::StatusOr<ImportSummary> PlayerRegistry::Import(
    const auth::Caller& caller, const PlayerImportOptions& input,
    const std::vector<PlayerImportRow>& rows) {
  if (!caller.IsNational() && caller.role != auth::Role::kAgencyOperator) {
    return absl::PermissionDeniedError(
        "player imports are for the national admin and agency operators");
  }
  if (rows.empty()) {
    return absl::InvalidArgumentError(
        "the file has no rows (only a header, or nothing)");
  }
  if (rows.size() > static_cast<size_t>(kMaxImportRows)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "an import takes at most ", kMaxImportRows, " rows; split the file"));
  }
  PlayerImportOptions options = input;
  options.file_sha256 = absl::AsciiStrToLower(options.file_sha256);
  if (options.file_sha256.size() != 64 ||
      options.file_sha256.find_first_not_of("0123456789abcdef") !=
          std::string::npos) {
    return absl::InvalidArgumentError(
        "file_sha256 must be the 64 hex digits of the file's SHA-256");
  }
  if (options.file_name.empty() ||
      options.file_name.size() > kMaxFileNameBytes) {
    return absl::InvalidArgumentError(
        "file_name must be the file's name, 1 to 255 bytes");
  }
  for (unsigned char c : options.file_name) {
    if (c < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(
          "file_name contains a control character");
    }
  }
  for (const PlayerImportRow& r : rows) {
    if (r.line < 2) {
      return absl::InvalidArgumentError(
          "every row needs its line in the file (2 or more; the header is line "
          "1)");
    }
  }
  if (!caller.IsNational()) {
    GORANK_ASSIGN_OR_RETURN(Agency own, repo_->GetAgency(caller.agency_prefix));
    if (own.status == AgencyStatus::kSuspended) {
      return absl::FailedPreconditionError(
          "agency " + own.prefix + " is suspended: " + own.status_reason);
    }
  }
  std::map<std::string, Agency> agencies;
  GORANK_ASSIGN_OR_RETURN(std::vector<Agency> all, repo_->ListAgencies());
  for (Agency& a : all) agencies.emplace(a.prefix, std::move(a));

  const Date today = clock_->Today();
  const int64_t now = clock_->NowSeconds();
  ImportSummary summary;
  summary.rows = static_cast<int>(rows.size());
  Checker checker(caller, agencies, today, &summary);
  std::vector<Work> work(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    work[i].row = &rows[i];
    checker.Parse(work[i]);
  }
  RefuseDuplicatesInFile(work, checker);

  // Who in the registry each good row names.
  std::vector<ImportKey> keys;
  std::vector<Work*> asked;
  for (Work& w : work) {
    if (w.refused) continue;
    ImportKey k;
    k.resident_id = w.player.resident_id;
    k.agency_prefix = w.player.agency_prefix;
    k.external_id = w.player.external_id;
    if (w.player.resident_id.empty() && w.player.birth_date) {
      k.name = w.player.name;
      k.birth_date = w.player.birth_date;
    }
    keys.push_back(std::move(k));
    asked.push_back(&w);
  }
  GORANK_ASSIGN_OR_RETURN(std::vector<ImportMatch> matches,
                          repo_->FindImportMatches(keys));
  if (matches.size() != keys.size())
    return absl::InternalError("import lookup lost rows");

  std::unordered_map<std::string, int>
      same_name_birth;  // new rows without an ID
  std::vector<Work*> added;
  std::vector<ExternalIdLink> links;
  for (size_t i = 0; i < asked.size(); ++i) {
    Work& w = *asked[i];
    const ImportMatch& m = matches[i];
    if (m.by_resident_id && m.by_external_id &&
        m.by_resident_id->id != m.by_external_id->id) {
      checker.Refuse(w, "external_id",
                     "the resident ID is player " +
                         std::to_string(m.by_resident_id->id.value) +
                         "'s, but external_id " + w.player.external_id +
                         " is player " +
                         std::to_string(m.by_external_id->id.value) +
                         "'s; correct the file");
      continue;
    }
    if (m.by_resident_id || m.by_external_id) {
      const Player& stored =
          m.by_resident_id ? *m.by_resident_id : *m.by_external_id;
      CompareMatched(w, stored,
                     m.by_resident_id ? "resident ID" : "external_id", checker);
      if (w.refused) continue;
      w.matched = true;
      if (!w.player.external_id.empty() && stored.external_id.empty()) {
        w.link = ExternalIdLink{stored.id, stored.agency_prefix,
                                w.player.external_id};
        w.note = "external_id " + w.player.external_id +
                 " recorded for player " + std::to_string(stored.id.value);
      }
      if (w.player.rank && w.player.rank != stored.rank) {
        if (!w.note.empty()) w.note += "; ";
        w.note +=
            "the registry holds " +
            (stored.rank ? stored.rank->ToString() : "no rank") +
            " for player " + std::to_string(stored.id.value) + ", the file " +
            w.player.rank->ToString() +
            ": the rank was not changed (ranks change through certificates, "
            "promotions and corrections)";
      }
      w.player.id = stored.id;
      continue;
    }
    if (w.player.resident_id.empty() && w.player.birth_date) {
      const std::string key =
          w.player.name + '\n' + w.player.birth_date->ToString();
      auto [it, fresh] = same_name_birth.emplace(key, w.row->line);
      if (m.same_name_and_birth.value != 0) {
        w.note =
            "possible duplicate: player " +
            std::to_string(m.same_name_and_birth.value) +
            " has the same name and birth date, and neither has a resident ID";
      } else if (!fresh) {
        w.note =
            "possible duplicate: line " + std::to_string(it->second) +
            " has the same name and birth date, and neither has a resident ID";
      }
    }
    added.push_back(&w);
  }

  for (const Work& w : work) {
    if (w.refused) {
      ++summary.refused;
    } else if (w.matched) {
      ++summary.matched;
      if (w.link) links.push_back(*w.link);
    }
  }
  summary.added = static_cast<int>(added.size());
  const int good = summary.added + summary.matched;
  summary.stored = !options.dry_run &&
                   (summary.refused == 0 || (options.skip_bad && good > 0));

  if (summary.stored && (!added.empty() || !links.empty())) {
    std::vector<ImportedPlayer> players;
    players.reserve(added.size());
    for (Work* w : added) {
      ImportedPlayer ip;
      ip.player = w->player;
      ip.player.created_unix = ip.player.updated_unix = now;
      if (w->player.rank) {
        ip.entry =
            RankHistoryEntry{0,
                             {},
                             std::nullopt,
                             w->player.rank,
                             w->rank_date.value_or(today),
                             RankChangeReason::kImport,
                             absl::StrCat("import ", options.file_name,
                                          " sha256:", options.file_sha256,
                                          " line ", w->row->line),
                             caller.Describe(),
                             now};
      }
      players.push_back(std::move(ip));
    }
    ImportAuditFn audit = [&](size_t begin, size_t end,
                              const std::vector<PlayerId>& ids) {
      return ChangeRecord{
          now,
          caller.Describe(),
          "player.import",
          absl::StrCat("players:", ids.front().value, "-", ids.back().value),
          "",
          PlayerChunkJson(options, added, begin, end, ids)};
    };
    nlohmann::json linked = nlohmann::json::array();
    for (const Work& w : work) {
      if (!w.refused && w.link) {
        linked.push_back({{"line", w.row->line},
                          {"player_id", w.link->player_id.value},
                          {"external_id", w.link->external_id}});
      }
    }
    const ChangeRecord link_change{
        now,
        caller.Describe(),
        "player.import_external_ids",
        "players",
        "",
        nlohmann::json{{"file", options.file_name},
                       {"sha256", options.file_sha256},
                       {"links", std::move(linked)}}
            .dump()};
    GORANK_ASSIGN_OR_RETURN(
        std::vector<PlayerId> ids,
        repo_->StoreImport(players, links, kImportAuditChunk, audit,
                           link_change));
    if (ids.size() != added.size())
      return absl::InternalError("import stored fewer rows");
    for (size_t i = 0; i < ids.size(); ++i) added[i]->player.id = ids[i];
  }

  for (const Work& w : work) {
    if (w.refused) continue;
    summary.outcomes.push_back(
        {w.row->line, summary.stored || w.matched ? w.player.id : PlayerId{},
         w.matched, w.note});
  }
  std::stable_sort(summary.refusals.begin(), summary.refusals.end(),
                   [](const ImportRefusal& a, const ImportRefusal& b) {
                     return a.line < b.line;
                   });
  return summary;
}

}  // namespace gorank::registry
