// gRPC handlers of registry.proto: PlayerRegistry, AgencyService and
// RankService (TokenService is auth's: services/auth/token_service.h). Each
// handler converts the request, makes one domain call through the CallGate
// (authentication, access table, logging, status mapping) and converts the
// answer.
#ifndef GORANK_SERVICES_REGISTRY_REGISTRY_SERVICE_H_
#define GORANK_SERVICES_REGISTRY_REGISTRY_SERVICE_H_

#include "gorank/v1/registry.grpc.pb.h"
#include "services/auth/call_gate.h"
#include "services/registry/player_registry.h"

namespace gorank::registry {

// The handlers do not own their collaborators, which must outlive them.
class PlayerRegistryService final : public v1::PlayerRegistry::Service {
 public:
  PlayerRegistryService(CallGate* gate, PlayerRegistry* registry)
      : gate_(gate), registry_(registry) {}

  grpc::Status RegisterPlayer(grpc::ServerContext* ctx,
                              const v1::RegisterPlayerRequest* req,
                              v1::RegisterPlayerResponse* resp) override;
  grpc::Status GetPlayer(grpc::ServerContext* ctx,
                         const v1::GetPlayerRequest* req,
                         v1::GetPlayerResponse* resp) override;
  grpc::Status UpdatePlayer(grpc::ServerContext* ctx,
                            const v1::UpdatePlayerRequest* req,
                            v1::UpdatePlayerResponse* resp) override;
  grpc::Status SearchPlayers(grpc::ServerContext* ctx,
                             const v1::SearchPlayersRequest* req,
                             v1::SearchPlayersResponse* resp) override;
  grpc::Status GetRankHistory(grpc::ServerContext* ctx,
                              const v1::GetRankHistoryRequest* req,
                              v1::GetRankHistoryResponse* resp) override;
  grpc::Status ChangeRank(grpc::ServerContext* ctx,
                          const v1::ChangeRankRequest* req,
                          v1::ChangeRankResponse* resp) override;
  // Reads the whole stream (every message through the request limits; the
  // options only in the first; at most kMaxImportRows rows, else
  // RESOURCE_EXHAUSTED), then makes one PlayerRegistry::Import call.
  grpc::Status ImportPlayers(
      grpc::ServerContext* ctx,
      grpc::ServerReader<v1::ImportPlayersRequest>* reader,
      v1::ImportPlayersResponse* resp) override;

 private:
  CallGate* gate_;
  PlayerRegistry* registry_;
};

class AgencyServiceImpl final : public v1::AgencyService::Service {
 public:
  AgencyServiceImpl(CallGate* gate, PlayerRegistry* registry)
      : gate_(gate), registry_(registry) {}

  grpc::Status ListAgencies(grpc::ServerContext* ctx,
                            const v1::ListAgenciesRequest* req,
                            v1::ListAgenciesResponse* resp) override;
  grpc::Status CreateAgency(grpc::ServerContext* ctx,
                            const v1::CreateAgencyRequest* req,
                            v1::CreateAgencyResponse* resp) override;
  grpc::Status SuspendAgency(grpc::ServerContext* ctx,
                             const v1::SuspendAgencyRequest* req,
                             v1::SuspendAgencyResponse* resp) override;
  grpc::Status ReinstateAgency(grpc::ServerContext* ctx,
                               const v1::ReinstateAgencyRequest* req,
                               v1::ReinstateAgencyResponse* resp) override;

 private:
  CallGate* gate_;
  PlayerRegistry* registry_;
};

class RankServiceImpl final : public v1::RankService::Service {
 public:
  explicit RankServiceImpl(CallGate* gate) : gate_(gate) {}
  grpc::Status ParseRank(grpc::ServerContext* ctx,
                         const v1::ParseRankRequest* req,
                         v1::ParseRankResponse* resp) override;

 private:
  CallGate* gate_;
};

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_REGISTRY_SERVICE_H_
