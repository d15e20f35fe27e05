// The PlayerDirectory of a running server: the registry's players read
// through registry::RegistryRepository (public fields only), with their
// agency's names for matching a result file's club column.
#ifndef GORANK_SERVICES_TOURNAMENTS_REGISTRY_PLAYER_DIRECTORY_H_
#define GORANK_SERVICES_TOURNAMENTS_REGISTRY_PLAYER_DIRECTORY_H_

#include "services/registry/registry_repository.h"
#include "services/tournaments/entrant_matching.h"

namespace gorank::tournaments {

// Thread-safe when the repository is. Does not own it.
class RegistryPlayerDirectory final : public PlayerDirectory {
 public:
  explicit RegistryPlayerDirectory(registry::RegistryRepository* repo)
      : repo_(repo) {}
  absl::StatusOr<RegisteredPlayer> Get(registry::PlayerId id) const override;
  absl::StatusOr<std::vector<RegisteredPlayer>> FindByName(
      const std::string& name) const override;

 private:
  RegisteredPlayer From(const registry::Player& p) const;
  registry::RegistryRepository* repo_;
};

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_REGISTRY_PLAYER_DIRECTORY_H_
