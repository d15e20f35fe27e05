#include "services/ratings/rating_service.h"

#include <string>
#include <vector>

#include "services/common/common_proto_convert.h"
#include "services/common/request_limits.h"
#include "services/common/status_macros.h"
#include "services/registry/common_proto_convert.h"

namespace gorank::ratings {
namespace {

std::string M(const char* method) {
  return MethodName(v1::RatingService::service_full_name(), method);
}

absl::Status CheckPlayerId(int64_t player_id) {
  if (player_id <= 0) {
    return absl::InvalidArgumentError(
        "player_id must be a positive registry id, got " +
        std::to_string(player_id));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Date>> OptionalDate(const v1::Date& d,
                                                 const std::string& field) {
  return gorank::DateFromProto(d, field);
}

void RatingToProto(const PlayerRating& r, v1::PlayerRating* out) {
  out->set_player_id(r.player.value);
  out->set_gor(r.gor);
  registry::RankToProto(r.Grade(), out->mutable_grade());
  out->set_rated_games(r.rated_games);
  out->set_rated_events(r.rated_events);
  if (r.pro_elo.has_value()) out->set_pro_rating(*r.pro_elo);
  out->set_pro_games(r.pro_games);
}

void ListRowToProto(const RatingListRow& r, v1::PlayerRating* out) {
  RatingToProto(r.rating, out);
  out->set_name(r.name);
  out->set_latin_name(r.latin_name);
  out->set_agency_prefix(r.agency_prefix);
  if (r.rank_ordinal) {
    absl::StatusOr<registry::Rank> rank =
        registry::Rank::FromOrdinal(*r.rank_ordinal);
    if (rank.ok()) registry::RankToProto(*rank, out->mutable_rank());
  }
  if (r.last_rated) {
    gorank::DateToProto(*r.last_rated, out->mutable_last_rated());
  }
}

absl::StatusOr<RatingListFilter> FilterOf(const v1::ListRatingsRequest& req) {
  GORANK_ASSIGN_OR_RETURN(registry::Discipline discipline,
                          registry::DisciplineFromProto(req.discipline()));
  if (discipline != registry::Discipline::kGo) {
    return absl::InvalidArgumentError(
        "discipline: the rating lists are Go ratings (GoR and the pro list); "
        "Gomoku has no rating system");
  }
  RatingListFilter f;
  f.pro_list = req.pro_list();
  f.month = req.month();
  f.agency_prefix = req.agency_prefix();
  f.active_months = req.active_months();
  GORANK_ASSIGN_OR_RETURN(f.min_rank,
                          registry::RankFromProto(req.min_rank(), "min_rank"));
  GORANK_ASSIGN_OR_RETURN(f.max_rank,
                          registry::RankFromProto(req.max_rank(), "max_rank"));
  return f;
}

void ChangeToProto(const RatingChange& c, v1::RatingChange* out) {
  out->set_event_id(c.event.event_id);
  gorank::DateToProto(c.event.date, out->mutable_event_date());
  out->set_event_order(c.event.order);
  out->set_gor_before(c.gor_before);
  out->set_gor_after(c.gor_after);
  out->set_games(c.games);
  if (c.pro_before.has_value()) out->set_pro_before(*c.pro_before);
  if (c.pro_after.has_value()) out->set_pro_after(*c.pro_after);
  out->set_pro_games(c.pro_games);
}

void EvidenceToProto(const Evidence& e, v1::PromotionEvidence* out) {
  if (e.rating) out->set_rating(*e.rating);
  if (e.threshold) out->set_threshold(*e.threshold);
  out->set_rated_games(e.rated_games);
  out->set_rated_events(e.rated_events);
  if (e.days_since_promotion) {
    out->set_days_since_promotion(*e.days_since_promotion);
  }
  out->set_games(e.games);
  out->set_wins(e.wins);
  out->set_draws(e.draws);
  out->set_count(e.count);
  out->set_required(e.required);
  for (const std::string& id : e.event_ids) out->add_event_ids(id);
}

void ProposalToProto(const StoredProposal& s, v1::PromotionProposal* out) {
  const Proposal& p = s.proposal;
  out->set_proposal_id(s.id);
  out->set_player_id(p.player.value);
  out->set_rule_id(p.rule_id);
  out->set_rule_description(p.rule_description);
  registry::RankToProto(p.from, out->mutable_from_rank());
  registry::RankToProto(p.to, out->mutable_to_rank());
  EvidenceToProto(p.evidence, out->mutable_evidence());
  out->set_explanation(p.explanation);
  out->set_state(static_cast<v1::ProposalState>(static_cast<int>(s.state)));
  gorank::DateToProto(s.as_of, out->mutable_as_of());
  out->set_decided_by(s.decided_by);
  out->set_decision_reason(s.decision_reason);
  out->set_certificate_number(s.certificate_number);
}

void SummaryToProto(const StartImportReport& r, v1::ImportSummary* out) {
  out->set_rows(r.rows);
  out->set_added(r.added);
  out->set_matched(r.matched);
  out->set_refused(r.refused);
  out->set_stored(r.stored);
  for (const RowRefusal& f : r.refusals) {
    v1::ImportRefusal* p = out->add_refusals();
    p->set_line(f.line);
    p->set_column(f.column);
    p->set_reason(f.reason);
  }
  for (const RowOutcome& o : r.outcomes) {
    v1::ImportOutcome* p = out->add_outcomes();
    p->set_line(o.line);
    p->set_player_id(o.player.value);
    p->set_matched(o.matched);
    p->set_note(o.note);
  }
}

bool HasOptions(const v1::ImportRatingsRequest& m) {
  return m.dry_run() || m.skip_bad() || !m.file_name().empty() ||
         !m.file_sha256().empty();
}

}  // namespace

grpc::Status RatingServiceImpl::ImportRatings(
    grpc::ServerContext* ctx,
    grpc::ServerReader<v1::ImportRatingsRequest>* reader,
    v1::ImportRatingsResponse* resp) {
  return gate_->RunStream(
      ctx, M("ImportRatings"), [&](const auth::Caller& caller) -> absl::Status {
        StartImport file;
        v1::ImportRatingsRequest m;
        int messages = 0;
        while (reader->Read(&m)) {
          if (ctx->IsCancelled()) {
            return absl::CancelledError("the client cancelled the stream");
          }
          GORANK_RETURN_IF_ERROR(CheckRequestLimits(m));
          if (messages++ == 0) {
            file.dry_run = m.dry_run();
            file.skip_bad = m.skip_bad();
            file.file_name = m.file_name();
            file.file_sha256 = m.file_sha256();
          } else if (HasOptions(m)) {
            return absl::InvalidArgumentError(
                "message " + std::to_string(messages) +
                " of the stream sets options (dry_run, skip_bad, file_name, "
                "file_sha256); only the first message may");
          }
          if (file.rows.size() + m.rows_size() >
              static_cast<size_t>(kMaxImportRows)) {
            return absl::ResourceExhaustedError(
                "a rating import carries at most " +
                std::to_string(kMaxImportRows) +
                " rows; split the file and import the parts one by one");
          }
          for (const v1::RatingImportRow& row : m.rows()) {
            file.rows.push_back(StartRow{row.line(), row.player(), row.gor(),
                                         row.pro_rating(), row.as_of()});
          }
        }
        if (ctx->IsCancelled()) {
          return absl::CancelledError("the client cancelled the stream");
        }
        GORANK_ASSIGN_OR_RETURN(StartImportReport report,
                                ledger_->ImportStarts(file, caller.Describe()));
        SummaryToProto(report, resp->mutable_summary());
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::GetRating(grpc::ServerContext* ctx,
                                          const v1::GetRatingRequest* req,
                                          v1::GetRatingResponse* resp) {
  return gate_->Run(
      ctx, M("GetRating"), *req, [&](const auth::Caller&) -> absl::Status {
        GORANK_RETURN_IF_ERROR(CheckPlayerId(req->player_id()));
        GORANK_ASSIGN_OR_RETURN(
            PlayerRating rating,
            ratings_->GetRating(PlayerId{req->player_id()}));
        RatingToProto(rating, resp->mutable_rating());
        GORANK_ASSIGN_OR_RETURN(std::optional<RatingStart> start,
                                ratings_->GetStart(PlayerId{req->player_id()}));
        if (start) resp->mutable_rating()->set_origin(start->origin);
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::GetRatingHistory(
    grpc::ServerContext* ctx, const v1::GetRatingHistoryRequest* req,
    v1::GetRatingHistoryResponse* resp) {
  return gate_->Run(ctx, M("GetRatingHistory"), *req,
                    [&](const auth::Caller&) -> absl::Status {
                      GORANK_RETURN_IF_ERROR(CheckPlayerId(req->player_id()));
                      GORANK_ASSIGN_OR_RETURN(
                          std::vector<RatingChange> history,
                          ratings_->History(PlayerId{req->player_id()}));
                      for (const RatingChange& c : history) {
                        ChangeToProto(c, resp->add_changes());
                      }
                      return absl::OkStatus();
                    });
}

grpc::Status RatingServiceImpl::ListRatings(grpc::ServerContext* ctx,
                                            const v1::ListRatingsRequest* req,
                                            v1::ListRatingsResponse* resp) {
  return gate_->Run(
      ctx, M("ListRatings"), *req, [&](const auth::Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(RatingListFilter filter, FilterOf(*req));
        GORANK_ASSIGN_OR_RETURN(RatingListPage page,
                                lists_->List(filter, PageArgsOf(*req)));
        for (const RatingListRow& r : page.rows) {
          ListRowToProto(r, resp->add_ratings());
        }
        resp->set_next_page_token(page.next_page_token);
        resp->set_first_position(page.first_position);
        resp->set_month(filter.month);
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::ListRatingSnapshots(
    grpc::ServerContext* ctx, const v1::ListRatingSnapshotsRequest* req,
    v1::ListRatingSnapshotsResponse* resp) {
  return gate_->Run(ctx, M("ListRatingSnapshots"), *req,
                    [&](const auth::Caller&) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(std::vector<KeptMonth> months,
                                              lists_->Months());
                      for (const KeptMonth& m : months) {
                        v1::RatingSnapshotMonth* out = resp->add_months();
                        out->set_month(m.month);
                        out->set_players(m.players);
                        out->set_pro_players(m.pro_players);
                        out->set_taken_unix(m.taken_unix);
                      }
                      return absl::OkStatus();
                    });
}

grpc::Status RatingServiceImpl::RecomputeRatings(
    grpc::ServerContext* ctx, const v1::RecomputeRatingsRequest* req,
    v1::RecomputeRatingsResponse* resp) {
  return gate_->Run(
      ctx, M("RecomputeRatings"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            RecomputeReport r,
            ledger_->Recompute(caller.Describe(), req->dry_run()));
        resp->set_events(r.events);
        resp->set_games(r.games);
        resp->set_players(r.players);
        resp->set_table_sha256(r.table_sha256);
        resp->set_changed(r.changed);
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::ListPromotionRules(
    grpc::ServerContext* ctx, const v1::ListPromotionRulesRequest* req,
    v1::ListPromotionRulesResponse* resp) {
  return gate_->Run(
      ctx, M("ListPromotionRules"), *req,
      [&](const auth::Caller&) -> absl::Status {
        for (const PromotionRule& r : promotions_->config().rules) {
          v1::PromotionRule* out = resp->add_rules();
          out->set_id(r.id);
          out->set_kind(r.KindName());
          out->set_description(r.description);
          out->set_enabled(r.enabled);
        }
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::EvaluatePromotions(
    grpc::ServerContext* ctx, const v1::EvaluatePromotionsRequest* req,
    v1::EvaluatePromotionsResponse* resp) {
  return gate_->Run(
      ctx, M("EvaluatePromotions"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        EvaluateRequest r;
        GORANK_ASSIGN_OR_RETURN(r.as_of, OptionalDate(req->as_of(), "as_of"));
        for (int64_t id : req->player_ids()) {
          GORANK_RETURN_IF_ERROR(CheckPlayerId(id));
          r.players.push_back(PlayerId{id});
        }
        r.rule_ids.assign(req->rule_ids().begin(), req->rule_ids().end());
        GORANK_ASSIGN_OR_RETURN(std::vector<StoredProposal> proposals,
                                promotions_->Evaluate(caller, r));
        for (const StoredProposal& p : proposals) {
          ProposalToProto(p, resp->add_proposals());
        }
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::ExplainPromotion(
    grpc::ServerContext* ctx, const v1::ExplainPromotionRequest* req,
    v1::ExplainPromotionResponse* resp) {
  return gate_->Run(
      ctx, M("ExplainPromotion"), *req,
      [&](const auth::Caller&) -> absl::Status {
        GORANK_RETURN_IF_ERROR(CheckPlayerId(req->player_id()));
        GORANK_ASSIGN_OR_RETURN(std::optional<Date> as_of,
                                OptionalDate(req->as_of(), "as_of"));
        GORANK_ASSIGN_OR_RETURN(
            std::vector<RuleVerdict> verdicts,
            promotions_->Explain(PlayerId{req->player_id()}, as_of));
        for (const RuleVerdict& v : verdicts) {
          v1::PromotionVerdict* out = resp->add_verdicts();
          out->set_rule_id(v.rule_id);
          out->set_applicable(v.applicable);
          out->set_met(v.met);
          if (v.proposed) {
            registry::RankToProto(*v.proposed, out->mutable_proposed_rank());
          }
          EvidenceToProto(v.evidence, out->mutable_evidence());
          out->set_explanation(v.explanation);
        }
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::ListProposals(
    grpc::ServerContext* ctx, const v1::ListProposalsRequest* req,
    v1::ListProposalsResponse* resp) {
  return gate_->Run(
      ctx, M("ListProposals"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        ProposalFilter f;
        if (req->state() < 0 || req->state() > 4) {
          return absl::InvalidArgumentError("state: unknown proposal state " +
                                            std::to_string(req->state()));
        }
        if (req->state() != v1::PROPOSAL_STATE_UNSPECIFIED) {
          f.state = static_cast<ProposalState>(static_cast<int>(req->state()));
        }
        if (req->player_id() < 0) {
          return absl::InvalidArgumentError("player_id must not be negative");
        }
        if (req->player_id() > 0) f.player = PlayerId{req->player_id()};
        GORANK_ASSIGN_OR_RETURN(Page<StoredProposal> page,
                                promotions_->List(caller, f, PageArgsOf(*req)));
        for (const StoredProposal& p : page.rows) {
          ProposalToProto(p, resp->add_proposals());
        }
        resp->set_next_page_token(page.next_page_token);
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::DecidePromotion(
    grpc::ServerContext* ctx, const v1::DecidePromotionRequest* req,
    v1::DecidePromotionResponse* resp) {
  return gate_->Run(
      ctx, M("DecidePromotion"), *req,
      [&](const auth::Caller& caller) -> absl::Status {
        Decision d;
        d.proposal_id = req->proposal_id();
        if (req->decision() == v1::PROMOTION_DECISION_APPROVE) {
          d.approve = true;
        } else if (req->decision() != v1::PROMOTION_DECISION_REJECT) {
          return absl::InvalidArgumentError(
              "decision must be APPROVE or REJECT");
        }
        d.reason = req->reason();
        GORANK_ASSIGN_OR_RETURN(
            d.effective_date,
            OptionalDate(req->effective_date(), "effective_date"));
        GORANK_ASSIGN_OR_RETURN(StoredProposal p,
                                promotions_->Decide(caller, d));
        ProposalToProto(p, resp->mutable_proposal());
        return absl::OkStatus();
      });
}

}  // namespace gorank::ratings
