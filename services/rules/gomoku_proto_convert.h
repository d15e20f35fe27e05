// Conversions between the Gomoku check (services/rules/gomoku/checker.h) and
// the gorank.v1 Gomoku messages of rules.proto. The request side reads the
// record in the requested (or detected) notation and validates the options;
// the answer side mirrors the domain report field for field and cannot fail.
#ifndef GORANK_SERVICES_RULES_GOMOKU_PROTO_CONVERT_H_
#define GORANK_SERVICES_RULES_GOMOKU_PROTO_CONVERT_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "gorank/v1/rules.pb.h"
#include "services/rules/gomoku/checker.h"
#include "services/rules/gomoku/record.h"

namespace gorank::rules {

// Largest record accepted in either notation (the SGF reader's own limit).
inline constexpr size_t kMaxGomokuRecordBytes = 1 << 20;

// The check options of a request; unspecified enums take the domain defaults
// (formal rules, forbidden moves claimed as recorded).
// INVALID_ARGUMENT naming the field for an enum value this server does not
// know. Thread-safe.
absl::StatusOr<gomoku::CheckOptions> GomokuOptionsFromProto(
    const v1::CheckGomokuRecordRequest& req);

// SGF when the text, after a UTF-8 byte-order mark and white space, starts
// with '('; a move list otherwise. Thread-safe.
v1::GomokuRecordFormat DetectGomokuFormat(const std::string& record);

// A record read from a request, with the notation it was read in.
struct ParsedGomokuRecord {
  v1::GomokuRecordFormat format = v1::GOMOKU_RECORD_FORMAT_UNSPECIFIED;
  gomoku::GameRecord record;
};

// Reads req.record() in req.format() (detected when unspecified).
// Errors: INVALID_ARGUMENT for an empty record, an unknown format value, or a
// record the notation's reader rejects (its message names the line and
// column, or the byte offset); RESOURCE_EXHAUSTED over kMaxGomokuRecordBytes
// or the SGF reader's limits; UNIMPLEMENTED for SGF setup stones.
// Thread-safe.
absl::StatusOr<ParsedGomokuRecord> GomokuRecordFromProto(
    const v1::CheckGomokuRecordRequest& req);

// The whole answer: format, game information, violations, forbidden moves
// with their lines, outcome and final position. Thread-safe.
void GomokuReportToProto(const ParsedGomokuRecord& parsed,
                         const gomoku::CheckReport& report,
                         v1::CheckGomokuRecordResponse* out);

}  // namespace gorank::rules

#endif  // GORANK_SERVICES_RULES_GOMOKU_PROTO_CONVERT_H_
