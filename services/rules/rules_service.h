// gRPC handlers of rules.proto (RulesService): the rules check of Go, Gomoku
// and Xiangqi game records. Thin: convert the request, one go::CheckRecords (or
// gomoku::CheckRecord) call, convert the reports. A record with violations is
// an OK answer whose report says failed = true; errors are for records that
// cannot be read.
//
// CheckGameRecord (unary): INVALID_ARGUMENT for bad options or a malformed
// record (the message names the byte offset), RESOURCE_EXHAUSTED for a record
// over the domain's limits (1 MiB, 200,000 nodes, nesting 10,000, 10,000
// games a file).
//
// CheckGomokuRecord (unary): one Gomoku record (SGF GM[4] or a move list
// "H8 I9 ...", detected unless the request names the format) through
// gomoku::CheckRecord. INVALID_ARGUMENT for bad options or a malformed record
// (the message names the line and column, or the byte offset), UNIMPLEMENTED
// for SGF setup stones, RESOURCE_EXHAUSTED over 1 MiB.
//
// CheckXiangqiRecord (unary): one Xiangqi PGN file (UTF-8 or GBK, one or
// more games) through xiangqi::CheckRecord, one report per game.
// INVALID_ARGUMENT for an empty record, an unknown notation value, a record
// the PGN reader rejects (the message names the line and column), a [FEN]
// that is not a legal position or an unknown [Format] (naming the game's
// line); RESOURCE_EXHAUSTED over 1 MiB, 10,000 games or 200,000 moves.
//
// CheckGameRecords (bidirectional stream): one answer per request message, in
// order. A request whose record or options cannot be checked is answered with
// its error_code/error_message and the stream goes on. The caller is
// authenticated and its access checked once, at the start; one log line is
// written at the end (CallGate). The stream itself ends with
// RESOURCE_EXHAUSTED when the client sends more than max_records_per_stream
// messages (the answers to the first ones have been sent), CANCELLED when the
// client cancels.
#ifndef GORANK_SERVICES_RULES_RULES_SERVICE_H_
#define GORANK_SERVICES_RULES_RULES_SERVICE_H_

#include "gorank/v1/rules.grpc.pb.h"
#include "services/auth/call_gate.h"

namespace gorank::rules {

struct RulesServiceOptions {
  // Request messages (files) one CheckGameRecords stream may carry.
  int max_records_per_stream = 10000;
};

// Thread-safe (no state besides its options); does not own the gate.
class RulesServiceImpl final : public v1::RulesService::Service {
 public:
  explicit RulesServiceImpl(CallGate* gate, RulesServiceOptions options = {})
      : gate_(gate), options_(options) {}

  grpc::Status CheckGameRecord(grpc::ServerContext* ctx,
                               const v1::CheckGameRecordRequest* req,
                               v1::CheckGameRecordResponse* resp) override;

  grpc::Status CheckGameRecords(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<v1::CheckGameRecordsResponse,
                               v1::CheckGameRecordsRequest>* stream) override;

  grpc::Status CheckGomokuRecord(grpc::ServerContext* ctx,
                                 const v1::CheckGomokuRecordRequest* req,
                                 v1::CheckGomokuRecordResponse* resp) override;

  grpc::Status CheckXiangqiRecord(
      grpc::ServerContext* ctx, const v1::CheckXiangqiRecordRequest* req,
      v1::CheckXiangqiRecordResponse* resp) override;

 private:
  CallGate* gate_;
  RulesServiceOptions options_;
};

}  // namespace gorank::rules

#endif  // GORANK_SERVICES_RULES_RULES_SERVICE_H_
