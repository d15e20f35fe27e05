#include "services/registry/registry_service.h"

#include "services/common/request_limits.h"
#include "services/common/status_macros.h"
#include "services/registry/registry_proto_convert.h"

namespace gorank::registry {
namespace {

std::string Reg(const char* m) {
  return MethodName(v1::PlayerRegistry::service_full_name(), m);
}
std::string Agy(const char* m) {
  return MethodName(v1::AgencyService::service_full_name(), m);
}

}  // namespace

grpc::Status PlayerRegistryService::RegisterPlayer(
    grpc::ServerContext* ctx, const v1::RegisterPlayerRequest* req,
    v1::RegisterPlayerResponse* resp) {
  return gate_->Run(
      ctx, Reg("RegisterPlayer"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        PlayerDraft d;
        d.name = req->name();
        d.latin_name = req->latin_name();
        GORANK_ASSIGN_OR_RETURN(d.gender, GenderFromProto(req->gender()));
        GORANK_ASSIGN_OR_RETURN(d.birth_date,
                                DateFromProto(req->birth_date(), "birth_date"));
        d.agency_prefix = req->agency_prefix();
        d.resident_id = req->resident_id();
        GORANK_ASSIGN_OR_RETURN(
            d.initial_rank, RankFromProto(req->initial_rank(), "initial_rank"));
        d.initial_rank_basis = req->initial_rank_basis();
        d.external_id = req->external_id();
        GORANK_ASSIGN_OR_RETURN(Player p, registry_->Register(caller, d));
        PlayerToProto(p, resp->mutable_player());
        return absl::OkStatus();
      });
}

grpc::Status PlayerRegistryService::GetPlayer(grpc::ServerContext* ctx,
                                              const v1::GetPlayerRequest* req,
                                              v1::GetPlayerResponse* resp) {
  return gate_->Run(ctx, Reg("GetPlayer"), *req,
                    [&](const auth::Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Player p,
                          registry_->Get(caller, PlayerId{req->player_id()}));
                      PlayerToProto(p, resp->mutable_player());
                      return absl::OkStatus();
                    });
}

grpc::Status PlayerRegistryService::UpdatePlayer(
    grpc::ServerContext* ctx, const v1::UpdatePlayerRequest* req,
    v1::UpdatePlayerResponse* resp) {
  return gate_->Run(
      ctx, Reg("UpdatePlayer"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        PlayerPatch patch;
        if (!req->name().empty()) patch.name = req->name();
        if (!req->latin_name().empty()) patch.latin_name = req->latin_name();
        if (req->gender() != v1::GENDER_UNSPECIFIED) {
          GORANK_ASSIGN_OR_RETURN(patch.gender, GenderFromProto(req->gender()));
        }
        GORANK_ASSIGN_OR_RETURN(patch.birth_date,
                                DateFromProto(req->birth_date(), "birth_date"));
        if (!req->resident_id().empty()) patch.resident_id = req->resident_id();
        if (!req->agency_prefix().empty())
          patch.agency_prefix = req->agency_prefix();
        GORANK_ASSIGN_OR_RETURN(
            Player p,
            registry_->Update(caller, PlayerId{req->player_id()}, patch));
        PlayerToProto(p, resp->mutable_player());
        return absl::OkStatus();
      });
}

grpc::Status PlayerRegistryService::SearchPlayers(
    grpc::ServerContext* ctx, const v1::SearchPlayersRequest* req,
    v1::SearchPlayersResponse* resp) {
  return gate_->Run(
      ctx, Reg("SearchPlayers"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        SearchRequest r;
        r.name_prefix = req->name_prefix();
        r.agency_prefix = req->agency_prefix();
        GORANK_ASSIGN_OR_RETURN(r.min_rank,
                                RankFromProto(req->min_rank(), "min_rank"));
        GORANK_ASSIGN_OR_RETURN(r.max_rank,
                                RankFromProto(req->max_rank(), "max_rank"));
        r.page_size = req->page_size();
        r.page_token = req->page_token();
        GORANK_ASSIGN_OR_RETURN(PlayerPage page, registry_->Search(caller, r));
        for (const Player& p : page.players)
          PlayerToProto(p, resp->add_players());
        resp->set_next_page_token(page.next_page_token);
        return absl::OkStatus();
      });
}

grpc::Status PlayerRegistryService::GetRankHistory(
    grpc::ServerContext* ctx, const v1::GetRankHistoryRequest* req,
    v1::GetRankHistoryResponse* resp) {
  return gate_->Run(
      ctx, Reg("GetRankHistory"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            auto entries,
            registry_->History(caller, PlayerId{req->player_id()}));
        for (const auto& e : entries) HistoryToProto(e, resp->add_entries());
        return absl::OkStatus();
      });
}

grpc::Status PlayerRegistryService::ChangeRank(grpc::ServerContext* ctx,
                                               const v1::ChangeRankRequest* req,
                                               v1::ChangeRankResponse* resp) {
  return gate_->Run(
      ctx, Reg("ChangeRank"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Discipline discipline,
                                DisciplineFromProto(req->discipline()));
        GORANK_ASSIGN_OR_RETURN(
            std::optional<Rank> rank,
            RankFromProto(req->new_rank(), "new_rank", discipline));
        if (!rank) return absl::InvalidArgumentError("new_rank is required");
        GORANK_ASSIGN_OR_RETURN(RankChangeReason reason,
                                ReasonFromProto(req->reason()));
        GORANK_ASSIGN_OR_RETURN(
            std::optional<Date> date,
            DateFromProto(req->effective_date(), "effective_date"));
        GORANK_ASSIGN_OR_RETURN(
            auto result,
            registry_->ChangeRank(
                caller, PlayerId{req->player_id()}, *rank, reason, req->basis(),
                date,
                AwardBasis{req->basis_event_id(), req->basis_certificate()}));
        PlayerToProto(result.first, resp->mutable_player());
        HistoryToProto(result.second, resp->mutable_entry());
        return absl::OkStatus();
      });
}

grpc::Status PlayerRegistryService::ImportPlayers(
    grpc::ServerContext* ctx,
    grpc::ServerReader<v1::ImportPlayersRequest>* reader,
    v1::ImportPlayersResponse* resp) {
  return gate_->RunStream(
      ctx, Reg("ImportPlayers"),
      [&](const auth::Caller& caller) -> absl::Status {
        PlayerImportOptions options;
        std::vector<PlayerImportRow> rows;
        v1::ImportPlayersRequest req;
        bool first = true;
        while (reader->Read(&req)) {
          GORANK_RETURN_IF_ERROR(CheckRequestLimits(req));
          if (first) {
            options.dry_run = req.dry_run();
            options.skip_bad = req.skip_bad();
            options.file_name = req.file_name();
            options.file_sha256 = req.file_sha256();
          } else if (req.dry_run() || req.skip_bad() ||
                     !req.file_name().empty() || !req.file_sha256().empty()) {
            return absl::InvalidArgumentError(
                "dry_run, skip_bad, file_name and file_sha256 belong in the "
                "first message of "
                "the stream only");
          }
          first = false;
          if (rows.size() + static_cast<size_t>(req.rows_size()) >
              static_cast<size_t>(kMaxImportRows)) {
            return absl::ResourceExhaustedError("an import takes at most " +
                                                std::to_string(kMaxImportRows) +
                                                " rows; split the file");
          }
          for (const v1::PlayerImportRow& r : req.rows())
            rows.push_back(ImportRowFromProto(r));
        }
        if (ctx->IsCancelled())
          return absl::CancelledError("the client cancelled the import");
        GORANK_ASSIGN_OR_RETURN(ImportSummary summary,
                                registry_->Import(caller, options, rows));
        ImportSummaryToProto(summary, resp->mutable_summary());
        return absl::OkStatus();
      });
}

grpc::Status AgencyServiceImpl::ListAgencies(grpc::ServerContext* ctx,
                                             const v1::ListAgenciesRequest* req,
                                             v1::ListAgenciesResponse* resp) {
  return gate_->Run(
      ctx, Agy("ListAgencies"), *req, [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(auto agencies, registry_->ListAgencies());
        for (const Agency& a : agencies) AgencyToProto(a, resp->add_agencies());
        return absl::OkStatus();
      });
}

grpc::Status AgencyServiceImpl::CreateAgency(grpc::ServerContext* ctx,
                                             const v1::CreateAgencyRequest* req,
                                             v1::CreateAgencyResponse* resp) {
  return gate_->Run(ctx, Agy("CreateAgency"), *req,
                    [&](const auth::Caller& caller) -> absl::Status {
                      Agency a;
                      a.prefix = req->prefix();
                      a.name = req->name();
                      a.name_en = req->name_en();
                      GORANK_ASSIGN_OR_RETURN(
                          a, registry_->CreateAgency(caller, a));
                      AgencyToProto(a, resp->mutable_agency());
                      return absl::OkStatus();
                    });
}

grpc::Status AgencyServiceImpl::SuspendAgency(
    grpc::ServerContext* ctx, const v1::SuspendAgencyRequest* req,
    v1::SuspendAgencyResponse* resp) {
  return gate_->Run(ctx, Agy("SuspendAgency"), *req,
                    [&](const auth::Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Agency a,
                          registry_->SetAgencyStatus(caller, req->prefix(),
                                                     AgencyStatus::kSuspended,
                                                     req->reason()));
                      AgencyToProto(a, resp->mutable_agency());
                      return absl::OkStatus();
                    });
}

grpc::Status AgencyServiceImpl::ReinstateAgency(
    grpc::ServerContext* ctx, const v1::ReinstateAgencyRequest* req,
    v1::ReinstateAgencyResponse* resp) {
  return gate_->Run(ctx, Agy("ReinstateAgency"), *req,
                    [&](const auth::Caller& caller) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(
                          Agency a, registry_->SetAgencyStatus(
                                        caller, req->prefix(),
                                        AgencyStatus::kActive, req->reason()));
                      AgencyToProto(a, resp->mutable_agency());
                      return absl::OkStatus();
                    });
}

grpc::Status RankServiceImpl::ParseRank(grpc::ServerContext* ctx,
                                        const v1::ParseRankRequest* req,
                                        v1::ParseRankResponse* resp) {
  return gate_->Run(
      ctx, MethodName(v1::RankService::service_full_name(), "ParseRank"), *req,
      [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Discipline d,
                                DisciplineFromProto(req->discipline()));
        GORANK_ASSIGN_OR_RETURN(Rank r, Rank::Parse(req->text(), d));
        RankToProto(r, resp->mutable_rank());
        resp->set_chinese(r.ToChinese());
        return absl::OkStatus();
      });
}

}  // namespace gorank::registry
