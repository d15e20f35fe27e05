// JSON encoding of events and their results: the before/after of the audit
// log's tournament entries, and the form in which storage keeps an event's
// description and results. Enumerations are written as their integer
// values, dates as "YYYY-MM-DD", ranks in their short notation ("3d"),
// absent optional values are omitted. Decoding accepts exactly what
// encoding writes (missing keys take the value-type defaults).
#ifndef GORANK_SERVICES_TOURNAMENTS_EVENT_JSON_H_
#define GORANK_SERVICES_TOURNAMENTS_EVENT_JSON_H_

#include <string>

#include "absl/status/statusor.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"

namespace gorank::tournaments {

// Compact JSON (no whitespace); deterministic for equal values.
// Thread-safe.
std::string EventToJson(const Event& event);
std::string ResultsToJson(const EventResults& results);

// INVALID_ARGUMENT when `json` is not JSON of the right shape (a value of
// the wrong type, a bad date or rank). Thread-safe.
absl::StatusOr<Event> EventFromJson(const std::string& json);
absl::StatusOr<EventResults> ResultsFromJson(const std::string& json);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_EVENT_JSON_H_
