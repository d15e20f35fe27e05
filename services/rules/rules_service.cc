#include "services/rules/rules_service.h"

#include <string>
#include <vector>

#include "services/common/grpc_status.h"
#include "services/common/request_limits.h"
#include "services/common/status_macros.h"
#include "services/rules/go/check.h"
#include "services/rules/gomoku/checker.h"
#include "services/rules/gomoku_proto_convert.h"
#include "services/rules/rules_proto_convert.h"
#include "services/rules/xiangqi/checker.h"
#include "services/rules/xiangqi_proto_convert.h"

namespace gorank::rules {
namespace {

std::string M(const char* method) {
  return MethodName(v1::RulesService::service_full_name(), method);
}

// The one domain call both RPCs share.
absl::StatusOr<std::vector<go::GameReport>> Check(
    const std::string& sgf, const v1::CheckOptions& options) {
  GORANK_ASSIGN_OR_RETURN(go::CheckOptions o, CheckOptionsFromProto(options));
  return go::CheckRecords(sgf, o);
}

// Codes a record's own problem may carry in a stream answer; anything else
// (a server fault) ends the stream through the status mapping instead.
bool IsRecordError(absl::StatusCode code) {
  return code == absl::StatusCode::kInvalidArgument ||
         code == absl::StatusCode::kResourceExhausted;
}

}  // namespace

using auth::Caller;

grpc::Status RulesServiceImpl::CheckGameRecord(
    grpc::ServerContext* ctx, const v1::CheckGameRecordRequest* req,
    v1::CheckGameRecordResponse* resp) {
  return gate_->Run(
      ctx, M("CheckGameRecord"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(std::vector<go::GameReport> reports,
                                Check(req->sgf(), req->options()));
        for (const go::GameReport& r : reports)
          GameReportToProto(r, resp->add_reports());
        return absl::OkStatus();
      });
}

grpc::Status RulesServiceImpl::CheckGameRecords(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<v1::CheckGameRecordsResponse,
                             v1::CheckGameRecordsRequest>* stream) {
  // The gate authenticates and checks access before the first read, and logs
  // one line when the stream ends.
  return gate_->RunStream(
      ctx, M("CheckGameRecords"), [&](const Caller&) -> absl::Status {
        v1::CheckGameRecordsRequest req;
        int records = 0;
        while (stream->Read(&req)) {
          if (ctx->IsCancelled())
            return absl::CancelledError("the client cancelled the stream");
          if (++records > options_.max_records_per_stream) {
            return absl::ResourceExhaustedError(
                "a CheckGameRecords stream carries at most " +
                std::to_string(options_.max_records_per_stream) +
                " records; the first ones were answered, send the rest on a "
                "new stream");
          }
          v1::CheckGameRecordsResponse resp;
          // A message over the request limits is that record's own problem.
          const absl::Status within = CheckRequestLimits(req);
          if (within.ok()) resp.set_record_id(req.record_id());
          absl::StatusOr<std::vector<go::GameReport>> reports =
              within.ok() ? Check(req.sgf(), req.options())
                          : absl::StatusOr<std::vector<go::GameReport>>(within);
          if (reports.ok()) {
            for (const go::GameReport& r : *reports)
              GameReportToProto(r, resp.add_reports());
          } else if (IsRecordError(reports.status().code())) {
            resp.set_error_code(
                absl::StatusCodeToString(reports.status().code()));
            resp.set_error_message(
                ShortenMessage(std::string(reports.status().message())));
          } else {
            return reports.status();
          }
          if (!stream->Write(resp))
            return absl::CancelledError("the client went away");
        }
        if (ctx->IsCancelled())
          return absl::CancelledError("the client cancelled the stream");
        return absl::OkStatus();
      });
}

grpc::Status RulesServiceImpl::CheckGomokuRecord(
    grpc::ServerContext* ctx, const v1::CheckGomokuRecordRequest* req,
    v1::CheckGomokuRecordResponse* resp) {
  return gate_->Run(
      ctx, M("CheckGomokuRecord"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(gomoku::CheckOptions options,
                                GomokuOptionsFromProto(*req));
        GORANK_ASSIGN_OR_RETURN(ParsedGomokuRecord parsed,
                                GomokuRecordFromProto(*req));
        GORANK_ASSIGN_OR_RETURN(gomoku::CheckReport report,
                                gomoku::CheckRecord(parsed.record, options));
        GomokuReportToProto(parsed, report, resp);
        return absl::OkStatus();
      });
}

grpc::Status RulesServiceImpl::CheckXiangqiRecord(
    grpc::ServerContext* ctx, const v1::CheckXiangqiRecordRequest* req,
    v1::CheckXiangqiRecordResponse* resp) {
  return gate_->Run(
      ctx, M("CheckXiangqiRecord"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(xiangqi::CheckOptions options,
                                XiangqiOptionsFromProto(*req));
        GORANK_ASSIGN_OR_RETURN(xiangqi::FileReport report,
                                xiangqi::CheckRecord(req->record(), options));
        XiangqiReportToProto(report, resp);
        return absl::OkStatus();
      });
}

}  // namespace gorank::rules
