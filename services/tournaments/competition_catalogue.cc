#include "services/tournaments/competition_catalogue.h"

#include <algorithm>
#include <cstdlib>

#include "services/common/status_macros.h"
#include "services/tournaments/data_table.h"

namespace gorank::tournaments {

// Generated from competitions.tsv (see CMakeLists.txt).
extern const char kCompetitionsTsv[];

const CompetitionCatalogue& CompetitionCatalogue::Default() {
  static const CompetitionCatalogue* const catalogue = [] {
    auto parsed = Parse(kCompetitionsTsv);
    if (!parsed.ok()) std::abort();  // shipped data is tested
    return new CompetitionCatalogue(*std::move(parsed));
  }();
  return *catalogue;
}

absl::StatusOr<CompetitionCatalogue> CompetitionCatalogue::Parse(
    const std::string& text) {
  CompetitionCatalogue catalogue;
  std::string problems;
  for (const DataRecord& record : ParseDataTable(text)) {
    const std::string where = "line " + std::to_string(record.line) + ": ";
    if (record.fields.size() != 5) {
      problems += where + "expected 5 tab-separated columns (code, level, " +
                  "groups, name_en, name_zh), got " +
                  std::to_string(record.fields.size()) + "\n";
      continue;
    }
    Competition c;
    c.code = record.fields[0];
    auto level = ParseLevelCode(record.fields[1]);
    if (!level.ok()) {
      problems += where + std::string(level.status().message()) + "\n";
      continue;
    }
    c.level = *level;
    if (record.fields[2] != "-") c.groups = SplitString(record.fields[2], ',');
    c.name_en = record.fields[3];
    c.name_zh = record.fields[4];
    if (catalogue.Find(c.code) != nullptr) {
      problems += where + "duplicate competition code '" + c.code + "'\n";
      continue;
    }
    catalogue.entries_.push_back(std::move(c));
  }
  if (!problems.empty()) {
    problems.pop_back();
    return absl::InvalidArgumentError("competition catalogue:\n" + problems);
  }
  return catalogue;
}

absl::StatusOr<CompetitionCatalogue> CompetitionCatalogue::Load(
    const std::string& path) {
  GORANK_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  return Parse(text);
}

const Competition* CompetitionCatalogue::Find(const std::string& code) const {
  for (const Competition& c : entries_) {
    if (c.code == code) return &c;
  }
  return nullptr;
}

absl::Status CompetitionCatalogue::CheckEvent(const Event& event) const {
  if (event.competition.empty()) {
    if (!event.group.empty()) {
      return absl::InvalidArgumentError("group '" + event.group +
                                        "' given without a competition");
    }
    return absl::OkStatus();
  }
  const Competition* c = Find(event.competition);
  if (c == nullptr) {
    return absl::InvalidArgumentError(
        "unknown competition '" + event.competition +
        "'; list the catalogue for the known codes");
  }
  if (event.group.empty() || std::find(c->groups.begin(), c->groups.end(),
                                       event.group) != c->groups.end()) {
    return absl::OkStatus();
  }
  std::string known;
  for (const std::string& g : c->groups)
    known += (known.empty() ? "" : ", ") + g;
  return absl::InvalidArgumentError(
      "competition '" + c->code + "' has no group '" + event.group +
      "'; its groups are: " + (known.empty() ? "(none)" : known));
}

}  // namespace gorank::tournaments
