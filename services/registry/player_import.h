// Value types of a player file import (PlayerRegistry::Import): the rows as
// the file has them, the options of the call, and the summary that answers
// it (which rows were added, matched or refused, and why). The rules are in
// player_import.cc; README "player import" describes them for users.
#ifndef GORANK_SERVICES_REGISTRY_PLAYER_IMPORT_H_
#define GORANK_SERVICES_REGISTRY_PLAYER_IMPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "services/registry/player.h"

namespace gorank::registry {

// At most this many rows in one import (a larger file is RESOURCE_EXHAUSTED).
inline constexpr int kMaxImportRows = 200000;
// The audit log gets one entry per this many added players.
inline constexpr int kImportAuditChunk = 1000;

// One row of a player file, every field as text (the import parses them).
struct PlayerImportRow {
  int line = 0;  // the row's line in the file (the header is line 1)
  std::string name;
  std::string latin_name;
  std::string gender;      // male/female, m/f, 男/女; "" = not given
  std::string birth_date;  // YYYY-MM-DD
  std::string resident_id;
  std::string agency;       // three-digit prefix
  std::string rank;         // any Go rank notation; "" = none
  std::string rank_date;    // YYYY-MM-DD; "" = the import day
  std::string external_id;  // the agency's own id, at most 64 bytes
};

struct PlayerImportOptions {
  bool dry_run = false;     // validate and answer; store nothing
  bool skip_bad = false;    // store the good rows even when some are refused
  std::string file_name;    // recorded in each imported rank's basis
  std::string file_sha256;  // 64 hex digits
};

struct ImportRefusal {
  int line = 0;
  std::string column;  // "" for the row as a whole
  std::string reason;
};

struct ImportOutcome {
  int line = 0;
  PlayerId player_id;    // 0 for a row added by a dry run or not stored
  bool matched = false;  // already in the registry
  std::string note;      // a warning that did not stop the row
};

struct ImportSummary {
  int rows = 0;
  int added = 0;    // rows added (or that a dry run would add)
  int matched = 0;  // rows that name a player already in the registry
  int refused = 0;  // rows refused (a row may have several refusals)
  bool stored = false;
  std::vector<ImportRefusal> refusals;  // by line
  std::vector<ImportOutcome> outcomes;  // by line; added and matched rows
};

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_PLAYER_IMPORT_H_
