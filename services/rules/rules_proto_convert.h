// Conversions between the Go rules check (services/rules/go/check.h) and the
// gorank.v1 rules messages (proto/gorank/v1/rules.proto). The messages mirror
// the domain types field for field: the request side validates and returns
// INVALID_ARGUMENT naming the field; the answer side cannot fail.
#ifndef GORANK_SERVICES_RULES_RULES_PROTO_CONVERT_H_
#define GORANK_SERVICES_RULES_RULES_PROTO_CONVERT_H_

#include "absl/status/statusor.h"
#include "gorank/v1/rules.pb.h"
#include "services/rules/go/check.h"

namespace gorank::rules {

// Referee warnings accepted per side in a request (two already lose).
inline constexpr int kMaxRequestWarnings = 9;
// Largest komi override accepted, in half points either way (361 points).
inline constexpr int kMaxKomiHalfPoints = 722;

// The check options of a request; unspecified enums take the domain defaults
// (Chinese rules, situational superko, cycles ruled "no result"). The SGF
// limits are the domain's (1 MiB per file).
// INVALID_ARGUMENT, naming the field: an enum value this server does not know;
// komi_half_points beyond +-kMaxKomiHalfPoints; black/white_warnings outside
// 0..kMaxRequestWarnings; a negative variation element; dead_stones given
// while dead_stones_given is false; a dead stone whose `sgf` is not two
// letters a..y, or whose col/row is outside 0..24.
// Thread-safe.
absl::StatusOr<go::CheckOptions> CheckOptionsFromProto(
    const v1::CheckOptions& in);

// `p` on a board of `board_size`, with its SGF name and printed label.
// REQUIRES: p is on the board.
void PointToProto(go::Point p, int board_size, v1::BoardPoint* out);

// The whole report: game information, notes, violations, warnings, cycle, end,
// final position, dead stones, count, outcome and result check. Thread-safe.
void GameReportToProto(const go::GameReport& report, v1::GameReport* out);

}  // namespace gorank::rules

#endif  // GORANK_SERVICES_RULES_RULES_PROTO_CONVERT_H_
