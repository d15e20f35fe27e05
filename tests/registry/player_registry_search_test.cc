// PlayerRegistry: search and pagination, rank history, rank changes and the
// agency life cycle.
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/registry/registry_fixture.h"

namespace gorank::registry {
namespace {

using absl::StatusCode;

class SearchTest : public RegistryFixture {
 protected:
  void SetUp() override {
    // id: name / latin / agency / rank
    Add("张伟", "Zhang Wei", "110", "5k");      // 1
    Add("张敏", "Zhang Min", "120", "2d");      // 2
    Add("李娜", "Li Na", "110", std::nullopt);  // 3
    Add("张小龙", "", "110", "1p");             // 4
    Add("王芳", "Wang Fang", "120", "30k");     // 5
  }
  void Add(const std::string& name, const std::string& latin,
           const std::string& agency, std::optional<std::string> rank) {
    PlayerDraft d = Draft(name, agency);
    d.latin_name = latin;
    d.birth_date = Date{2010, 3, 4};
    if (rank) d.initial_rank = Rank::FromString(*rank);
    MustRegister(d);
  }
  std::vector<int64_t> Ids(const auth::Caller& caller, const SearchRequest& r) {
    absl::StatusOr<PlayerPage> page = registry_.Search(caller, r);
    EXPECT_TRUE(page.ok()) << page.status();
    std::vector<int64_t> out;
    if (page.ok()) {
      for (const Player& p : page->players) out.push_back(p.id.value);
    }
    return out;
  }
};

TEST_F(SearchTest, FiltersCombine) {
  struct Case {
    const char* label;
    SearchRequest request;
    std::vector<int64_t> ids;
  };
  auto req = [](const char* name, const char* agency, const char* min,
                const char* max) {
    SearchRequest r;
    r.name_prefix = name;
    r.agency_prefix = agency;
    if (*min) r.min_rank = Rank::FromString(min);
    if (*max) r.max_rank = Rank::FromString(max);
    return r;
  };
  const std::vector<Case> cases = {
      {"everything", req("", "", "", ""), {1, 2, 3, 4, 5}},
      {"chinese prefix", req("张", "", "", ""), {1, 2, 4}},
      {"full name", req("张小龙", "", "", ""), {4}},
      {"latin prefix", req("Zhang", "", "", ""), {1, 2}},
      {"latin is case-sensitive", req("zhang", "", "", ""), {}},
      {"agency", req("", "110", "", ""), {1, 3, 4}},
      {"name and agency", req("张", "120", "", ""), {2}},
      {"min rank excludes unranked", req("", "", "5k", ""), {1, 2, 4}},
      {"max rank excludes unranked", req("", "", "", "1k"), {1, 5}},
      {"range", req("", "", "1d", "3d"), {2}},
      {"pro only", req("", "", "1p", "9p"), {4}},
      {"no match", req("赵", "", "", ""), {}},
      {"agency without players", req("", "130", "", ""), {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(Ids(auditor_, c.request), c.ids);
  }
}

// The public-data policy: the public looks a whole name up (name or Latin
// name), gets at most 20 players and no page token; it cannot list the
// registry by prefix or page through it.
TEST_F(SearchTest, ThePublicOnlyLooksUpWholeNames) {
  auto by = [](const char* name) {
    SearchRequest r;
    r.name_prefix = name;
    return r;
  };
  EXPECT_EQ(Ids(public_, by("张小龙")), (std::vector<int64_t>{4}));
  EXPECT_EQ(Ids(public_, by("Zhang Min")), (std::vector<int64_t>{2}));
  EXPECT_EQ(Ids(public_, by("张")), (std::vector<int64_t>{}))
      << "a prefix is no name";
  EXPECT_EQ(Ids(auditor_, by("张")), (std::vector<int64_t>{1, 2, 4}));
  for (int i = 0; i < 25; ++i) Add("同名", "", "120", std::nullopt);
  auto page = registry_.Search(public_, by("同名"));
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->players.size(), 20u);
  EXPECT_TRUE(page->next_page_token.empty());
  SearchRequest all;
  EXPECT_EQ(registry_.Search(public_, all).status().code(),
            StatusCode::kInvalidArgument);
  SearchRequest paged = by("同名");
  paged.page_token = "10";
  EXPECT_EQ(registry_.Search(public_, paged).status().code(),
            StatusCode::kInvalidArgument);
  SearchRequest by_agency;
  by_agency.agency_prefix = "120";
  EXPECT_EQ(registry_.Search(public_, by_agency).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Ids(op130_, by_agency).size(), 27u)
      << "callers with a token still list";
}

// The public's Latin names match in any case and with or without spaces
// and hyphens; Chinese names as written; still no prefix. Callers with a
// token keep the case-sensitive prefix search.
TEST_F(SearchTest, ThePublicFindsLatinNamesInAnyCaseAndSpacing) {
  Add("柯洁", "Ke Jie", "110", "9p");  // 6
  auto by = [](const char* name) {
    SearchRequest r;
    r.name_prefix = name;
    return r;
  };
  for (const char* q :
       {"Ke Jie", "ke jie", "KE JIE", "Ke-Jie", "kejie", "KeJie", " ke  jie"}) {
    SCOPED_TRACE(q);
    EXPECT_EQ(Ids(public_, by(q)), (std::vector<int64_t>{6}));
  }
  EXPECT_EQ(Ids(public_, by("柯洁")), (std::vector<int64_t>{6}));
  EXPECT_EQ(Ids(public_, by("ke")), (std::vector<int64_t>{}))
      << "a prefix is no name";
  EXPECT_EQ(Ids(public_, by("jie ke")), (std::vector<int64_t>{}))
      << "the order of the parts counts";
  EXPECT_EQ(Ids(public_, by("zhang min")), (std::vector<int64_t>{2}));
  // No transliteration: 张小龙 has no Latin name, so pinyin finds nobody.
  EXPECT_EQ(Ids(public_, by("zhang xiaolong")), (std::vector<int64_t>{}));
  EXPECT_EQ(Ids(auditor_, by("ke jie")), (std::vector<int64_t>{}))
      << "the token search stays a case-sensitive prefix";
}

TEST_F(SearchTest, PaginatesWithTokens) {
  SearchRequest r;
  r.page_size = 2;
  std::vector<int64_t> seen;
  std::vector<std::string> tokens;
  for (int page = 0; page < 10; ++page) {
    absl::StatusOr<PlayerPage> p = registry_.Search(auditor_, r);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_LE(p->players.size(), 2u);
    for (const Player& pl : p->players) seen.push_back(pl.id.value);
    tokens.push_back(p->next_page_token);
    if (p->next_page_token.empty()) break;
    r.page_token = p->next_page_token;
  }
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 2, 3, 4, 5}));
  // Opaque tokens (services/common/paging.h): two pages follow the first.
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_FALSE(tokens[0].empty());
  EXPECT_FALSE(tokens[1].empty());
  EXPECT_NE(tokens[0], tokens[1]);
  EXPECT_EQ(tokens[2], "");
  // Exactly a page full: no next token.
  r = SearchRequest{};
  r.page_size = 5;
  EXPECT_TRUE(registry_.Search(auditor_, r)->next_page_token.empty());
  r.page_size = 200;
  EXPECT_EQ(registry_.Search(auditor_, r)->players.size(), 5u);
}

TEST_F(SearchTest, PublicResultsAreRedacted) {
  PlayerDraft d = Draft("张三丰", "110");
  d.resident_id = kId2008;
  MustRegister(d);
  SearchRequest r;
  r.name_prefix = "张三丰";
  for (const auth::Caller& c : {public_, op120_, auditor_}) {
    auto page = registry_.Search(c, r);
    ASSERT_TRUE(page.ok());
    ASSERT_EQ(page->players.size(), 1u);
    EXPECT_EQ(page->players[0].resident_id, "");
    EXPECT_EQ(page->players[0].birth_date.has_value(),
              c.role != auth::Role::kPublic);
  }
  EXPECT_EQ(registry_.Search(op110_, r)->players[0].resident_id, kId2008);
}

TEST_F(SearchTest, BadRequestsAreInvalidArgument) {
  auto with = [](auto change) {
    SearchRequest r;
    change(r);
    return r;
  };
  const std::vector<std::pair<const char*, SearchRequest>> cases = {
      {"page 201", with([](SearchRequest& r) { r.page_size = 201; })},
      {"page -1", with([](SearchRequest& r) { r.page_size = -1; })},
      {"token letters", with([](SearchRequest& r) { r.page_token = "abc"; })},
      {"token negative", with([](SearchRequest& r) { r.page_token = "-1"; })},
      {"token 19 digits",
       with([](SearchRequest& r) { r.page_token = std::string(19, '9'); })},
      {"agency", with([](SearchRequest& r) { r.agency_prefix = "11"; })},
      {"min above max", with([](SearchRequest& r) {
         r.min_rank = Rank::FromString("3d");
         r.max_rank = Rank::FromString("1d");
       })},
      {"control char", with([](SearchRequest& r) { r.name_prefix = "\x01"; })},
  };
  for (const auto& [label, request] : cases) {
    EXPECT_EQ(registry_.Search(auditor_, request).status().code(),
              StatusCode::kInvalidArgument)
        << label;
  }
}

// ---------------------------------------------------------- rank changes

class RankChangeTest : public RegistryFixture {
 protected:
  void SetUp() override {
    PlayerDraft d = Draft("刘备", "110");
    d.initial_rank = Rank::FromString("1k");
    player_ = MustRegister(d);
    PlayerDraft strong = Draft("关羽", "110");
    strong.initial_rank = Rank::FromString("5d");
    strong_ = MustRegister(strong);
    clock_.Advance(86400);  // 2024-06-02
  }
  Player player_;
  Player strong_;
};

TEST_F(RankChangeTest, OperatorRecordsAnAwardAndTheHistoryGrows) {
  const size_t audit_before = AuditSize();
  auto result = registry_.ChangeRank(op110_, player_.id, Rank::FromString("1d"),
                                     RankChangeReason::kTournamentAward,
                                     "2024 provincial championship",
                                     std::nullopt, Event());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->first.rank, Rank::FromString("1d"));
  const RankHistoryEntry& e = result->second;
  EXPECT_GT(e.id, 0);
  EXPECT_EQ(e.player_id, player_.id);
  EXPECT_EQ(e.from_rank, Rank::FromString("1k"));
  EXPECT_EQ(e.to_rank, Rank::FromString("1d"));
  EXPECT_EQ(e.effective_date, (Date{2024, 6, 2}));
  EXPECT_EQ(e.reason, RankChangeReason::kTournamentAward);
  EXPECT_EQ(e.basis, "event 1 (fixture event): 2024 provincial championship");
  EXPECT_EQ(e.actor, "agency:110/token:2");
  EXPECT_EQ(e.recorded_unix, clock_.NowSeconds());

  EXPECT_EQ(repo_.GetPlayer(player_.id)->rank, Rank::FromString("1d"));
  EXPECT_EQ(AuditSize(), audit_before + 1);
  EXPECT_EQ(LastAudit().action, "player.rank_change");

  // A correction with an explicit date, then the history oldest first.
  ASSERT_TRUE(registry_
                  .ChangeRank(op110_, player_.id, Rank::FromString("2k"),
                              RankChangeReason::kCorrection, "typo in result",
                              Date{2024, 5, 1})
                  .ok());
  auto history = registry_.History(public_, player_.id);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 3u);
  EXPECT_EQ((*history)[0].reason, RankChangeReason::kRegistration);
  EXPECT_EQ((*history)[1].to_rank, Rank::FromString("1d"));
  EXPECT_EQ((*history)[2].from_rank, Rank::FromString("1d"));
  EXPECT_EQ((*history)[2].to_rank, Rank::FromString("2k"));
  EXPECT_EQ((*history)[2].effective_date, (Date{2024, 5, 1}));
  EXPECT_EQ((*history)[2].basis, "typo in result");
}

TEST_F(RankChangeTest, NationalGrantsAnyRank) {
  auto result = registry_.ChangeRank(
      national_, player_.id, Rank::FromString("9p"),
      RankChangeReason::kCorrection, "decision 7", std::nullopt);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(repo_.GetPlayer(player_.id)->rank, Rank::FromString("9p"));
}

TEST_F(RankChangeTest, RefusedChangesChangeNothing) {
  struct Case {
    const char* label;
    auth::Caller caller;
    PlayerId id;
    const char* rank;
    RankChangeReason reason;
    std::string basis;
    std::optional<Date> date;
    StatusCode code;
  };
  const auto kAward = RankChangeReason::kTournamentAward;
  const std::vector<Case> cases = {
      {"above 3d", op110_, player_.id, "4d", kAward, "b", std::nullopt,
       StatusCode::kPermissionDenied},
      {"pro", op110_, player_.id, "1p", kAward, "b", std::nullopt,
       StatusCode::kPermissionDenied},
      {"other agency", op120_, player_.id, "2k", kAward, "b", std::nullopt,
       StatusCode::kPermissionDenied},
      {"auditor", auditor_, player_.id, "2k", kAward, "b", std::nullopt,
       StatusCode::kPermissionDenied},
      {"certificate reason", national_, player_.id, "2k",
       RankChangeReason::kCertificate, "b", std::nullopt,
       StatusCode::kInvalidArgument},
      {"registration reason", national_, player_.id, "2k",
       RankChangeReason::kRegistration, "b", std::nullopt,
       StatusCode::kInvalidArgument},
      {"empty basis", national_, player_.id, "2k", kAward, "", std::nullopt,
       StatusCode::kInvalidArgument},
      {"future date", national_, player_.id, "2k", kAward, "b",
       Date{2024, 6, 3}, StatusCode::kInvalidArgument},
      {"invalid date", national_, player_.id, "2k", kAward, "b",
       Date{2024, 2, 30}, StatusCode::kInvalidArgument},
      {"same rank", national_, player_.id, "1k", kAward, "b", std::nullopt,
       StatusCode::kFailedPrecondition},
      {"unknown player", national_, PlayerId{77}, "2k", kAward, "b",
       std::nullopt, StatusCode::kNotFound},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_REFUSED_UNCHANGED(
        registry_.ChangeRank(c.caller, c.id, Rank::FromString(c.rank), c.reason,
                             c.basis, c.date,
                             c.reason == kAward ? Event() : AwardBasis{}),
        c.code);
  }
}

// An award (no certificate) must name what it rests on: exactly one closed
// event or one certificate of the player, checked before anything changes.
TEST_F(RankChangeTest, AnAwardNamesItsBasis) {
  const auto kAward = RankChangeReason::kTournamentAward;
  const Rank three = Rank::FromString("3d");
  const struct {
    const char* label;
    AwardBasis basis;
    StatusCode code;
  } refused[] = {
      {"no basis", AwardBasis{}, StatusCode::kInvalidArgument},
      {"both", AwardBasis{1, "110240001"}, StatusCode::kInvalidArgument},
      {"negative event", AwardBasis{-3, ""}, StatusCode::kInvalidArgument},
      {"unknown event", AwardBasis{404, ""}, StatusCode::kNotFound},
      {"open event", AwardBasis{500, ""}, StatusCode::kFailedPrecondition},
      {"unknown certificate", AwardBasis{0, "110249999"},
       StatusCode::kNotFound},
  };
  for (const auto& c : refused) {
    SCOPED_TRACE(c.label);
    EXPECT_REFUSED_UNCHANGED(
        registry_.ChangeRank(op110_, player_.id, three, kAward,
                             "provincial final", std::nullopt, c.basis),
        c.code);
  }
  // A correction names no award basis.
  EXPECT_REFUSED_UNCHANGED(registry_.ChangeRank(op110_, player_.id, three,
                                                RankChangeReason::kCorrection,
                                                "typo", std::nullopt, Event()),
                           StatusCode::kInvalidArgument);
  // Without a checker (a server that cannot check) awards are refused.
  PlayerRegistry unchecked(&repo_, &clock_);
  EXPECT_REFUSED_UNCHANGED(
      unchecked.ChangeRank(op110_, player_.id, three, kAward,
                           "provincial final", std::nullopt, Event()),
      StatusCode::kFailedPrecondition);

  auto by_cert =
      registry_.ChangeRank(op110_, player_.id, three, kAward, "final, 1st",
                           std::nullopt, AwardBasis{0, "110240001"});
  ASSERT_TRUE(by_cert.ok()) << by_cert.status();
  EXPECT_EQ(by_cert->second.basis, "certificate 110240001 (1d): final, 1st");
  // The public sees the number masked and no token id; staff see all.
  auto shown = registry_.History(public_, player_.id);
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(shown->back().basis, "certificate 11024**** (1d): final, 1st");
  EXPECT_EQ(shown->back().actor, "agency:110");
  EXPECT_EQ(registry_.History(auditor_, player_.id)->back().basis,
            "certificate 110240001 (1d): final, 1st");
  EXPECT_EQ(registry_.History(auditor_, player_.id)->back().actor,
            "agency:110/token:2");
  // The annual report's query finds it by reason, agency and date.
  RankChangeQuery q;
  q.agency_prefix = "110";
  q.from = Date{2024, 1, 1};
  q.to = Date{2024, 12, 31};
  auto awards = repo_.ListRankChanges(q);
  ASSERT_TRUE(awards.ok());
  ASSERT_EQ(awards->size(), 1u);
  EXPECT_EQ((*awards)[0].to_rank, three);
  q.agency_prefix = "120";
  EXPECT_TRUE(repo_.ListRankChanges(q)->empty());
}

TEST_F(RankChangeTest, OperatorMayNotTouchARankAboveItsAuthority) {
  // Demoting a nationally granted 5d is outside an agency's authority too.
  EXPECT_REFUSED_UNCHANGED(
      registry_.ChangeRank(op110_, strong_.id, Rank::FromString("2d"),
                           RankChangeReason::kCorrection, "b", std::nullopt),
      StatusCode::kPermissionDenied);
  EXPECT_TRUE(registry_
                  .ChangeRank(national_, strong_.id, Rank::FromString("2d"),
                              RankChangeReason::kCorrection, "b", std::nullopt)
                  .ok());
}

TEST_F(RankChangeTest, SuspendedAgencyIsFailedPrecondition) {
  ASSERT_TRUE(
      registry_
          .SetAgencyStatus(national_, "110", AgencyStatus::kSuspended, "audit")
          .ok());
  EXPECT_REFUSED_UNCHANGED(
      registry_.ChangeRank(op110_, player_.id, Rank::FromString("2k"),
                           RankChangeReason::kCorrection, "b", std::nullopt),
      StatusCode::kFailedPrecondition);
}

TEST_F(RankChangeTest, HistoryOfUnknownPlayerIsNotFound) {
  EXPECT_EQ(registry_.History(public_, PlayerId{99}).status().code(),
            StatusCode::kNotFound);
}

// --------------------------------------------------------------- agencies

TEST_F(RegistryFixture, CreatesAndListsAgencies) {
  Agency a;
  a.prefix = "990";
  a.name = "测试协会";
  a.name_en = "Test";
  a.level = AgencyLevel::kNational;     // ignored: always first level
  a.status = AgencyStatus::kSuspended;  // ignored: always active
  absl::StatusOr<Agency> created = registry_.CreateAgency(national_, a);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->level, AgencyLevel::kFirstLevel);
  EXPECT_EQ(created->status, AgencyStatus::kActive);
  EXPECT_EQ(LastAudit().action, "agency.create");
  EXPECT_EQ(LastAudit().subject, "agency:990");

  auto all = registry_.ListAgencies();
  ASSERT_TRUE(all.ok());
  std::vector<std::string> prefixes;
  for (const Agency& x : *all) prefixes.push_back(x.prefix);
  EXPECT_EQ(prefixes,
            (std::vector<std::string>{"000", "110", "120", "130", "990"}));
}

TEST_F(RegistryFixture, RefusedAgencyCreationChangesNothing) {
  const std::vector<std::pair<Agency, StatusCode>> cases = {
      {{"000", "n", "", {}, {}, ""}, StatusCode::kInvalidArgument},
      {{"99", "n", "", {}, {}, ""}, StatusCode::kInvalidArgument},
      {{"9a9", "n", "", {}, {}, ""}, StatusCode::kInvalidArgument},
      {{"990", "", "", {}, {}, ""}, StatusCode::kInvalidArgument},
      {{"110", "dup", "", {}, {}, ""}, StatusCode::kAlreadyExists},
  };
  for (const auto& [agency, code] : cases) {
    SCOPED_TRACE(agency.prefix + "/" + agency.name);
    EXPECT_REFUSED_UNCHANGED(registry_.CreateAgency(national_, agency), code);
  }
}

TEST_F(RegistryFixture, SuspendsAndReinstates) {
  auto s = registry_.SetAgencyStatus(national_, "120", AgencyStatus::kSuspended,
                                     "no annual report");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, AgencyStatus::kSuspended);
  EXPECT_EQ(repo_.GetAgency("120")->status_reason, "no annual report");
  EXPECT_EQ(LastAudit().action, "agency.suspend");

  auto r =
      registry_.SetAgencyStatus(national_, "120", AgencyStatus::kActive, "");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(repo_.GetAgency("120")->status, AgencyStatus::kActive);
  EXPECT_EQ(LastAudit().action, "agency.reinstate");
}

TEST_F(RegistryFixture, RefusedStatusChangesChangeNothing) {
  struct Case {
    const char* prefix;
    AgencyStatus status;
    const char* reason;
    StatusCode code;
  };
  for (const Case& c : std::vector<Case>{
           {"000", AgencyStatus::kSuspended, "r",
            StatusCode::kFailedPrecondition},
           {"120", AgencyStatus::kActive, "", StatusCode::kFailedPrecondition},
           {"120", AgencyStatus::kSuspended, "", StatusCode::kInvalidArgument},
           {"999", AgencyStatus::kSuspended, "r", StatusCode::kNotFound},
           {"12", AgencyStatus::kSuspended, "r",
            StatusCode::kInvalidArgument}}) {
    SCOPED_TRACE(c.prefix);
    EXPECT_REFUSED_UNCHANGED(
        registry_.SetAgencyStatus(national_, c.prefix, c.status, c.reason),
        c.code);
  }
}

}  // namespace
}  // namespace gorank::registry
