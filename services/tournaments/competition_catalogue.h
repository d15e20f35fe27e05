// The competition catalogue: which competitions an event can belong to
// (World Mind Sports Games, National Go Championship with its groups, a
// provincial championship, ...). Shipped as data (competitions.tsv, embedded
// at build time; its header documents the columns) and loadable from a path
// so the national body can extend it without a rebuild.
#ifndef GORANK_SERVICES_TOURNAMENTS_COMPETITION_CATALOGUE_H_
#define GORANK_SERVICES_TOURNAMENTS_COMPETITION_CATALOGUE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/tournaments/event.h"

namespace gorank::tournaments {

struct Competition {
  std::string code;
  EventLevel level = EventLevel::kUnspecified;
  std::vector<std::string> groups;  // named groups, highest first
  std::string name_en;
  std::string name_zh;
};

// Immutable after construction; thread-safe for concurrent reads.
class CompetitionCatalogue {
 public:
  // The catalogue compiled into the binary. REQUIRES: the shipped data
  // parses (a test guards it; aborts otherwise).
  static const CompetitionCatalogue& Default();

  // Parses catalogue text in the competitions.tsv format. INVALID_ARGUMENT
  // listing every bad line (wrong column count, unknown level, duplicate
  // code) with its line number.
  static absl::StatusOr<CompetitionCatalogue> Parse(const std::string& text);
  // Reads and parses a file: NOT_FOUND when unreadable, else as Parse().
  static absl::StatusOr<CompetitionCatalogue> Load(const std::string& path);

  const std::vector<Competition>& competitions() const { return entries_; }
  // nullptr when `code` is not in the catalogue.
  const Competition* Find(const std::string& code) const;

  // OK when the event's competition is known (or empty) and its group is
  // "" or one of that competition's groups; INVALID_ARGUMENT naming the
  // known codes otherwise.
  absl::Status CheckEvent(const Event& event) const;

 private:
  std::vector<Competition> entries_;
};

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_COMPETITION_CATALOGUE_H_
