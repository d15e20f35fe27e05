// gRPC handlers of tournaments.proto (TournamentService): convert, one
// EventDesk call through the CallGate, convert back. Who may call what is
// the access table's (services/auth/access_policy.cc); which events an
// operator may change is the EventDesk's (its agency's own).
#ifndef GORANK_SERVICES_TOURNAMENTS_TOURNAMENT_SERVICE_H_
#define GORANK_SERVICES_TOURNAMENTS_TOURNAMENT_SERVICE_H_

#include "gorank/v1/tournaments.grpc.pb.h"
#include "services/auth/call_gate.h"
#include "services/common/rpc_method.h"
#include "services/tournaments/event_desk.h"

namespace gorank::tournaments {

// Thread-safe. Does not own its collaborators.
class TournamentServiceImpl final : public v1::TournamentService::Service {
 public:
  TournamentServiceImpl(
      CallGate* gate, EventDesk* desk,
      const CompetitionCatalogue* catalogue = &CompetitionCatalogue::Default())
      : gate_(gate), desk_(desk), catalogue_(catalogue) {}

  GORANK_RPC(ListCompetitions);
  GORANK_RPC(CreateEvent);
  GORANK_RPC(GetEvent);
  GORANK_RPC(UpdateEvent);
  GORANK_RPC(ListEvents);
  GORANK_RPC(GetResults);
  GORANK_RPC(SaveResults);
  GORANK_RPC(GetStandings);
  GORANK_RPC(ImportResults);
  GORANK_RPC(ExportResults);
  GORANK_RPC(RecordRound);
  GORANK_RPC(CloseEvent);
  GORANK_RPC(EditResults);
  GORANK_RPC(PairRound);

 private:
  CallGate* gate_;
  EventDesk* desk_;
  const CompetitionCatalogue* catalogue_;
};

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_TOURNAMENT_SERVICE_H_
