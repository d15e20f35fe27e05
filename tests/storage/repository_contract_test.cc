// The storage contract: one suite, run against every implementation of the
// registry and token repositories (SQLite, PostgreSQL and the in-memory
// fake), so that they cannot drift. Every successful mutation appends
// exactly one audit record; a refused one appends none and changes nothing.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/storage/repository_backends.h"

namespace gorank::storage_test {
namespace {

using absl::StatusCode;
using registry::Agency;
using registry::AgencyLevel;
using registry::AgencyStatus;
using registry::Player;
using registry::PlayerId;
using registry::PlayerQuery;
using registry::Rank;
using registry::RankChangeQuery;
using registry::RankChangeReason;
using registry::RankHistoryEntry;

ChangeRecord Change(const std::string& action) {
  return ChangeRecord{1717214400, "test", action, "", "", "{}"};
}

class ContractTest : public ::testing::TestWithParam<NamedFactory> {
 protected:
  void SetUp() override {
    if (GetParam().needs_postgres) {
      const std::string why = EngineUnavailable(storage::Engine::kPostgres);
      if (!why.empty()) GTEST_SKIP() << why;
    }
    backend_ = GetParam().make();
    repo_ = backend_->registry();
    tokens_ = backend_->tokens();
    for (const char* p : {"901", "902"}) {
      ASSERT_TRUE(
          repo_->InsertAgency(TestAgency(p), Change("agency.create")).ok());
    }
  }
  static Agency TestAgency(const std::string& prefix) {
    return Agency{prefix,
                  "协会 " + prefix,
                  "Agency " + prefix,
                  AgencyLevel::kFirstLevel,
                  AgencyStatus::kActive,
                  ""};
  }
  static Player NewPlayer(const std::string& name, const std::string& agency,
                          const std::string& resident_id = "") {
    Player p;
    p.name = name;
    p.agency_prefix = agency;
    p.resident_id = resident_id;
    p.created_unix = p.updated_unix = 1000;
    return p;
  }
  static RankHistoryEntry Entry(std::optional<Rank> from,
                                std::optional<Rank> to, int64_t when = 2000) {
    return RankHistoryEntry{0,
                            {},
                            from,
                            to,
                            Date{2024, 6, 1},
                            RankChangeReason::kCorrection,
                            "basis",
                            "actor",
                            when};
  }
  PlayerId MustInsert(const Player& p,
                      std::optional<RankHistoryEntry> initial = {}) {
    auto id = repo_->InsertPlayer(p, initial, Change("player.register"));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : PlayerId{};
  }
  size_t AuditSize() { return backend_->Audit().size(); }
  std::vector<int64_t> Ids(const PlayerQuery& q) {
    std::vector<int64_t> out;
    auto found = repo_->SearchPlayers(q);
    EXPECT_TRUE(found.ok()) << found.status();
    if (found.ok()) {
      for (const Player& p : *found) out.push_back(p.id.value);
    }
    return out;
  }

  std::unique_ptr<Backend> backend_;
  registry::RegistryRepository* repo_ = nullptr;
  auth::TokenRepository* tokens_ = nullptr;
};

// ----------------------------------------------------------------- agencies

TEST_P(ContractTest, AgenciesRoundTrip) {
  EXPECT_EQ(AuditSize(), 2u);
  auto a = repo_->GetAgency("901");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->name, "协会 901");
  EXPECT_EQ(a->name_en, "Agency 901");
  EXPECT_EQ(a->level, AgencyLevel::kFirstLevel);
  EXPECT_EQ(a->status, AgencyStatus::kActive);

  auto all = repo_->ListAgencies();
  ASSERT_TRUE(all.ok());
  std::vector<std::string> prefixes;
  for (const Agency& x : *all) prefixes.push_back(x.prefix);
  EXPECT_TRUE(std::is_sorted(prefixes.begin(), prefixes.end()));
  EXPECT_NE(std::find(prefixes.begin(), prefixes.end(), "902"), prefixes.end());

  ASSERT_TRUE(repo_
                  ->SetAgencyStatus("901", AgencyStatus::kSuspended, "review",
                                    Change("agency.suspend"))
                  .ok());
  EXPECT_EQ(repo_->GetAgency("901")->status, AgencyStatus::kSuspended);
  EXPECT_EQ(repo_->GetAgency("901")->status_reason, "review");
  EXPECT_EQ(AuditSize(), 3u);
  EXPECT_EQ(backend_->Audit().back().action, "agency.suspend");
}

TEST_P(ContractTest, RefusedAgencyWritesAppendNothing) {
  EXPECT_EQ(repo_->InsertAgency(TestAgency("901"), Change("x")).code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(
      repo_->SetAgencyStatus("999", AgencyStatus::kSuspended, "r", Change("x"))
          .code(),
      StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetAgency("999").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetAgency("901")->name, "协会 901");
  EXPECT_EQ(AuditSize(), 2u);
}

// ------------------------------------------------------------------ players

TEST_P(ContractTest, PlayersRoundTripEveryField) {
  Player p =
      NewPlayer("欧阳 \xF0\x9F\x98\x80 'x\"", "901", "44030520080110005X");
  p.latin_name = "Ouyang";
  p.gender = registry::Gender::kFemale;
  p.birth_date = Date{2008, 1, 10};
  p.rank = Rank::FromString("2d");
  const PlayerId id =
      MustInsert(p, Entry(std::nullopt, Rank::FromString("2d"), 1500));
  EXPECT_EQ(id.value, 1);
  auto got = repo_->GetPlayer(id);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->id, id);
  EXPECT_EQ(got->name, p.name);
  EXPECT_EQ(got->latin_name, "Ouyang");
  EXPECT_EQ(got->gender, registry::Gender::kFemale);
  EXPECT_EQ(got->birth_date, (Date{2008, 1, 10}));
  EXPECT_EQ(got->agency_prefix, "901");
  EXPECT_EQ(got->resident_id, "44030520080110005X");
  EXPECT_EQ(got->rank, Rank::FromString("2d"));
  EXPECT_EQ(got->created_unix, 1000);
  EXPECT_EQ(got->updated_unix, 1500);  // set by the initial rank entry

  auto history = repo_->ListRankHistory(id);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  const RankHistoryEntry& e = (*history)[0];
  EXPECT_GT(e.id, 0);
  EXPECT_EQ(e.player_id, id);
  EXPECT_EQ(e.from_rank, std::nullopt);
  EXPECT_EQ(e.to_rank, Rank::FromString("2d"));
  EXPECT_EQ(e.effective_date, (Date{2024, 6, 1}));
  EXPECT_EQ(e.reason, RankChangeReason::kCorrection);
  EXPECT_EQ(e.basis, "basis");
  EXPECT_EQ(e.actor, "actor");
  EXPECT_EQ(e.recorded_unix, 1500);

  ASSERT_EQ(AuditSize(), 3u);
  EXPECT_EQ(backend_->Audit().back().subject, "player:1");
}

TEST_P(ContractTest, RankIsOnlySetThroughHistory) {
  Player p = NewPlayer("无段", "901");
  p.rank = Rank::FromString("5d");  // no initial entry: not stored
  const PlayerId id = MustInsert(p);
  EXPECT_EQ(repo_->GetPlayer(id)->rank, std::nullopt);
  EXPECT_EQ(repo_->GetPlayer(id)->birth_date, std::nullopt);
  EXPECT_TRUE(repo_->ListRankHistory(id)->empty());
}

TEST_P(ContractTest, PlayersWithoutResidentIdNeverCollide) {
  EXPECT_EQ(MustInsert(NewPlayer("a", "901")).value, 1);
  EXPECT_EQ(MustInsert(NewPlayer("b", "901")).value, 2);
  EXPECT_EQ(repo_->GetPlayer(PlayerId{2})->resident_id, "");
}

TEST_P(ContractTest, RefusedPlayerInsertsAppendNothingAndLeaveNoGap) {
  MustInsert(NewPlayer("a", "901", "44030520080110005X"));
  const size_t audit = AuditSize();
  struct Case {
    const char* label;
    Player player;
    std::optional<RankHistoryEntry> initial;
    StatusCode code;
  };
  const std::vector<Case> cases = {
      {"duplicate resident id", NewPlayer("b", "902", "44030520080110005X"),
       std::nullopt, StatusCode::kAlreadyExists},
      {"unknown agency", NewPlayer("c", "999"), std::nullopt,
       StatusCode::kNotFound},
      {"stale from_rank", NewPlayer("d", "901"),
       Entry(Rank::FromString("1k"), Rank::FromString("1d")),
       StatusCode::kAborted},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(
        repo_->InsertPlayer(c.player, c.initial, Change("x")).status().code(),
        c.code)
        << c.label;
  }
  EXPECT_EQ(AuditSize(), audit);
  EXPECT_EQ(Ids(PlayerQuery{}), (std::vector<int64_t>{1}));
  EXPECT_EQ(MustInsert(NewPlayer("e", "901")).value, 2);
}

TEST_P(ContractTest, UpdateReplacesFieldsButNotRank) {
  const PlayerId id = MustInsert(NewPlayer("old", "901", "44030520080110005X"),
                                 Entry(std::nullopt, Rank::FromString("3k")));
  Player p = *repo_->GetPlayer(id);
  p.name = "new";
  p.latin_name = "New";
  p.gender = registry::Gender::kMale;
  p.birth_date = Date{2000, 2, 29};
  p.resident_id = "110101200002290018";
  p.agency_prefix = "902";
  p.rank = Rank::FromString("9p");  // ignored
  p.created_unix = 1;               // ignored
  p.updated_unix = 3000;
  ASSERT_TRUE(repo_->UpdatePlayer(p, Change("player.update")).ok());
  Player got = *repo_->GetPlayer(id);
  EXPECT_EQ(got.name, "new");
  EXPECT_EQ(got.latin_name, "New");
  EXPECT_EQ(got.gender, registry::Gender::kMale);
  EXPECT_EQ(got.birth_date, (Date{2000, 2, 29}));
  EXPECT_EQ(got.resident_id, "110101200002290018");
  EXPECT_EQ(got.agency_prefix, "902");
  EXPECT_EQ(got.rank, Rank::FromString("3k"));
  EXPECT_EQ(got.created_unix, 1000);
  EXPECT_EQ(got.updated_unix, 3000);
  EXPECT_EQ(backend_->Audit().back().action, "player.update");
  // Keeping one's own resident ID is no conflict.
  EXPECT_TRUE(repo_->UpdatePlayer(got, Change("player.update")).ok());
}

TEST_P(ContractTest, RefusedUpdatesAppendNothing) {
  MustInsert(NewPlayer("a", "901", "44030520080110005X"));
  const PlayerId b = MustInsert(NewPlayer("b", "901"));
  const size_t audit = AuditSize();
  Player p = *repo_->GetPlayer(b);
  Player taken = p;
  taken.resident_id = "44030520080110005X";
  Player no_agency = p;
  no_agency.agency_prefix = "999";
  Player ghost = p;
  ghost.id = PlayerId{42};
  EXPECT_EQ(repo_->UpdatePlayer(taken, Change("x")).code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(repo_->UpdatePlayer(no_agency, Change("x")).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->UpdatePlayer(ghost, Change("x")).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetPlayer(PlayerId{42}).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetPlayer(b)->resident_id, "");
  EXPECT_EQ(repo_->GetPlayer(b)->agency_prefix, "901");
  EXPECT_EQ(AuditSize(), audit);
}

TEST_P(ContractTest, SearchFiltersAndPages) {
  struct Row {
    const char* name;
    const char* latin;
    const char* agency;
    const char* rank;  // "" = none
  };
  const std::vector<Row> rows = {
      {"张伟", "Zhang Wei", "901", "5k"},
      {"张敏", "Zhang Min", "902", "2d"},
      {"李娜", "Li Na", "901", ""},
      {"100%_x'; DROP TABLE players; --", "", "901", "1p"},
      {"张", "", "902", "30k"}};
  for (const Row& r : rows) {
    Player p = NewPlayer(r.name, r.agency);
    p.latin_name = r.latin;
    std::optional<RankHistoryEntry> initial;
    if (*r.rank) initial = Entry(std::nullopt, Rank::FromString(r.rank));
    MustInsert(p, initial);
  }
  auto q = [](const char* name, const char* agency, std::optional<int> min,
              std::optional<int> max, int64_t after = 0, int limit = 50) {
    PlayerQuery x;
    x.name_prefix = name;
    x.agency_prefix = agency;
    x.min_ordinal = min;
    x.max_ordinal = max;
    x.after_id = after;
    x.limit = limit;
    return x;
  };
  const int k5 = Rank::FromString("5k").Ordinal();
  EXPECT_EQ(Ids(q("", "", {}, {})), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(Ids(q("张", "", {}, {})), (std::vector<int64_t>{1, 2, 5}));
  EXPECT_EQ(Ids(q("张伟", "", {}, {})), (std::vector<int64_t>{1}));
  EXPECT_EQ(Ids(q("Zhang", "", {}, {})), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Ids(q("Zhang W", "", {}, {})), (std::vector<int64_t>{1}));
  EXPECT_EQ(Ids(q("zhang", "", {}, {})), (std::vector<int64_t>{}));
  EXPECT_EQ(Ids(q("100%", "", {}, {})), (std::vector<int64_t>{4}));
  EXPECT_EQ(Ids(q("1%", "", {}, {})),
            (std::vector<int64_t>{}));  // no LIKE wildcard
  EXPECT_EQ(Ids(q("_", "", {}, {})), (std::vector<int64_t>{}));
  EXPECT_EQ(Ids(q("", "901", {}, {})), (std::vector<int64_t>{1, 3, 4}));
  EXPECT_EQ(Ids(q("", "", k5, {})), (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(Ids(q("", "", {}, k5)), (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(Ids(q("", "", 1, 8)), (std::vector<int64_t>{2}));
  EXPECT_EQ(Ids(q("", "", {}, {}, 2)), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(Ids(q("", "", {}, {}, 2, 2)), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(Ids(q("", "", {}, {}, 0, 0)), (std::vector<int64_t>{}));
  EXPECT_EQ(Ids(q("张", "902", {}, {}, 2)), (std::vector<int64_t>{5}));
  // The injection attempt was stored as text, and the table is intact.
  EXPECT_EQ(repo_->GetPlayer(PlayerId{4})->name,
            "100%_x'; DROP TABLE players; --");
}

// A whole-name query (the public's look-up) matches the name or the Latin
// name exactly, never a longer name.
TEST_P(ContractTest, WholeNameSearchMatchesExactly) {
  for (const char* name : {"张三", "张三丰", "张"})
    MustInsert(NewPlayer(name, "901"));
  Player latin = NewPlayer("李四", "902");
  latin.latin_name = "Li Si";
  MustInsert(latin);
  PlayerQuery q;
  q.exact_name = true;
  q.name_prefix = "张三";
  EXPECT_EQ(Ids(q), (std::vector<int64_t>{1}));
  q.name_prefix = "张";
  EXPECT_EQ(Ids(q), (std::vector<int64_t>{3}));
  q.name_prefix = "Li Si";
  EXPECT_EQ(Ids(q), (std::vector<int64_t>{4}));
  q.name_prefix = "Li";
  EXPECT_EQ(Ids(q), (std::vector<int64_t>{}));
  q.exact_name = false;
  q.name_prefix = "张三";
  EXPECT_EQ(Ids(q), (std::vector<int64_t>{1, 2}));
}

// The annual report's query: one reason, the players of one agency (now),
// effective dates within the bounds, by date.
TEST_P(ContractTest, RankChangesByReasonAgencyAndDate) {
  const PlayerId a = MustInsert(NewPlayer("a", "901"));
  const PlayerId b = MustInsert(NewPlayer("b", "902"));
  auto change = [&](PlayerId id, std::optional<Rank> from, const char* to,
                    Date d, RankChangeReason reason) {
    auto e = repo_->ApplyRankChange(
        RankHistoryEntry{0, id, from, Rank::FromString(to), d, reason, "x",
                         "actor", 3000},
        Change("player.rank_change"));
    ASSERT_TRUE(e.ok()) << e.status();
  };
  const auto kAward = RankChangeReason::kTournamentAward;
  change(a, std::nullopt, "2k", Date{2024, 12, 31}, kAward);
  change(a, Rank::FromString("2k"), "1k", Date{2025, 3, 1},
         RankChangeReason::kCorrection);
  change(a, Rank::FromString("1k"), "1d", Date{2025, 1, 1}, kAward);
  change(b, std::nullopt, "3d", Date{2025, 6, 1}, kAward);
  RankChangeQuery q;
  q.reason = kAward;
  q.agency_prefix = "901";
  q.from = Date{2025, 1, 1};
  q.to = Date{2025, 12, 31};
  auto found = repo_->ListRankChanges(q);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].to_rank, Rank::FromString("1d"));
  EXPECT_EQ((*found)[0].player_id, a);
  q.agency_prefix = "";
  found = repo_->ListRankChanges(q);
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0].effective_date, (Date{2025, 1, 1}));
  EXPECT_EQ((*found)[1].player_id, b);
}

// --------------------------------------------------------------- rank changes

TEST_P(ContractTest, RankChangesAppendHistoryAtomically) {
  const PlayerId id = MustInsert(NewPlayer("p", "901"),
                                 Entry(std::nullopt, Rank::FromString("1k")));
  const size_t audit = AuditSize();
  auto e = repo_->ApplyRankChange(
      RankHistoryEntry{0, id, Rank::FromString("1k"), Rank::FromString("1d"),
                       Date{2024, 6, 2}, RankChangeReason::kTournamentAward,
                       "event", "agency:901/token:2", 5000},
      Change("player.rank_change"));
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_GT(e->id, 0);
  EXPECT_EQ(e->to_rank, Rank::FromString("1d"));
  EXPECT_EQ(repo_->GetPlayer(id)->rank, Rank::FromString("1d"));
  EXPECT_EQ(repo_->GetPlayer(id)->updated_unix, 5000);
  EXPECT_EQ(AuditSize(), audit + 1);

  // Withdrawn: no rank at all.
  auto w = repo_->ApplyRankChange(
      RankHistoryEntry{0, id, Rank::FromString("1d"), std::nullopt,
                       Date{2024, 6, 3}, RankChangeReason::kRevocation,
                       "decision", "national", 6000},
      Change("player.rank_change"));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(repo_->GetPlayer(id)->rank, std::nullopt);

  auto history = *repo_->ListRankHistory(id);
  ASSERT_EQ(history.size(), 3u);
  EXPECT_LT(history[0].id, history[1].id);
  EXPECT_LT(history[1].id, history[2].id);
  EXPECT_EQ(history[1].id, e->id);
  EXPECT_EQ(history[1].reason, RankChangeReason::kTournamentAward);
  EXPECT_EQ(history[1].effective_date, (Date{2024, 6, 2}));
  EXPECT_EQ(history[2].to_rank, std::nullopt);
  EXPECT_EQ(history[2].from_rank, Rank::FromString("1d"));
}

TEST_P(ContractTest, StaleOrUnknownRankChangesAppendNothing) {
  const PlayerId id = MustInsert(NewPlayer("p", "901"),
                                 Entry(std::nullopt, Rank::FromString("1k")));
  const size_t audit = AuditSize();
  RankHistoryEntry stale =
      Entry(Rank::FromString("2k"), Rank::FromString("1d"));
  stale.player_id = id;
  EXPECT_EQ(repo_->ApplyRankChange(stale, Change("x")).status().code(),
            StatusCode::kAborted);
  RankHistoryEntry from_none = Entry(std::nullopt, Rank::FromString("1d"));
  from_none.player_id = id;
  EXPECT_EQ(repo_->ApplyRankChange(from_none, Change("x")).status().code(),
            StatusCode::kAborted);
  RankHistoryEntry ghost = Entry(std::nullopt, Rank::FromString("1d"));
  ghost.player_id = PlayerId{99};
  EXPECT_EQ(repo_->ApplyRankChange(ghost, Change("x")).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->ListRankHistory(PlayerId{99}).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetPlayer(id)->rank, Rank::FromString("1k"));
  EXPECT_EQ(repo_->ListRankHistory(id)->size(), 1u);
  EXPECT_EQ(AuditSize(), audit);
}

// ------------------------------------------------------------------- tokens

auth::TokenRecord Token(const std::string& hash, auth::Role role,
                        const std::string& prefix = "") {
  return auth::TokenRecord{0, hash, role, prefix, "label " + hash, 1000, 0};
}

TEST_P(ContractTest, TokensRoundTripAndRevoke) {
  const size_t audit = AuditSize();
  auto a = tokens_->InsertToken(Token("h1", auth::Role::kNationalAdmin),
                                Change("token.create"));
  auto b = tokens_->InsertToken(Token("h2", auth::Role::kAgencyOperator, "901"),
                                Change("token.create"));
  ASSERT_TRUE(a.ok() && b.ok()) << a.status() << b.status();
  EXPECT_EQ(*a, 1);
  EXPECT_EQ(*b, 2);
  EXPECT_EQ(AuditSize(), audit + 2);
  EXPECT_EQ(backend_->Audit().back().subject, "token:2");

  auto found = tokens_->FindTokenByHash("h2");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->id, 2);
  EXPECT_EQ((*found)->role, auth::Role::kAgencyOperator);
  EXPECT_EQ((*found)->agency_prefix, "901");
  EXPECT_EQ((*found)->label, "label h2");
  EXPECT_EQ((*found)->created_unix, 1000);
  EXPECT_EQ((*found)->revoked_unix, 0);
  EXPECT_FALSE(tokens_->FindTokenByHash("nope")->has_value());
  EXPECT_EQ(tokens_->GetToken(1)->hash, "h1");
  EXPECT_EQ(tokens_->GetToken(1)->agency_prefix, "");

  ASSERT_TRUE(tokens_->RevokeToken(1, 4242, Change("token.revoke")).ok());
  EXPECT_EQ(tokens_->GetToken(1)->revoked_unix, 4242);
  EXPECT_EQ((*tokens_->FindTokenByHash("h1"))->revoked_unix,
            4242);  // still found
  auto all = tokens_->ListTokens();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].id, 1);
  EXPECT_EQ((*all)[1].id, 2);
  EXPECT_EQ(AuditSize(), audit + 3);
}

TEST_P(ContractTest, RefusedTokenWritesAppendNothing) {
  ASSERT_TRUE(
      tokens_->InsertToken(Token("h1", auth::Role::kAuditor), Change("c"))
          .ok());
  ASSERT_TRUE(tokens_->RevokeToken(1, 10, Change("r")).ok());
  const size_t audit = AuditSize();
  EXPECT_EQ(tokens_->InsertToken(Token("h1", auth::Role::kAuditor), Change("x"))
                .status()
                .code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(tokens_
                ->InsertToken(Token("h9", auth::Role::kAgencyOperator, "999"),
                              Change("x"))
                .status()
                .code(),
            StatusCode::kNotFound);
  EXPECT_EQ(tokens_->RevokeToken(1, 20, Change("x")).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(tokens_->RevokeToken(7, 20, Change("x")).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(tokens_->GetToken(7).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(tokens_->GetToken(1)->revoked_unix, 10);
  EXPECT_EQ(tokens_->ListTokens()->size(), 1u);
  EXPECT_EQ(AuditSize(), audit);
}

INSTANTIATE_TEST_SUITE_P(
    Repositories, ContractTest,
    ::testing::Values(NamedFactory{"Sqlite", &MakeSqliteBackend},
                      NamedFactory{"Postgres", &MakePostgresBackend, true},
                      NamedFactory{"InMemory", &MakeInMemoryBackend}),
    [](const ::testing::TestParamInfo<NamedFactory>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace gorank::storage_test
