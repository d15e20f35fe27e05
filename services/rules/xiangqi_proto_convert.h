// Conversions between the Xiangqi check (services/rules/xiangqi/checker.h)
// and the gorank.v1 Xiangqi messages of rules.proto. The request side
// validates the notation option; the answer side mirrors the domain report
// field for field and cannot fail.
#ifndef GORANK_SERVICES_RULES_XIANGQI_PROTO_CONVERT_H_
#define GORANK_SERVICES_RULES_XIANGQI_PROTO_CONVERT_H_

#include "absl/status/statusor.h"
#include "gorank/v1/rules.pb.h"
#include "services/rules/xiangqi/checker.h"

namespace gorank::rules {

// The check options of a request; an unspecified notation leaves the
// choice to each game ([Format], else per move). INVALID_ARGUMENT naming the
// field for a value this server does not know, or for an empty record.
// Thread-safe.
absl::StatusOr<xiangqi::CheckOptions> XiangqiOptionsFromProto(
    const v1::CheckXiangqiRecordRequest& req);

// The whole answer: charset, and per game its information, violations,
// repetitions, outcome and final position. Thread-safe.
void XiangqiReportToProto(const xiangqi::FileReport& report,
                          v1::CheckXiangqiRecordResponse* out);

}  // namespace gorank::rules

#endif  // GORANK_SERVICES_RULES_XIANGQI_PROTO_CONVERT_H_
