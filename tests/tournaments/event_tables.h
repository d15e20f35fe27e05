// Test helper: the row counts of the tournament tables and the audit log of
// an SQLite database, to prove that a refused call stored nothing (the
// shared DatabaseSnapshot covers the registry tables only).
#ifndef GORANK_TESTS_TOURNAMENTS_EVENT_TABLES_H_
#define GORANK_TESTS_TOURNAMENTS_EVENT_TABLES_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/status_macros.h"
#include "storage/database.h"

namespace gorank::tournaments::testing {

// events, event_results, event_players, audit_log -> row count. Also a
// checksum of every stored results document, so a replaced document with
// the same row count still shows.
inline absl::StatusOr<std::map<std::string, int64_t>> CountEventRows(
    storage::Database* db) {
  static constexpr const char* kQueries[][2] = {
      {"events", "SELECT count(*) FROM events"},
      {"event_results", "SELECT count(*) FROM event_results"},
      {"event_players", "SELECT count(*) FROM event_players"},
      {"audit_log", "SELECT count(*) FROM audit_log"},
      {"results_length",
       "SELECT coalesce(sum(length(results)), 0) FROM event_results"},
  };
  std::map<std::string, int64_t> out;
  GORANK_RETURN_IF_ERROR(db->Read([&](storage::Connection& c) -> absl::Status {
    for (const auto& q : kQueries) {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(q[1]));
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      out[q[0]] = row ? st->Int(0) : -1;
    }
    return absl::OkStatus();
  }));
  return out;
}

}  // namespace gorank::tournaments::testing

#endif  // GORANK_TESTS_TOURNAMENTS_EVENT_TABLES_H_
