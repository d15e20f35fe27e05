#include "tests/registry/registry_fixture.h"

#include <sstream>
#include <vector>

namespace gorank::registry {

RegistryFixture::RegistryFixture() : registry_(&repo_, &clock_) {
  clock_.SetDate(Date{2024, 6, 1});
  const ChangeRecord seed{0, "system", "registry.seed", "agencies", "", ""};
  repo_
      .InsertAgency({"000", "中国围棋协会", "Chinese Weiqi Association",
                     AgencyLevel::kNational, AgencyStatus::kActive, ""},
                    seed)
      .IgnoreError();
  for (const char* p : {"110", "120", "130"}) {
    repo_
        .InsertAgency({p, std::string("agency ") + p, "",
                       AgencyLevel::kFirstLevel, AgencyStatus::kActive, ""},
                      seed)
        .IgnoreError();
  }
  // Award bases: events 1..9 are closed events every player played in, 404
  // is unknown, 500 is still open; certificate 110240001 is held by player 1.
  registry_.SetAwardBasisCheck(
      [](const Player& p, const AwardBasis& b) -> absl::StatusOr<std::string> {
        if (!b.certificate.empty()) {
          if (b.certificate != "110240001") {
            return absl::NotFoundError("no certificate " + b.certificate);
          }
          if (p.id.value != 1)
            return absl::FailedPreconditionError("another holder");
          return std::string("certificate 110240001 (1d)");
        }
        if (b.event_id == 500)
          return absl::FailedPreconditionError("event 500 is not closed");
        if (b.event_id < 1 || b.event_id > 9) {
          return absl::NotFoundError("no event with id " +
                                     std::to_string(b.event_id));
        }
        return "event " + std::to_string(b.event_id) + " (fixture event)";
      });
}

PlayerDraft RegistryFixture::Draft(const std::string& name,
                                   const std::string& agency) {
  PlayerDraft d;
  d.name = name;
  d.agency_prefix = agency;
  return d;
}

Player RegistryFixture::MustRegister(PlayerDraft draft) {
  absl::StatusOr<Player> p = registry_.Register(national_, draft);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Player{};
}

std::string RegistryFixture::State() {
  std::ostringstream out;
  const std::vector<Agency> agencies = repo_.ListAgencies().value();
  for (const Agency& a : agencies) {
    out << "agency " << a.prefix << "|" << a.name << "|" << a.name_en << "|"
        << static_cast<int>(a.level) << "|" << static_cast<int>(a.status) << "|"
        << a.status_reason << "\n";
  }
  PlayerQuery all;
  all.limit = -1;
  const std::vector<Player> players = repo_.SearchPlayers(all).value();
  for (const Player& p : players) {
    out << "player " << PlayerJson(p) << "|" << p.resident_id << "|"
        << p.created_unix << "|" << p.updated_unix << "\n";
    const std::vector<RankHistoryEntry> history =
        repo_.ListRankHistory(p.id).value();
    for (const RankHistoryEntry& e : history) {
      out << "  entry " << e.id << "|"
          << (e.from_rank ? e.from_rank->ToString() : "-") << "|"
          << (e.to_rank ? e.to_rank->ToString() : "-") << "|"
          << e.effective_date.ToString() << "|" << static_cast<int>(e.reason)
          << "|" << e.basis << "|" << e.actor << "|" << e.recorded_unix << "|"
          << DisciplineName(e.discipline) << "\n";
    }
  }
  for (const ChangeRecord& c : repo_.AuditLog()) {
    out << "audit " << c.time_unix << "|" << c.actor << "|" << c.action << "|"
        << c.subject << "|" << c.before << "|" << c.after << "\n";
  }
  return out.str();
}

}  // namespace gorank::registry
