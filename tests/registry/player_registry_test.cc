// PlayerRegistry: registering, reading (redaction) and updating players.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/registry/registry_fixture.h"

namespace gorank::registry {
namespace {

using absl::StatusCode;

class RegisterTest : public RegistryFixture {};

TEST_F(RegisterTest, NationalRegistersWithInitialRankAndHistory) {
  PlayerDraft d = Draft("张三", "110");
  d.latin_name = "Zhang San";
  d.gender = Gender::kMale;
  d.resident_id = "44030520080110005x";  // lowercase x is normalised
  d.initial_rank = Rank::FromString("2d");
  d.initial_rank_basis = "certificate 110230001";
  const size_t audit_before = AuditSize();

  absl::StatusOr<Player> p = registry_.Register(national_, d);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->id.value, 1);
  EXPECT_EQ(p->resident_id, kId2008);
  EXPECT_EQ(p->birth_date, (Date{2008, 1, 10}));  // taken from the ID
  EXPECT_EQ(p->rank, Rank::FromString("2d"));
  EXPECT_EQ(p->created_unix, clock_.NowSeconds());

  absl::StatusOr<Player> stored = repo_.GetPlayer(p->id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->name, "张三");
  EXPECT_EQ(stored->latin_name, "Zhang San");
  EXPECT_EQ(stored->gender, Gender::kMale);
  EXPECT_EQ(stored->rank, Rank::FromString("2d"));

  auto history = *repo_.ListRankHistory(p->id);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].from_rank, std::nullopt);
  EXPECT_EQ(history[0].to_rank, Rank::FromString("2d"));
  EXPECT_EQ(history[0].reason, RankChangeReason::kRegistration);
  EXPECT_EQ(history[0].basis, "certificate 110230001");
  EXPECT_EQ(history[0].effective_date, (Date{2024, 6, 1}));
  EXPECT_EQ(history[0].actor, "national/token:1");

  ASSERT_EQ(AuditSize(), audit_before + 1);
  EXPECT_EQ(LastAudit().action, "player.register");
  EXPECT_EQ(LastAudit().subject, "player:1");
  EXPECT_EQ(LastAudit().actor, "national/token:1");
  // The audit trail records that an ID exists, never the number itself.
  EXPECT_EQ(LastAudit().after.find(kId2008), std::string::npos);
  EXPECT_NE(LastAudit().after.find("\"resident_id_recorded\":true"),
            std::string::npos);
}

TEST_F(RegisterTest, WithoutRankThereIsNoHistory) {
  Player p = MustRegister(Draft("李四", "120"));
  EXPECT_EQ(p.rank, std::nullopt);
  EXPECT_TRUE(repo_.ListRankHistory(p.id)->empty());
  EXPECT_EQ(MustRegister(Draft("王五", "120")).id.value, 2);
}

TEST_F(RegisterTest, DefaultBasisIsRegistration) {
  PlayerDraft d = Draft("赵六", "110");
  d.initial_rank = Rank::FromString("5k");
  Player p = MustRegister(d);
  EXPECT_EQ(repo_.ListRankHistory(p.id)->at(0).basis, "registration");
}

TEST_F(RegisterTest, MatchingBirthDateAndIdIsAccepted) {
  PlayerDraft d = Draft("陈七", "110");
  d.resident_id = kId2000;
  d.birth_date = Date{2000, 2, 29};
  EXPECT_TRUE(registry_.Register(op110_, d).ok());
}

TEST_F(RegisterTest, OperatorRegistersInItsOwnAgencyUpTo3d) {
  for (const char* rank : {"30k", "1k", "1d", "3d"}) {
    PlayerDraft d = Draft(std::string("player ") + rank, "110");
    d.initial_rank = Rank::FromString(rank);
    absl::StatusOr<Player> p = registry_.Register(op110_, d);
    ASSERT_TRUE(p.ok()) << rank << ": " << p.status();
    EXPECT_EQ(p->rank, Rank::FromString(rank));
    EXPECT_EQ(repo_.ListRankHistory(p->id)->at(0).actor, "agency:110/token:2");
  }
}

TEST_F(RegisterTest, NationalMayRecordAnyRank) {
  for (const char* rank : {"4d", "7d", "8d", "1p", "9p"}) {
    PlayerDraft d = Draft(std::string("player ") + rank, "110");
    d.initial_rank = Rank::FromString(rank);
    EXPECT_TRUE(registry_.Register(national_, d).ok()) << rank;
  }
}

struct RefusedDraft {
  std::string label;
  PlayerDraft draft;
  StatusCode code;
};

class RegisterRefusedTest : public RegistryFixture {};

TEST_F(RegisterRefusedTest, BadDraftsChangeNothing) {
  PlayerDraft base = Draft("周八", "110");
  auto with = [&](auto change) {
    PlayerDraft d = base;
    change(d);
    return d;
  };
  const std::vector<RefusedDraft> cases = {
      {"empty name", with([](PlayerDraft& d) { d.name = ""; }),
       StatusCode::kInvalidArgument},
      {"name 121 bytes",
       with([](PlayerDraft& d) { d.name = std::string(121, 'a'); }),
       StatusCode::kInvalidArgument},
      {"control char", with([](PlayerDraft& d) { d.name = "a\nb"; }),
       StatusCode::kInvalidArgument},
      {"long latin",
       with([](PlayerDraft& d) { d.latin_name = std::string(200, 'x'); }),
       StatusCode::kInvalidArgument},
      {"future birth", with([](PlayerDraft& d) {
         d.birth_date = Date{2024, 6, 2};
       }),
       StatusCode::kInvalidArgument},
      {"birth 1899", with([](PlayerDraft& d) {
         d.birth_date = Date{1899, 12, 31};
       }),
       StatusCode::kInvalidArgument},
      {"invalid birth", with([](PlayerDraft& d) {
         d.birth_date = Date{2001, 2, 29};
       }),
       StatusCode::kInvalidArgument},
      {"birth vs id", with([](PlayerDraft& d) {
         d.resident_id = kId2008;
         d.birth_date = Date{2008, 1, 11};
       }),
       StatusCode::kInvalidArgument},
      {"bad id",
       with([](PlayerDraft& d) { d.resident_id = "440305200801100181"; }),
       StatusCode::kInvalidArgument},
      {"prefix 2 digits", with([](PlayerDraft& d) { d.agency_prefix = "11"; }),
       StatusCode::kInvalidArgument},
      {"prefix letters", with([](PlayerDraft& d) { d.agency_prefix = "abc"; }),
       StatusCode::kInvalidArgument},
      {"prefix 4 digits",
       with([](PlayerDraft& d) { d.agency_prefix = "1100"; }),
       StatusCode::kInvalidArgument},
      {"unknown agency", with([](PlayerDraft& d) { d.agency_prefix = "999"; }),
       StatusCode::kNotFound},
  };
  for (const RefusedDraft& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_REFUSED_UNCHANGED(registry_.Register(national_, c.draft), c.code);
  }
}

TEST_F(RegisterRefusedTest, DuplicateResidentIdIsAlreadyExists) {
  PlayerDraft d = Draft("孙九", "110");
  d.resident_id = kId2008;
  MustRegister(d);
  d.name = "someone else";
  d.agency_prefix = "120";
  EXPECT_REFUSED_UNCHANGED(registry_.Register(national_, d),
                           StatusCode::kAlreadyExists);
  d.resident_id = "44030520080110005x";  // the same number, lowercase
  EXPECT_REFUSED_UNCHANGED(registry_.Register(national_, d),
                           StatusCode::kAlreadyExists);
}

TEST_F(RegisterRefusedTest, OperatorOutsideItsScope) {
  // Another agency's player.
  EXPECT_REFUSED_UNCHANGED(registry_.Register(op120_, Draft("x", "110")),
                           StatusCode::kPermissionDenied);
  // Ranks above its authority.
  for (const char* rank : {"4d", "7d", "8d", "1p", "9p"}) {
    PlayerDraft d = Draft("y", "110");
    d.initial_rank = Rank::FromString(rank);
    SCOPED_TRACE(rank);
    EXPECT_REFUSED_UNCHANGED(registry_.Register(op110_, d),
                             StatusCode::kPermissionDenied);
  }
}

TEST_F(RegisterRefusedTest, RolesWithoutWriteScope) {
  EXPECT_REFUSED_UNCHANGED(registry_.Register(auditor_, Draft("x", "110")),
                           StatusCode::kPermissionDenied);
  EXPECT_REFUSED_UNCHANGED(registry_.Register(public_, Draft("x", "110")),
                           StatusCode::kPermissionDenied);
}

TEST_F(RegisterRefusedTest, SuspendedAgencyIsFailedPrecondition) {
  ASSERT_TRUE(registry_
                  .SetAgencyStatus(national_, "130", AgencyStatus::kSuspended,
                                   "annual review failed")
                  .ok());
  absl::Status s = registry_.Register(op130_, Draft("x", "130")).status();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("annual review failed"), absl::string_view::npos)
      << s;
  EXPECT_REFUSED_UNCHANGED(registry_.Register(op130_, Draft("x", "130")),
                           StatusCode::kFailedPrecondition);
  // The national body still acts for a suspended agency.
  EXPECT_TRUE(registry_.Register(national_, Draft("x", "130")).ok());
}

// ------------------------------------------------------------------ Get

struct RedactionCase {
  const char* label;
  auth::Caller caller;
  bool sees_resident_id;
  bool sees_birth_date;
};

TEST_F(RegistryFixture, GetRedactsByCaller) {
  PlayerDraft d = Draft("吴十", "110");
  d.resident_id = kId2008;
  d.initial_rank = Rank::FromString("1d");
  const Player p = MustRegister(d);
  const std::vector<RedactionCase> cases = {
      {"national", national_, true, true},   {"own agency", op110_, true, true},
      {"other agency", op120_, false, true}, {"auditor", auditor_, false, true},
      {"public", public_, false, false},
  };
  for (const RedactionCase& c : cases) {
    SCOPED_TRACE(c.label);
    absl::StatusOr<Player> got = registry_.Get(c.caller, p.id);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->name, "吴十");
    EXPECT_EQ(got->rank, Rank::FromString("1d"));
    EXPECT_EQ(got->agency_prefix, "110");
    EXPECT_EQ(got->resident_id, c.sees_resident_id ? kId2008 : "");
    EXPECT_EQ(got->birth_date.has_value(), c.sees_birth_date);
  }
}

TEST_F(RegistryFixture, GetUnknownPlayerIsNotFound) {
  EXPECT_EQ(registry_.Get(public_, PlayerId{42}).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(registry_.Get(national_, PlayerId{0}).status().code(),
            StatusCode::kNotFound);
}

// ------------------------------------------------------------------ Update

class UpdateTest : public RegistryFixture {
 protected:
  void SetUp() override {
    PlayerDraft d = Draft("郑一", "110");
    d.resident_id = kId2008;
    d.initial_rank = Rank::FromString("3k");
    player_ = MustRegister(d);
    PlayerDraft other = Draft("王二", "110");
    other.resident_id = kId1949;
    other_ = MustRegister(other);
    clock_.Advance(3600);
  }
  Player player_;
  Player other_;
};

TEST_F(UpdateTest, OperatorUpdatesItsOwnPlayer) {
  PlayerPatch patch;
  patch.name = "郑一一";
  patch.latin_name = "Zheng Yiyi";
  patch.gender = Gender::kFemale;
  const size_t audit_before = AuditSize();
  absl::StatusOr<Player> p = registry_.Update(op110_, player_.id, patch);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->name, "郑一一");
  EXPECT_EQ(p->latin_name, "Zheng Yiyi");
  EXPECT_EQ(p->gender, Gender::kFemale);
  EXPECT_EQ(p->resident_id, kId2008);          // untouched
  EXPECT_EQ(p->rank, Rank::FromString("3k"));  // never changed by Update
  EXPECT_EQ(p->updated_unix, clock_.NowSeconds());

  const Player stored = *repo_.GetPlayer(player_.id);
  EXPECT_EQ(stored.name, "郑一一");
  EXPECT_EQ(stored.birth_date, (Date{2008, 1, 10}));
  EXPECT_EQ(stored.created_unix, player_.created_unix);
  ASSERT_EQ(AuditSize(), audit_before + 1);
  EXPECT_EQ(LastAudit().action, "player.update");
  EXPECT_EQ(LastAudit().subject, "player:" + std::to_string(player_.id.value));
  EXPECT_NE(LastAudit().before.find("郑一"), std::string::npos);
  EXPECT_NE(LastAudit().after.find("郑一一"), std::string::npos);
}

TEST_F(UpdateTest, NationalTransfersAPlayer) {
  PlayerPatch patch;
  patch.agency_prefix = "120";
  absl::StatusOr<Player> p = registry_.Update(national_, player_.id, patch);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(repo_.GetPlayer(player_.id)->agency_prefix, "120");
  // Now the 120 operator acts for the player, and 110 no longer does.
  PlayerPatch rename;
  rename.name = "new";
  EXPECT_TRUE(registry_.Update(op120_, player_.id, rename).ok());
  EXPECT_EQ(registry_.Update(op110_, player_.id, rename).status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(registry_.Get(op110_, player_.id)->resident_id, "");
}

TEST_F(UpdateTest, ResidentIdChangeMustAgreeWithBirthDate) {
  PlayerPatch both;
  both.resident_id = kId2000;
  both.birth_date = Date{2000, 2, 29};
  ASSERT_TRUE(registry_.Update(national_, player_.id, both).ok());
  EXPECT_EQ(repo_.GetPlayer(player_.id)->resident_id, kId2000);
  EXPECT_EQ(repo_.GetPlayer(player_.id)->birth_date, (Date{2000, 2, 29}));
}

TEST_F(UpdateTest, RefusedUpdatesChangeNothing) {
  struct Case {
    const char* label;
    auth::Caller caller;
    PlayerId id;
    PlayerPatch patch;
    StatusCode code;
  };
  PlayerPatch rename;
  rename.name = "x";
  PlayerPatch transfer;
  transfer.agency_prefix = "120";
  PlayerPatch to_unknown;
  to_unknown.agency_prefix = "999";
  PlayerPatch bad_prefix;
  bad_prefix.agency_prefix = "12";
  PlayerPatch birth_conflict;
  birth_conflict.birth_date = Date{2008, 1, 11};
  PlayerPatch taken_id;
  taken_id.resident_id = kId1949;
  taken_id.birth_date = Date{1949, 12, 31};
  PlayerPatch bad_id;
  bad_id.resident_id = "123";
  PlayerPatch empty_name;
  empty_name.name = "";
  PlayerPatch future;
  future.birth_date = Date{2030, 1, 1};
  const std::vector<Case> cases = {
      {"other agency", op120_, player_.id, rename,
       StatusCode::kPermissionDenied},
      {"operator transfer", op110_, player_.id, transfer,
       StatusCode::kPermissionDenied},
      {"auditor", auditor_, player_.id, rename, StatusCode::kPermissionDenied},
      {"public", public_, player_.id, rename, StatusCode::kPermissionDenied},
      {"unknown player", national_, PlayerId{99}, rename,
       StatusCode::kNotFound},
      {"unknown agency", national_, player_.id, to_unknown,
       StatusCode::kNotFound},
      {"bad prefix", national_, player_.id, bad_prefix,
       StatusCode::kInvalidArgument},
      {"birth vs id", op110_, player_.id, birth_conflict,
       StatusCode::kInvalidArgument},
      {"id taken", op110_, player_.id, taken_id, StatusCode::kAlreadyExists},
      {"bad id", op110_, player_.id, bad_id, StatusCode::kInvalidArgument},
      {"empty name", op110_, player_.id, empty_name,
       StatusCode::kInvalidArgument},
      {"future birth", national_, other_.id, future,
       StatusCode::kInvalidArgument},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_REFUSED_UNCHANGED(registry_.Update(c.caller, c.id, c.patch), c.code);
  }
}

TEST_F(UpdateTest, SuspendedAgencyIsFailedPrecondition) {
  ASSERT_TRUE(registry_
                  .SetAgencyStatus(national_, "110", AgencyStatus::kSuspended,
                                   "fees unpaid")
                  .ok());
  PlayerPatch rename;
  rename.name = "x";
  EXPECT_REFUSED_UNCHANGED(registry_.Update(op110_, player_.id, rename),
                           StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace gorank::registry
