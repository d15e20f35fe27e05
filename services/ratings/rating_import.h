// Rating import (rankctl rating import; SPEC section 5): the rules a rating
// file's rows are held to before imported starting ratings are stored. Pure
// C++: the ledger (rating_ledger.h) reads what these functions need from the
// repository, calls PlanStartImport and stores its starts.
//
// A row names one player in its `player` field, tried as (PlayerLookups):
//   "id:N"             the player id N only;
//   "PPP:X"            (PPP three digits) the external id X of agency PPP;
//   anything else      the player id (when it is a positive decimal number),
//                      the resident ID (when it is a valid one) and the
//                      external id in every agency, all at once.
// Exactly one registered player must be found; several different players
// (an EGD PIN that is also another player's id, an external id used by two
// agencies) are refused as ambiguous, naming each and the form to write.
//
// A start applies only before the player's first rated event: a player
// with a rated event is refused, unless the row equals the player's stored
// start (then it is matched). A different start for a player whose stored
// start has rated nothing yet replaces it (with a note naming the old one).
// A row equal to the stored start (same gor and pro_rating, and the same
// as_of when the row gives one) is matched and changes nothing. A player on
// two rows of one file is refused on both.
#ifndef GORANK_SERVICES_RATINGS_RATING_IMPORT_H_
#define GORANK_SERVICES_RATINGS_RATING_IMPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/date.h"
#include "services/ratings/rating_book.h"
#include "services/ratings/rating_repository.h"

namespace gorank::ratings {

// A stream (file) carries at most this many rows.
inline constexpr int kMaxImportRows = 200000;
// The GoR an imported start may have: the EGF floor (EgfSettings::floor)
// up to this, above the top of the scale (9p = 2940).
inline constexpr double kMaxImportedGor = 3200.0;
// The professional rating an imported start may have: above 0, at most this.
inline constexpr double kMaxImportedPro = 4000.0;

// One row of the file, as the file has it.
struct StartRow {
  int line = 0;
  std::string player;
  std::string gor;
  std::string pro_rating;  // "" : none
  std::string as_of;       // "" : today
};

struct StartImport {
  std::string
      file_name;  // as the client gave it; the origin names its base name
  std::string file_sha256;  // hex of the file's bytes, or ""
  bool dry_run = false;
  bool skip_bad = false;  // store the good rows even when some are refused
  std::vector<StartRow> rows;
};

struct RowRefusal {
  int line = 0;
  std::string column;  // "" for the row as a whole
  std::string reason;
};

struct RowOutcome {
  int line = 0;
  PlayerId player;
  bool matched = false;  // equal to the stored start; nothing changed
  std::string note;      // e.g. the start this row replaces
};

struct StartImportReport {
  int rows = 0;
  int added = 0;  // new or replacing starts
  int matched = 0;
  int refused = 0;  // rows
  bool stored = false;
  std::vector<RowRefusal> refusals;  // by line, then column
  std::vector<RowOutcome> outcomes;  // by line
};

struct StartImportPlan {
  StartImportReport report;  // stored = false
  // The starts to store (the good rows that are not matched), by player.
  std::vector<RatingStart> starts;
};

// The lookups `player_text` is tried as (see the file comment); empty for
// an empty field. Thread-safe (pure).
std::vector<PlayerLookup> PlayerLookups(const std::string& player_text);

// Checks every row of `file`. `matches[i]` holds what the lookups of row i
// found (the union over PlayerLookups(rows[i].player)); `book` is the
// current rating book; `stored` every stored start by player; `today` the
// latest allowed as_of; `now_unix` the recorded time of new starts.
// Returns the report and the starts to store; refused rows are in the
// report, not errors.
// INVALID_ARGUMENT: no rows; file_sha256 neither empty nor 64 hex digits;
//   matches.size() != rows.size().
// RESOURCE_EXHAUSTED: more than kMaxImportRows rows.
// Thread-safe (pure).
absl::StatusOr<StartImportPlan> PlanStartImport(
    const StartImport& file,
    const std::vector<std::vector<PlayerMatch>>& matches,
    const RatingBook& book, const std::map<PlayerId, RatingStart>& stored,
    const Date& today, int64_t now_unix);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_IMPORT_H_
