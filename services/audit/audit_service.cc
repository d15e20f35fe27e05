#include "services/audit/audit_service.h"

#include <unistd.h>

#include <atomic>
#include <fstream>

#include "services/common/status_macros.h"

namespace gorank::audit {
namespace {

std::string M(const char* method) {
  return MethodName(v1::AuditService::service_full_name(), method);
}

void CheckpointToProto(const Checkpoint& cp, v1::Checkpoint* out) {
  out->set_tree_size(cp.tree_size);
  out->set_root_hash(cp.root_hash);
  out->set_time_unix(cp.time_unix);
  out->set_signature(cp.signature);
  out->set_key_id(cp.key_id);
  out->set_json(cp.ToJson());
}

void NotesToProto(const std::vector<CertificateNote>& notes,
                  google::protobuf::RepeatedPtrField<v1::ReportNote>* out) {
  for (const auto& n : notes) {
    auto* p = out->Add();
    p->set_number(n.number);
    p->set_grade(n.grade);
    p->set_detail(n.detail);
  }
}

void ReportToProto(const AnnualReport& r, v1::AnnualReport* out) {
  out->set_agency_prefix(r.prefix);
  out->set_agency_name(r.agency_name);
  out->set_year(r.year);
  out->set_issued(r.issued);
  out->set_imported(r.imported);
  for (const auto& [k, v] : r.by_grade) (*out->mutable_by_grade())[k] = v;
  for (const auto& [k, v] : r.by_basis) (*out->mutable_by_basis())[k] = v;
  out->set_max_serial(r.max_serial);
  for (int s : r.missing_serials) out->add_missing_serials(s);
  for (int s : r.duplicate_serials) out->add_duplicate_serials(s);
  out->set_stock_ordered(r.stock_ordered.value_or(0));
  out->set_stock_released(r.stock_released);
  out->set_stock_used(r.stock_used);
  out->set_stock_exceeded(r.stock_exceeded);
  NotesToProto(r.high_grades, out->mutable_high_grades());
  NotesToProto(r.incomplete_holders, out->mutable_incomplete_holders());
  NotesToProto(r.appraisals, out->mutable_appraisals());
  out->set_appraisals_under_18(r.appraisals_under_18);
  NotesToProto(r.revocations, out->mutable_revocations());
  NotesToProto(r.awards, out->mutable_awards());
  for (int m : r.inactive_months) out->add_inactive_months(m);
  out->set_anomalies(r.AnomalyCount());
  NotesToProto(r.anomalies, out->mutable_anomaly_list());
}

void ReviewToProto(const Review& r, v1::Review* out) {
  out->set_id(r.id);
  out->set_agency_prefix(r.agency_prefix);
  out->set_year(r.year);
  out->set_outcome(static_cast<v1::ReviewOutcome>(static_cast<int>(r.outcome)));
  out->set_findings(r.findings);
  out->set_checkpoint_size(r.checkpoint_size);
  out->set_checkpoint_root(r.checkpoint_root);
  out->set_reviewer(r.reviewer);
  out->set_recorded_unix(r.recorded_unix);
}

}  // namespace

grpc::Status AuditServiceImpl::GetCheckpoint(
    grpc::ServerContext* ctx, const v1::GetCheckpointRequest* req,
    v1::GetCheckpointResponse* resp) {
  return gate_->Run(
      ctx, M("GetCheckpoint"), *req, [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(CheckpointAnswer answer,
                                trail_->CheckpointForAuditors());
        CheckpointToProto(answer.checkpoint, resp->mutable_checkpoint());
        resp->set_public_key(trail_->public_key().Raw());
        resp->set_log_size(answer.log_size);
        v1::LogCheck* check = resp->mutable_log_check();
        check->set_ok(answer.check.ok);
        check->set_first_bad_index(answer.check.first_bad_index);
        check->set_reason(answer.check.reason);
        check->set_checkpoint_size(answer.check.checkpoint_size);
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::GetEntries(grpc::ServerContext* ctx,
                                          const v1::GetEntriesRequest* req,
                                          v1::GetEntriesResponse* resp) {
  return gate_->Run(
      ctx, M("GetEntries"), *req, [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(auto entries,
                                trail_->Entries(req->begin(), req->end()));
        // Leaf hashes as stored, so a verifier can tell a changed entry from a
        // changed hash.
        GORANK_ASSIGN_OR_RETURN(auto leaves,
                                trail_->LeafHashes(req->begin(), req->end()));
        for (size_t i = 0; i < entries.size(); ++i) {
          auto* e = resp->add_entries();
          e->set_index(req->begin() + static_cast<int64_t>(i));
          e->set_entry(entries[i]);
          e->set_leaf_hash(leaves.at(i));
        }
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::GetInclusionProof(
    grpc::ServerContext* ctx, const v1::GetInclusionProofRequest* req,
    v1::GetInclusionProofResponse* resp) {
  return gate_->Run(
      ctx, M("GetInclusionProof"), *req,
      [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            auto proof, trail_->InclusionProof(req->index(), req->tree_size()));
        resp->set_leaf_hash(proof.first);
        for (const auto& h : proof.second) resp->add_path(h);
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::GetConsistencyProof(
    grpc::ServerContext* ctx, const v1::GetConsistencyProofRequest* req,
    v1::GetConsistencyProofResponse* resp) {
  return gate_->Run(ctx, M("GetConsistencyProof"), *req,
                    [&](const auth::Caller&) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          auto proof, trail_->ConsistencyProof(
                                          req->old_size(), req->new_size()));
                      for (const auto& h : proof) resp->add_proof(h);
                      return absl::OkStatus();
                    });
}

grpc::Status AuditServiceImpl::VerifyTables(grpc::ServerContext* ctx,
                                            const v1::VerifyTablesRequest* req,
                                            v1::VerifyTablesResponse* resp) {
  return gate_->Run(
      ctx, M("VerifyTables"), *req, [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(TableCheck check, trail_->VerifyTables());
        resp->set_rows_checked(check.rows_checked);
        resp->set_entries_read(check.entries_read);
        for (const auto& m : check.mismatches) {
          auto* out = resp->add_mismatches();
          out->set_row(m.row);
          out->set_log_index(m.log_index);
          out->set_reason(m.reason);
        }
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::GetAnnualReport(
    grpc::ServerContext* ctx, const v1::GetAnnualReportRequest* req,
    v1::GetAnnualReportResponse* resp) {
  return gate_->Run(
      ctx, M("GetAnnualReport"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            auto report,
            reporting_->Report(caller, req->agency_prefix(), req->year()));
        ReportToProto(report.first, resp->mutable_report());
        CheckpointToProto(report.second, resp->mutable_checkpoint());
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::GetNationalSummary(
    grpc::ServerContext* ctx, const v1::GetNationalSummaryRequest* req,
    v1::GetNationalSummaryResponse* resp) {
  return gate_->Run(
      ctx, M("GetNationalSummary"), *req,
      [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(auto summary,
                                reporting_->NationalSummary(req->year()));
        for (const AnnualReport& r : summary.first)
          ReportToProto(r, resp->add_reports());
        CheckpointToProto(summary.second, resp->mutable_checkpoint());
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::RecordReview(grpc::ServerContext* ctx,
                                            const v1::RecordReviewRequest* req,
                                            v1::RecordReviewResponse* resp) {
  return gate_->Run(
      ctx, M("RecordReview"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        if (req->outcome() < v1::REVIEW_OUTCOME_PASS ||
            req->outcome() > v1::REVIEW_OUTCOME_PASS_WITH_CONDITIONS) {
          return absl::InvalidArgumentError(
              "outcome must be PASS, FAIL or PASS_WITH_CONDITIONS");
        }
        Review r;
        r.agency_prefix = req->agency_prefix();
        r.year = req->year();
        r.outcome =
            static_cast<ReviewOutcome>(static_cast<int>(req->outcome()));
        r.findings = req->findings();
        r.checkpoint_size = req->checkpoint_size();
        GORANK_ASSIGN_OR_RETURN(r, trail_->RecordReview(caller, r));
        ReviewToProto(r, resp->mutable_review());
        return absl::OkStatus();
      });
}

grpc::Status AuditServiceImpl::ListReviews(grpc::ServerContext* ctx,
                                           const v1::ListReviewsRequest* req,
                                           v1::ListReviewsResponse* resp) {
  return gate_->Run(ctx, M("ListReviews"), *req,
                    [&](const auth::Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Page<Review> page,
                          trail_->ListReviews(caller, req->agency_prefix(),
                                              req->year(), PageArgsOf(*req)));
                      for (const Review& r : page.rows)
                        ReviewToProto(r, resp->add_reviews());
                      resp->set_next_page_token(page.next_page_token);
                      return absl::OkStatus();
                    });
}

grpc::Status AuditServiceImpl::GetCertificateStatement(
    grpc::ServerContext* ctx, const v1::GetCertificateStatementRequest* req,
    v1::GetCertificateStatementResponse* resp) {
  return gate_->Run(ctx, M("GetCertificateStatement"), *req,
                    [&](const auth::Caller& caller) -> absl::Status {
                      if (statements_ == nullptr) {
                        return absl::FailedPreconditionError(
                            "this server signs no certificate statements");
                      }
                      GORANK_ASSIGN_OR_RETURN(
                          SignedStatement s,
                          statements_->Statement(caller, req->number()));
                      resp->set_statement(s.text);
                      resp->set_key_id(s.statement.key_id);
                      resp->set_log_index(s.statement.log_index);
                      return absl::OkStatus();
                    });
}

grpc::Status AuditServiceImpl::GetRevocationList(
    grpc::ServerContext* ctx, const v1::GetRevocationListRequest* req,
    v1::GetRevocationListResponse* resp) {
  return gate_->Run(ctx, M("GetRevocationList"), *req,
                    [&](const auth::Caller&) -> absl::Status {
                      if (statements_ == nullptr) {
                        return absl::FailedPreconditionError(
                            "this server signs no revocation list");
                      }
                      GORANK_ASSIGN_OR_RETURN(RevocationList list,
                                              statements_->Revocations());
                      for (const Revocation& r : list.revoked) {
                        v1::RevokedCertificate* out = resp->add_revoked();
                        out->set_number(r.number);
                        out->set_revoked_unix(r.revoked_unix);
                      }
                      resp->set_tree_size(list.tree_size);
                      resp->set_time_unix(list.time_unix);
                      resp->set_key_id(list.key_id);
                      resp->set_signature(list.signature);
                      resp->set_json(list.ToJson());
                      return absl::OkStatus();
                    });
}

grpc::Status AuditServiceImpl::Backup(
    grpc::ServerContext* ctx, const v1::BackupRequest* req,
    grpc::ServerWriter<v1::BackupChunk>* writer) {
  return gate_->Run(
      ctx, M("Backup"), *req, [&](const auth::Caller& caller) -> absl::Status {
        static std::atomic<int> counter{0};
        const std::string path = scratch_dir_ + "/.backup-" +
                                 std::to_string(::getpid()) + "-" +
                                 std::to_string(++counter) + ".db";
        ::unlink(path.c_str());
        absl::Status s = trail_->Backup(caller, path);
        bool first = true;
        if (s.ok()) {
          std::ifstream in(path, std::ios::binary);
          std::string buf(1 << 20, '\0');
          while (s.ok() && in) {
            in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
            const std::streamsize n = in.gcount();
            if (n <= 0) break;
            v1::BackupChunk chunk;
            chunk.set_data(buf.data(), static_cast<size_t>(n));
            if (first)
              chunk.set_resident_ids_removed(
                  AuditTrail::ResidentIdsRemovedFor(caller));
            first = false;
            if (ctx->IsCancelled() || !writer->Write(chunk)) {
              s = absl::CancelledError(
                  "the client went away during the backup");
            }
          }
        }
        ::unlink(path.c_str());
        return s;
      });
}

}  // namespace gorank::audit
