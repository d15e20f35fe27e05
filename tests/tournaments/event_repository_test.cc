// The EventRepository contract run against the in-memory fake (the SQLite
// run is in sql_event_repository_test.cc).
#include "tests/tournaments/event_repository_contract.h"
#include "tests/tournaments/fake_event_repository.h"

namespace gorank::tournaments::testing {
namespace {

EventBackend MakeFakeBackend() {
  auto fake = std::make_shared<FakeEventRepository>();
  return EventBackend{
      fake, [fake] { return static_cast<int64_t>(fake->audit().size()); },
      [] { return int64_t{1001}; }};
}

INSTANTIATE_TEST_SUITE_P(Fake, EventRepositoryContract,
                         ::testing::Values(&MakeFakeBackend));

}  // namespace
}  // namespace gorank::tournaments::testing
