#include "services/tournaments/registry_player_directory.h"

#include "services/common/status_macros.h"

namespace gorank::tournaments {

RegisteredPlayer RegistryPlayerDirectory::From(
    const registry::Player& p) const {
  RegisteredPlayer r;
  r.id = p.id;
  r.name = p.name;
  r.latin_name = p.latin_name;
  r.agency_prefix = p.agency_prefix;
  r.rank = p.rank;
  absl::StatusOr<registry::Agency> agency = repo_->GetAgency(p.agency_prefix);
  if (agency.ok()) {
    if (!agency->name.empty()) r.agency_names.push_back(agency->name);
    if (!agency->name_en.empty()) r.agency_names.push_back(agency->name_en);
  }
  return r;
}

absl::StatusOr<RegisteredPlayer> RegistryPlayerDirectory::Get(
    registry::PlayerId id) const {
  GORANK_ASSIGN_OR_RETURN(registry::Player p, repo_->GetPlayer(id));
  return From(p);
}

absl::StatusOr<std::vector<RegisteredPlayer>>
RegistryPlayerDirectory::FindByName(const std::string& name) const {
  registry::PlayerQuery q;
  q.name_prefix = name;  // a prefix: the caller keeps the exact names
  q.limit = 50;
  GORANK_ASSIGN_OR_RETURN(std::vector<registry::Player> players,
                          repo_->SearchPlayers(q));
  std::vector<RegisteredPlayer> out;
  for (const registry::Player& p : players) out.push_back(From(p));
  return out;
}

}  // namespace gorank::tournaments
