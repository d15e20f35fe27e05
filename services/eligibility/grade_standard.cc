#include "services/eligibility/grade_standard.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "services/common/status_macros.h"
#include "services/tournaments/data_table.h"

namespace gorank::eligibility {

// Generated from grade_standard.tsv (see CMakeLists.txt).
extern const char kGradeStandardTsv[];

using tournaments::DataRecord;
using tournaments::SubEvent;

// Builds a GradeStandard record by record, collecting problems.
class GradeStandardParser {
 public:
  absl::StatusOr<GradeStandard> Run(const std::string& text) {
    for (const DataRecord& r : tournaments::ParseDataTable(text)) Record(r);
    if (s_.grades_.empty()) problems_ += "no 'grade' records\n";
    if (s_.min_played_ <= 0) problems_ += "no 'min_played' record (note 2)\n";
    if (s_.eligible_.empty())
      problems_ += "no 'eligible_sub_events' record (note 1)\n";
    if (!problems_.empty()) {
      problems_.pop_back();
      return absl::InvalidArgumentError("athlete-grade standard:\n" +
                                        problems_);
    }
    return s_;
  }

 private:
  void Problem(const DataRecord& r, const std::string& what) {
    problems_ += "line " + std::to_string(r.line) + ": " + what + "\n";
  }

  bool Fields(const DataRecord& r, size_t n) {
    if (r.fields.size() == n) return true;
    Problem(r, "'" + r.fields[0] + "' needs " + std::to_string(n) +
                   " tab-separated fields, got " +
                   std::to_string(r.fields.size()));
    return false;
  }

  bool GradeOf(const DataRecord& r, const std::string& code, Grade& out) {
    for (const GradeInfo& g : s_.grades_) {
      if (g.code == code) {
        out = g.grade;
        return true;
      }
    }
    Problem(r, "unknown grade '" + code +
                   "' (declare it with a 'grade' record first)");
    return false;
  }

  bool SubEvents(const DataRecord& r, const std::string& list,
                 std::vector<SubEvent>& out) {
    using S = SubEvent;
    for (const std::string& item : tournaments::SplitString(list, ',')) {
      if (item == "individual") {
        out.insert(out.end(), {S::kMenIndividual, S::kWomenIndividual,
                               S::kOpenIndividual});
      } else if (item == "team") {
        out.insert(out.end(), {S::kMenTeam, S::kWomenTeam, S::kOpenTeam});
      } else if (item == "any") {
        out.push_back(S::kUnspecified);  // resolved against note 1 when used
      } else {
        auto s = tournaments::ParseSubEventCode(item);
        if (!s.ok()) {
          Problem(r, std::string(s.status().message()));
          return false;
        }
        out.push_back(*s);
      }
    }
    return !out.empty();
  }

  bool RankOf(const DataRecord& r, const std::string& text,
              registry::Rank& out) {
    auto rank = registry::Rank::Parse(text);
    if (!rank.ok()) {
      Problem(r, "bad rank '" + text + "'");
      return false;
    }
    out = *rank;
    return true;
  }

  void Record(const DataRecord& r) {
    const std::string& kind = r.fields[0];
    if (kind == "grade" && Fields(r, 4)) {
      s_.grades_.push_back({static_cast<Grade>(s_.grades_.size() + 1),
                            r.fields[1], r.fields[2], r.fields[3]});
    } else if (kind == "rule" && Fields(r, 8)) {
      GradeRule rule;
      if (!GradeOf(r, r.fields[1], rule.grade)) return;
      rule.clause = r.fields[2];
      rule.competition = r.fields[3];
      rule.group = r.fields[4] == "-" ? "" : r.fields[4];
      if (!SubEvents(r, r.fields[5], rule.sub_events)) return;
      rule.place_from = std::atoi(r.fields[6].c_str());
      rule.place_to = std::atoi(r.fields[7].c_str());
      if (rule.place_from < 1 || rule.place_to < rule.place_from) {
        return Problem(r, "place range must be 1 <= from <= to");
      }
      s_.rules_.push_back(std::move(rule));
    } else if (kind == "eligible_sub_events" && Fields(r, 3)) {
      s_.eligible_clause_ = r.fields[1];
      SubEvents(r, r.fields[2], s_.eligible_);
    } else if (kind == "min_played" && Fields(r, 3)) {
      s_.min_played_clause_ = r.fields[1];
      s_.min_played_ = std::atoi(r.fields[2].c_str());
    } else if (kind == "highest_group_only" && Fields(r, 2)) {
      s_.highest_group_clause_ = r.fields[1];
    } else if (kind == "recognise" && Fields(r, 6)) {
      Recognition rec{r.fields[1],
                      r.fields[2],
                      r.fields[3],
                      r.fields[4] == "-" ? "" : r.fields[4],
                      {}};
      if (SubEvents(r, r.fields[5], rec.sub_events)) {
        s_.recognitions_.push_back(std::move(rec));
      }
    } else if (kind == "dan" && Fields(r, 4)) {
      registry::Rank rank = registry::Rank::FromString("1d");
      Grade grade;
      if (RankOf(r, r.fields[2], rank) && GradeOf(r, r.fields[3], grade)) {
        s_.dan_routes_.push_back({r.fields[1], rank, grade});
      }
    } else if (kind == "notice_from" && Fields(r, 3)) {
      RankOf(r, r.fields[2], s_.notice_from_);
    } else if (kind != "grade" && kind != "rule" &&
               kind != "eligible_sub_events" && kind != "min_played" &&
               kind != "highest_group_only" && kind != "recognise" &&
               kind != "dan" && kind != "notice_from") {
      Problem(r, "unknown record kind '" + kind + "'");
    }
  }

  GradeStandard s_;
  std::string problems_;
};

const GradeStandard& GradeStandard::Default() {
  static const GradeStandard* const standard = [] {
    auto parsed = Parse(kGradeStandardTsv);
    if (!parsed.ok()) std::abort();  // shipped data is tested
    return new GradeStandard(*std::move(parsed));
  }();
  return *standard;
}

const char* GradeStandard::DefaultText() { return kGradeStandardTsv; }

absl::StatusOr<GradeStandard> GradeStandard::Parse(const std::string& text) {
  return GradeStandardParser().Run(text);
}

absl::StatusOr<GradeStandard> GradeStandard::Load(const std::string& path) {
  GORANK_ASSIGN_OR_RETURN(std::string text, tournaments::ReadTextFile(path));
  return Parse(text);
}

const GradeInfo& GradeStandard::Info(Grade grade) const {
  for (const GradeInfo& g : grades_) {
    if (g.grade == grade) return g;
  }
  std::abort();  // every Grade in a parsed standard has a record
}

bool GradeStandard::IsEligibleSubEvent(SubEvent s) const {
  return std::find(eligible_.begin(), eligible_.end(), s) != eligible_.end();
}

}  // namespace gorank::eligibility
