// The athlete technical-grade standard (围棋运动员技术等级标准, SPEC
// section 6) as data: the five grades, the table of qualifying placings,
// the notes (eligible sub-events, at least 8 played, highest group only,
// recognised events) and the amateur-dan route. Shipped as
// grade_standard.tsv (embedded at build time; its header documents the
// records) and loadable from a path, so the national body can change it.
#ifndef GORANK_SERVICES_ELIGIBILITY_GRADE_STANDARD_H_
#define GORANK_SERVICES_ELIGIBILITY_GRADE_STANDARD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/registry/rank.h"
#include "services/tournaments/event.h"

namespace gorank::eligibility {

// Highest first; the numeric order is the grade order.
enum class Grade {
  kInternationalMaster = 1,
  kMaster,
  kGrade1,
  kGrade2,
  kGrade3,
};

struct GradeInfo {
  Grade grade;
  std::string code;  // "international_master", "grade_1", ...
  std::string name_en;
  std::string name_zh;
};

struct GradeRule {
  Grade grade;
  std::string clause;       // "三(二)2"
  std::string competition;  // catalogue code
  std::string group;        // "" = the standard names no group (note 3)
  std::vector<tournaments::SubEvent> sub_events;
  int place_from = 1;
  int place_to = 1;
};

// Notes 4 and 5: an event of `competition` in one of `sub_events` counts as
// `counts_as` (group `group`).
struct Recognition {
  std::string clause;
  std::string competition;
  std::string counts_as;
  std::string group;
  std::vector<tournaments::SubEvent> sub_events;
};

struct DanRoute {
  std::string clause;
  registry::Rank rank;
  Grade grade;
};

// Immutable after construction; thread-safe for concurrent reads.
class GradeStandard {
 public:
  // The standard compiled into the binary. REQUIRES: the shipped data
  // parses (a test guards it; aborts otherwise).
  static const GradeStandard& Default();
  // The shipped data file's text (grade_standard.tsv), for display.
  static const char* DefaultText();
  // INVALID_ARGUMENT listing every bad record with its line number (unknown
  // kind, grade, sub-event or rank; wrong field count; bad place range;
  // missing grades or notes).
  static absl::StatusOr<GradeStandard> Parse(const std::string& text);
  // NOT_FOUND when the file cannot be read; else as Parse().
  static absl::StatusOr<GradeStandard> Load(const std::string& path);

  const std::vector<GradeInfo>& grades() const { return grades_; }
  const GradeInfo& Info(Grade grade) const;
  const std::vector<GradeRule>& rules() const { return rules_; }
  const std::vector<Recognition>& recognitions() const { return recognitions_; }
  const std::vector<DanRoute>& dan_routes() const { return dan_routes_; }

  bool IsEligibleSubEvent(tournaments::SubEvent s) const;
  const std::string& eligible_clause() const { return eligible_clause_; }
  int min_played() const { return min_played_; }
  const std::string& min_played_clause() const { return min_played_clause_; }
  const std::string& highest_group_clause() const {
    return highest_group_clause_;
  }
  // Certificates of this rank and above must be effective.
  const registry::Rank& notice_from() const { return notice_from_; }

 private:
  GradeStandard() : notice_from_(registry::Rank::FromString("4d")) {}
  friend class GradeStandardParser;

  std::vector<GradeInfo> grades_;
  std::vector<GradeRule> rules_;
  std::vector<Recognition> recognitions_;
  std::vector<DanRoute> dan_routes_;
  std::vector<tournaments::SubEvent> eligible_;
  std::string eligible_clause_;
  int min_played_ = 0;
  std::string min_played_clause_;
  std::string highest_group_clause_;
  registry::Rank notice_from_;
};

}  // namespace gorank::eligibility

#endif  // GORANK_SERVICES_ELIGIBILITY_GRADE_STANDARD_H_
