#include "services/certificates/certificate_service.h"

#include "services/certificates/certificate_proto_convert.h"
#include "services/common/common_proto_convert.h"
#include "services/common/request_limits.h"
#include "services/common/status_macros.h"
#include "services/registry/common_proto_convert.h"

namespace gorank::certificates {
namespace {

std::string M(const char* method) {
  return MethodName(v1::CertificateService::service_full_name(), method);
}

}  // namespace

using auth::Caller;
using gorank::DateFromProto;
using registry::RankFromProto;

grpc::Status CertificateServiceImpl::IssueCertificate(
    grpc::ServerContext* ctx, const v1::IssueCertificateRequest* req,
    v1::IssueCertificateResponse* resp) {
  return gate_->Run(
      ctx, M("IssueCertificate"), *req,
      [&](const Caller& caller) -> absl::Status {
        IssueRequest r;
        r.request_id = req->request_id();
        r.player_id = registry::PlayerId{req->player_id()};
        GORANK_ASSIGN_OR_RETURN(
            registry::Discipline discipline,
            registry::DisciplineFromProto(req->discipline()));
        GORANK_ASSIGN_OR_RETURN(
            r.grade, RankFromProto(req->grade(), "grade", discipline));
        GORANK_ASSIGN_OR_RETURN(r.issue_date,
                                DateFromProto(req->issue_date(), "issue_date"));
        GORANK_ASSIGN_OR_RETURN(r.basis, BasisFromProto(req->basis()));
        r.basis_reference = req->basis_reference();
        r.agency_prefix = req->agency_prefix();
        r.correction = req->correction();
        r.correction_reason = req->correction_reason();
        GORANK_ASSIGN_OR_RETURN(Certificate c, office_->Issue(caller, r));
        CertificateToProto(c, office_->StateOf(c), resp->mutable_certificate());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::GetCertificate(
    grpc::ServerContext* ctx, const v1::GetCertificateRequest* req,
    v1::GetCertificateResponse* resp) {
  return gate_->Run(ctx, M("GetCertificate"), *req,
                    [&](const Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Certificate c, office_->Get(caller, req->number()));
                      CertificateToProto(c, office_->StateOf(c),
                                         resp->mutable_certificate());
                      return absl::OkStatus();
                    });
}

grpc::Status CertificateServiceImpl::ListCertificates(
    grpc::ServerContext* ctx, const v1::ListCertificatesRequest* req,
    v1::ListCertificatesResponse* resp) {
  return gate_->Run(
      ctx, M("ListCertificates"), *req,
      [&](const Caller& caller) -> absl::Status {
        CertificateFilter f;
        f.agency_prefix = req->agency_prefix();
        f.year = req->year();
        if (req->player_id() != 0)
          f.player_id = registry::PlayerId{req->player_id()};
        GORANK_ASSIGN_OR_RETURN(Page<Certificate> page,
                                office_->List(caller, f, PageArgsOf(*req)));
        for (const Certificate& c : page.rows) {
          CertificateToProto(c, office_->StateOf(c), resp->add_certificates());
        }
        resp->set_next_page_token(page.next_page_token);
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::RevokeCertificate(
    grpc::ServerContext* ctx, const v1::RevokeCertificateRequest* req,
    v1::RevokeCertificateResponse* resp) {
  return gate_->Run(
      ctx, M("RevokeCertificate"), *req,
      [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            Certificate c,
            office_->Revoke(caller, req->number(), req->reason()));
        CertificateToProto(c, office_->StateOf(c), resp->mutable_certificate());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::LodgeObjection(
    grpc::ServerContext* ctx, const v1::LodgeObjectionRequest* req,
    v1::LodgeObjectionResponse* resp) {
  return gate_->Run(ctx, M("LodgeObjection"), *req,
                    [&](const Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Objection o,
                          office_->LodgeObjection(caller, req->number(),
                                                  req->text(), req->contact()));
                      ObjectionToProto(caller, o, resp->mutable_objection());
                      return absl::OkStatus();
                    });
}

grpc::Status CertificateServiceImpl::DecideObjection(
    grpc::ServerContext* ctx, const v1::DecideObjectionRequest* req,
    v1::DecideObjectionResponse* resp) {
  return gate_->Run(ctx, M("DecideObjection"), *req,
                    [&](const Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Objection o,
                          office_->DecideObjection(caller, req->objection_id(),
                                                   req->uphold(), req->note()));
                      ObjectionToProto(caller, o, resp->mutable_objection());
                      return absl::OkStatus();
                    });
}

grpc::Status CertificateServiceImpl::ListNotices(
    grpc::ServerContext* ctx, const v1::ListNoticesRequest* req,
    v1::ListNoticesResponse* resp) {
  return gate_->Run(
      ctx, M("ListNotices"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Page<NoticeEntry> page,
                                office_->ListNotices(caller, PageArgsOf(*req)));
        resp->set_next_page_token(page.next_page_token);
        for (const NoticeEntry& n : page.rows) {
          auto* out = resp->add_notices();
          CertificateToProto(n.certificate, office_->StateOf(n.certificate),
                             out->mutable_certificate());
          out->set_holder_name(n.holder_name);
          out->set_agency_name(n.agency_name);
          out->set_open_objections(n.open_objections);
          out->set_holder_agency_prefix(n.holder_agency_prefix);
          out->set_holder_agency_name(n.holder_agency_name);
        }
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::ListObjections(
    grpc::ServerContext* ctx, const v1::ListObjectionsRequest* req,
    v1::ListObjectionsResponse* resp) {
  return gate_->Run(ctx, M("ListObjections"), *req,
                    [&](const Caller& caller) -> absl::Status {
                      std::optional<ObjectionState> state;
                      switch (req->state()) {
                        case v1::OBJECTION_STATE_UNSPECIFIED:
                          break;
                        case v1::OBJECTION_STATE_OPEN:
                          state = ObjectionState::kOpen;
                          break;
                        case v1::OBJECTION_STATE_UPHELD:
                          state = ObjectionState::kUpheld;
                          break;
                        case v1::OBJECTION_STATE_DISMISSED:
                          state = ObjectionState::kDismissed;
                          break;
                        default:
                          return absl::InvalidArgumentError(
                              "state must be OPEN, UPHELD or DISMISSED");
                      }
                      GORANK_ASSIGN_OR_RETURN(
                          Page<Objection> page,
                          office_->ListObjections(caller, state, req->number(),
                                                  PageArgsOf(*req)));
                      for (const Objection& o : page.rows) {
                        ObjectionToProto(caller, o, resp->add_objections());
                      }
                      resp->set_next_page_token(page.next_page_token);
                      return absl::OkStatus();
                    });
}

grpc::Status CertificateServiceImpl::RecommendAppraisal(
    grpc::ServerContext* ctx, const v1::RecommendAppraisalRequest* req,
    v1::RecommendAppraisalResponse* resp) {
  return gate_->Run(
      ctx, M("RecommendAppraisal"), *req,
      [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(std::optional<registry::Rank> grade,
                                RankFromProto(req->grade(), "grade"));
        if (!grade) return absl::InvalidArgumentError("grade is required");
        GORANK_ASSIGN_OR_RETURN(
            Appraisal a, office_->RecommendAppraisal(
                             caller, registry::PlayerId{req->player_id()},
                             *grade, req->note()));
        AppraisalToProto(a, resp->mutable_appraisal());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::DecideAppraisal(
    grpc::ServerContext* ctx, const v1::DecideAppraisalRequest* req,
    v1::DecideAppraisalResponse* resp) {
  return gate_->Run(
      ctx, M("DecideAppraisal"), *req,
      [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            Appraisal a, office_->DecideAppraisal(caller, req->appraisal_id(),
                                                  req->approve(), req->note()));
        AppraisalToProto(a, resp->mutable_appraisal());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::ListAppraisals(
    grpc::ServerContext* ctx, const v1::ListAppraisalsRequest* req,
    v1::ListAppraisalsResponse* resp) {
  return gate_->Run(
      ctx, M("ListAppraisals"), *req,
      [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            Page<Appraisal> page,
            office_->ListAppraisals(caller, req->agency_prefix(),
                                    req->pending_only(), PageArgsOf(*req)));
        for (const Appraisal& a : page.rows)
          AppraisalToProto(a, resp->add_appraisals());
        resp->set_next_page_token(page.next_page_token);
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::OrderStock(
    grpc::ServerContext* ctx, const v1::OrderStockRequest* req,
    v1::OrderStockResponse* resp) {
  return gate_->Run(
      ctx, M("OrderStock"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            StockOrder s, office_->OrderStock(caller, req->agency_prefix(),
                                              req->year(), req->quantity()));
        StockToProto(s, resp->mutable_order());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::ReleaseStock(
    grpc::ServerContext* ctx, const v1::ReleaseStockRequest* req,
    v1::ReleaseStockResponse* resp) {
  return gate_->Run(
      ctx, M("ReleaseStock"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            StockOrder s,
            office_->ReleaseStock(caller, req->agency_prefix(), req->year()));
        StockToProto(s, resp->mutable_order());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::GetStock(grpc::ServerContext* ctx,
                                              const v1::GetStockRequest* req,
                                              v1::GetStockResponse* resp) {
  return gate_->Run(
      ctx, M("GetStock"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            StockOrder s,
            office_->GetStock(caller, req->agency_prefix(), req->year()));
        StockToProto(s, resp->mutable_order());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::VerifyCertificate(
    grpc::ServerContext* ctx, const v1::VerifyCertificateRequest* req,
    v1::VerifyCertificateResponse* resp) {
  return gate_->Run(
      ctx, M("VerifyCertificate"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            VerifyResult r, office_->Verify(req->number(), req->holder_name()));
        VerifyToProto(r, resp);
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::LookupRank(
    grpc::ServerContext* ctx, const v1::LookupRankRequest* req,
    v1::LookupRankResponse* resp) {
  return gate_->Run(
      ctx, M("LookupRank"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(auto entries,
                                office_->LookupRank(caller, req->name()));
        const int64_t now = clock_->NowSeconds();
        for (const PublicRankEntry& e : entries)
          PublicEntryToProto(e, now, resp->add_players());
        return absl::OkStatus();
      });
}

grpc::Status CertificateServiceImpl::ExportHolders(
    grpc::ServerContext* ctx, const v1::ExportHoldersRequest* req,
    v1::ExportHoldersResponse* resp) {
  return gate_->Run(
      ctx, M("ExportHolders"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            auto rows,
            office_->ExportHolders(caller, req->agency_prefix(), req->year()));
        for (const HolderRow& row : rows)
          HolderToProto(row, resp->add_records());
        return absl::OkStatus();
      });
}

namespace {

bool HasOptions(const v1::ImportCertificatesRequest& m) {
  return m.dry_run() || m.skip_bad() || !m.file_name().empty() ||
         !m.file_sha256().empty();
}

void ImportReportToProto(const CertificateImportReport& r,
                         v1::ImportSummary* out) {
  out->set_rows(r.rows);
  out->set_added(r.added);
  out->set_matched(r.matched);
  out->set_refused(r.refused);
  out->set_stored(r.stored);
  for (const ImportRowRefusal& f : r.refusals) {
    auto* x = out->add_refusals();
    x->set_line(f.line);
    x->set_column(f.column);
    x->set_reason(f.reason);
  }
  for (const ImportRowOutcome& o : r.outcomes) {
    auto* x = out->add_outcomes();
    x->set_line(o.line);
    x->set_player_id(o.player_id.value);
    x->set_number(o.number);
    x->set_matched(o.matched);
    x->set_note(o.note);
  }
}

}  // namespace

grpc::Status CertificateServiceImpl::ImportCertificates(
    grpc::ServerContext* ctx,
    grpc::ServerReader<v1::ImportCertificatesRequest>* reader,
    v1::ImportCertificatesResponse* resp) {
  // The gate authenticates and checks access before the first read.
  return gate_->RunStream(
      ctx, M("ImportCertificates"), [&](const Caller& caller) -> absl::Status {
        CertificateImportOptions options;
        std::vector<CertificateImportRow> rows;
        v1::ImportCertificatesRequest m;
        for (int message = 1; reader->Read(&m); ++message) {
          GORANK_RETURN_IF_ERROR(CheckRequestLimits(m));
          if (message == 1) {
            options.dry_run = m.dry_run();
            options.skip_bad = m.skip_bad();
            options.file_name = m.file_name();
            options.file_sha256 = m.file_sha256();
          } else if (HasOptions(m)) {
            return absl::InvalidArgumentError(
                "message " + std::to_string(message) +
                " of the stream sets options (dry_run, skip_bad, file_name, "
                "file_sha256); "
                "they belong in the first message only");
          }
          if (rows.size() + m.rows_size() >
              static_cast<size_t>(kMaxImportRows)) {
            return absl::ResourceExhaustedError(
                "an import carries at most 200000 rows; split the file and "
                "import the parts");
          }
          for (const v1::CertificateImportRow& row : m.rows()) {
            rows.push_back(CertificateImportRow{
                row.line(), row.number(), row.holder(), row.grade(),
                row.issue_date(), row.issuing_agency(), row.discipline()});
          }
        }
        if (ctx->IsCancelled())
          return absl::CancelledError("the client cancelled the import");
        GORANK_ASSIGN_OR_RETURN(
            CertificateImportReport report,
            office_->ImportCertificates(caller, options, rows));
        ImportReportToProto(report, resp->mutable_summary());
        return absl::OkStatus();
      });
}

}  // namespace gorank::certificates
