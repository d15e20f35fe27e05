#include "services/tournaments/tournament_service.h"

#include "services/common/status_macros.h"
#include "services/tournaments/pairing_proto_convert.h"
#include "services/tournaments/tournament_proto_convert.h"

namespace gorank::tournaments {
namespace {

std::string M(const char* method) {
  return MethodName(v1::TournamentService::service_full_name(), method);
}

}  // namespace

using auth::Caller;

grpc::Status TournamentServiceImpl::ListCompetitions(
    grpc::ServerContext* ctx, const v1::ListCompetitionsRequest* req,
    v1::ListCompetitionsResponse* resp) {
  return gate_->Run(ctx, M("ListCompetitions"), *req,
                    [&](const Caller&) -> absl::Status {
                      for (const Competition& c : catalogue_->competitions()) {
                        CompetitionToProto(c, resp->add_competitions());
                      }
                      return absl::OkStatus();
                    });
}

grpc::Status TournamentServiceImpl::CreateEvent(
    grpc::ServerContext* ctx, const v1::CreateEventRequest* req,
    v1::CreateEventResponse* resp) {
  return gate_->Run(
      ctx, M("CreateEvent"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Event e, EventFromProto(req->event()));
        GORANK_ASSIGN_OR_RETURN(Event created, desk_->Create(caller, e));
        EventToProto(created, resp->mutable_event());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::GetEvent(grpc::ServerContext* ctx,
                                             const v1::GetEventRequest* req,
                                             v1::GetEventResponse* resp) {
  return gate_->Run(
      ctx, M("GetEvent"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Event e, desk_->Get(EventId{req->event_id()}));
        EventToProto(e, resp->mutable_event());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::UpdateEvent(
    grpc::ServerContext* ctx, const v1::UpdateEventRequest* req,
    v1::UpdateEventResponse* resp) {
  return gate_->Run(
      ctx, M("UpdateEvent"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Event e, EventFromProto(req->event()));
        GORANK_ASSIGN_OR_RETURN(Event updated, desk_->Update(caller, e));
        EventToProto(updated, resp->mutable_event());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::ListEvents(grpc::ServerContext* ctx,
                                               const v1::ListEventsRequest* req,
                                               v1::ListEventsResponse* resp) {
  return gate_->Run(
      ctx, M("ListEvents"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(EventFilter f, FilterFromProto(*req));
        GORANK_ASSIGN_OR_RETURN(Page<Event> page,
                                desk_->List(f, PageArgsOf(*req)));
        for (const Event& e : page.rows) EventToProto(e, resp->add_events());
        resp->set_next_page_token(page.next_page_token);
        if (f.player) {
          GORANK_ASSIGN_OR_RETURN(std::vector<PlayerPlace> places,
                                  desk_->PlacesOf(*f.player, page.rows));
          for (const PlayerPlace& p : places)
            PlayerPlaceToProto(p, resp->add_places());
        }
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::GetResults(grpc::ServerContext* ctx,
                                               const v1::GetResultsRequest* req,
                                               v1::GetResultsResponse* resp) {
  return gate_->Run(
      ctx, M("GetResults"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(EventResults r,
                                desk_->Results(EventId{req->event_id()}));
        ResultsToProto(r, resp->mutable_results());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::SaveResults(
    grpc::ServerContext* ctx, const v1::SaveResultsRequest* req,
    v1::SaveResultsResponse* resp) {
  return gate_->Run(
      ctx, M("SaveResults"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(EventResults r,
                                ResultsFromProto(req->results()));
        GORANK_ASSIGN_OR_RETURN(
            Standings s,
            desk_->SaveResults(caller, EventId{req->event_id()}, r));
        StandingsToProto(s, resp->mutable_standings());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::GetStandings(
    grpc::ServerContext* ctx, const v1::GetStandingsRequest* req,
    v1::GetStandingsResponse* resp) {
  return gate_->Run(
      ctx, M("GetStandings"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(Standings s,
                                desk_->GetStandings(EventId{req->event_id()}));
        StandingsToProto(s, resp->mutable_standings());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::ImportResults(
    grpc::ServerContext* ctx, const v1::ImportResultsRequest* req,
    v1::ImportResultsResponse* resp) {
  return gate_->Run(
      ctx, M("ImportResults"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(ResultFileFormat format,
                                FileFormatFromProto(req->format()));
        GORANK_ASSIGN_OR_RETURN(
            ImportOutcome out,
            desk_->Import(caller, EventId{req->event_id()}, format,
                          req->content(), ImportOptionsFromProto(*req)));
        EventToProto(out.file.event, resp->mutable_event());
        ResultsToProto(out.file.results, resp->mutable_results());
        for (const std::string& c : out.file.comments) resp->add_comments(c);
        for (const RowMatch& m : out.matches) {
          RowMatchToProto(m, resp->add_matches());
        }
        resp->set_unresolved(out.unresolved);
        for (const FileWarning& w : out.file.warnings) {
          resp->add_warnings(w.text);
        }
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::ExportResults(
    grpc::ServerContext* ctx, const v1::ExportResultsRequest* req,
    v1::ExportResultsResponse* resp) {
  return gate_->Run(
      ctx, M("ExportResults"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(ResultFileFormat format,
                                FileFormatFromProto(req->format()));
        GORANK_ASSIGN_OR_RETURN(
            std::string text, desk_->Export(EventId{req->event_id()}, format));
        resp->set_content(std::move(text));
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::RecordRound(
    grpc::ServerContext* ctx, const v1::RecordRoundRequest* req,
    v1::RecordRoundResponse* resp) {
  return gate_->Run(
      ctx, M("RecordRound"), *req, [&](const Caller& caller) -> absl::Status {
        std::vector<Game> games;
        std::vector<Bye> byes;
        for (int i = 0; i < req->games_size(); ++i) {
          GORANK_ASSIGN_OR_RETURN(
              Game g,
              GameFromProto(req->games(i), "games[" + std::to_string(i) + "]"));
          games.push_back(g);
        }
        for (const v1::Bye& b : req->byes()) {
          GORANK_ASSIGN_OR_RETURN(Bye bye, ByeFromProto(b));
          byes.push_back(bye);
        }
        GORANK_ASSIGN_OR_RETURN(
            Standings s, desk_->RecordRound(caller, EventId{req->event_id()},
                                            req->round(), games, byes));
        StandingsToProto(s, resp->mutable_standings());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::CloseEvent(grpc::ServerContext* ctx,
                                               const v1::CloseEventRequest* req,
                                               v1::CloseEventResponse* resp) {
  return gate_->Run(
      ctx, M("CloseEvent"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(ClosedEvent c,
                                desk_->Close(caller, EventId{req->event_id()}));
        EventToProto(c.event, resp->mutable_event());
        StandingsToProto(c.standings, resp->mutable_standings());
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::EditResults(
    grpc::ServerContext* ctx, const v1::EditResultsRequest* req,
    v1::EditResultsResponse* resp) {
  return gate_->Run(
      ctx, M("EditResults"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(ResultsEdit edit, EditFromProto(*req));
        GORANK_ASSIGN_OR_RETURN(
            EditedResults out,
            desk_->Edit(caller, EventId{req->event_id()}, edit));
        StandingsToProto(out.standings, resp->mutable_standings());
        ResultsToProto(out.results, resp->mutable_results());
        for (const std::string& c : out.changes) resp->add_changes(c);
        return absl::OkStatus();
      });
}

grpc::Status TournamentServiceImpl::PairRound(grpc::ServerContext* ctx,
                                              const v1::PairRoundRequest* req,
                                              v1::PairRoundResponse* resp) {
  return gate_->Run(
      ctx, M("PairRound"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            PairedRound out,
            desk_->PairRound(caller, EventId{req->event_id()}, req->round(),
                             AdjustmentsFromProto(*req), req->dry_run()));
        PairingToProto(out.pairing, resp->mutable_pairing());
        resp->set_stored(out.stored);
        return absl::OkStatus();
      });
}

}  // namespace gorank::tournaments
