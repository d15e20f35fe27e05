// Athlete technical grades (SPEC section 6): for every clause of the table
// one placing that qualifies and one near miss; every note of the standard;
// the amateur-dan route; and EvaluateEvent over computed standings.
#include "services/eligibility/eligibility.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::eligibility {
namespace {

using tournaments::SubEvent;

constexpr SubEvent kMenInd = SubEvent::kMenIndividual;
constexpr SubEvent kWomenInd = SubEvent::kWomenIndividual;
constexpr SubEvent kMenTeam = SubEvent::kMenTeam;
constexpr SubEvent kWomenTeam = SubEvent::kWomenTeam;
constexpr SubEvent kPairs = SubEvent::kMixedPairs;

struct Case {
  const char* name;
  const char* competition;
  const char* group;
  SubEvent sub_event;
  int place;
  const char* grants;  // "grade clause" entries, best first, ';'-joined
  const char* misses;  // near-miss reasons, ';'-joined
  int played = 40;
  bool highest_group = true;
  bool pending = false;
};

std::string GrantsOf(const PlayerEvaluation& e) {
  std::string out;
  for (const GradeGrant& g : e.grants) {
    out += (out.empty() ? "" : ";") +
           GradeStandard::Default().Info(g.grade).code + " " + g.clause;
  }
  return out;
}

std::string MissesOf(const PlayerEvaluation& e) {
  std::string out;
  for (const NearMiss& m : e.near_misses)
    out += (out.empty() ? "" : ";") + m.reason;
  return out;
}

class Placing : public ::testing::TestWithParam<Case> {};

TEST_P(Placing, GrantsAndNearMisses) {
  const Case& c = GetParam();
  EventPlacing p;
  p.event_name = "Test";
  p.competition = c.competition;
  p.group = c.group;
  p.sub_event = c.sub_event;
  p.place = c.place;
  p.entrants_played = c.played;
  p.highest_group = c.highest_group;
  p.pending = c.pending;
  PlayerRecord record;
  record.placings.push_back(p);
  const PlayerEvaluation e = EvaluatePlayer(GradeStandard::Default(), record);
  EXPECT_EQ(GrantsOf(e), c.grants);
  EXPECT_EQ(MissesOf(e), c.misses);
  for (const GradeGrant& g : e.grants) {
    ASSERT_TRUE(g.basis.placing.has_value());
    EXPECT_EQ(g.basis.placing->place, c.place);  // the justifying result
  }
}

const char* kWmsg = "world_mind_sports_games";
const char* kWpgc = "world_pro_championship";
const char* kNmsg = "national_mind_sports_games";
const char* kNcc = "national_championship";
const char* kNao = "national_amateur_open";

INSTANTIATE_TEST_SUITE_P(
    InternationalMaster, Placing,
    ::testing::Values(Case{"WmsgIndividualTop8", kWmsg, "", kMenInd, 8,
                           "international_master 一(一)", ""},
                      Case{"WmsgIndividual9", kWmsg, "", kMenInd, 9,
                           "master 二(一)", "place 9, needs top 8"},
                      Case{"WmsgTeamTop2", kWmsg, "", kMenTeam, 2,
                           "international_master 一(一)", ""},
                      Case{"WmsgTeam3", kWmsg, "", kWomenTeam, 3,
                           "master 二(一)", "place 3, needs top 2"},
                      Case{"WpgcIndividualTop8", kWpgc, "", kMenInd, 1,
                           "international_master 一(一)", ""},
                      Case{"SamsungTop8", "samsung_cup", "", kMenInd, 8,
                           "international_master 一(二)", ""},
                      Case{"Samsung16", "samsung_cup", "", kMenInd, 16,
                           "master 二(三)", "place 16, needs top 8"},
                      Case{"AsianPairsTop2", "asian_indoor_games", "", kPairs,
                           2, "international_master 一(三)", ""},
                      Case{"AsianPairs7", "asian_indoor_games", "", kPairs, 7,
                           "", "place 7, needs places 3-6"}),
    [](const auto& info) { return std::string(info.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Master, Placing,
    ::testing::Values(
        Case{"WmsgYouthTop6", kWmsg, "youth", kWomenInd, 6, "master 二(一)", "",
             40, false},
        Case{"WmsgYouth7", kWmsg, "youth", kWomenInd, 7, "",
             "place 7, needs top 6", 40, false},
        Case{"WpgcIndividual16", kWpgc, "", kMenInd, 16, "master 二(二)",
             "place 16, needs top 8"},
        Case{"WpgcTeam4", kWpgc, "", kMenTeam, 4, "master 二(二)",
             "place 4, needs top 2"},
        Case{"WpgcTeam5", kWpgc, "", kMenTeam, 5, "",
             "place 5, needs places 3-4"},
        Case{"AsianIndividual6", "asian_indoor_games", "", kMenInd, 6,
             "master 二(四)", "place 6, needs top 2"},
        Case{"NmsgIndividual16", kNmsg, "", kMenInd, 16, "master 二(五)", ""},
        Case{"NmsgIndividual17", kNmsg, "", kMenInd, 17, "grade_1 三(一)",
             "place 17, needs top 16"},
        Case{"NmsgTeam4", kNmsg, "", kMenTeam, 4, "master 二(五)", ""},
        Case{"NmsgTeam5", kNmsg, "", kMenTeam, 5, "grade_1 三(一)",
             "place 5, needs top 4"},
        Case{"NmsgYouth3", kNmsg, "youth", kMenInd, 3, "master 二(五)", "", 40,
             false},
        Case{"NmsgYouth4", kNmsg, "youth", kMenInd, 4, "grade_1 三(一)",
             "place 4, needs top 3", 40, false},
        Case{"NccProAIndividual16", kNcc, "pro_a", kMenInd, 16, "master 二(六)",
             ""},
        Case{"NccProATeam4", kNcc, "pro_a", kWomenTeam, 4, "master 二(六)",
             ""}),
    [](const auto& info) { return std::string(info.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Grade1, Placing,
    ::testing::Values(
        Case{"NmsgIndividual32", kNmsg, "", kWomenInd, 32, "grade_1 三(一)",
             "place 32, needs top 16"},
        Case{"NmsgIndividual33", kNmsg, "", kWomenInd, 33, "",
             "place 33, needs places 17-32"},
        Case{"NmsgYouth16", kNmsg, "youth", kMenInd, 16, "grade_1 三(一)",
             "place 16, needs top 3", 40, false},
        Case{"NccProAIndividual32", kNcc, "pro_a", kMenInd, 32,
             "grade_1 三(二)1", "place 32, needs top 16"},
        Case{"NccProAMenTeam12", kNcc, "pro_a", kMenTeam, 12, "grade_1 三(二)1",
             "place 12, needs top 4"},
        Case{"NccProAWomenTeam9", kNcc, "pro_a", kWomenTeam, 9, "",
             "place 9, needs places 5-8"},
        Case{"NccAmateurIndividual16", kNcc, "amateur", kMenInd, 16,
             "grade_1 三(二)2", ""},
        Case{"NccAmateurTeam8", kNcc, "amateur", kMenTeam, 8, "grade_1 三(二)2",
             ""},
        Case{"NccU16Top6", kNcc, "u16", kMenInd, 6, "grade_1 三(二)3", ""},
        Case{"NccU12Top3", kNcc, "u12", kWomenInd, 3, "grade_1 三(二)4", ""},
        Case{"NaoIndividual16", kNao, "", kMenInd, 16, "grade_1 三(三)", ""},
        Case{"NaoTeam8", kNao, "", kWomenTeam, 8, "grade_1 三(三)", ""}),
    [](const auto& info) { return std::string(info.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Grade2, Placing,
    ::testing::Values(
        Case{"NccProAIndividual64", kNcc, "pro_a", kMenInd, 64,
             "grade_2 四(一)1", "place 64, needs places 17-32"},
        Case{"NccProAIndividual65", kNcc, "pro_a", kMenInd, 65, "",
             "place 65, needs places 33-64"},
        Case{"NccBTeam8", kNcc, "b", kMenTeam, 8, "grade_2 四(一)2", ""},
        Case{"NccBTeam9", kNcc, "b", kMenTeam, 9, "", "place 9, needs top 8"},
        Case{"NccAmateurIndividual17", kNcc, "amateur", kMenInd, 17,
             "grade_2 四(一)3", "place 17, needs top 16"},
        Case{"NccAmateurTeam9", kNcc, "amateur", kMenTeam, 9, "grade_2 四(一)3",
             "place 9, needs top 8"},
        Case{"NccU16Place7", kNcc, "u16", kMenInd, 7, "grade_2 四(一)4",
             "place 7, needs top 6"},
        Case{"NccU16Place25", kNcc, "u16", kMenInd, 25, "",
             "place 25, needs places 7-24"},
        Case{"NccU12Place8", kNcc, "u12", kMenInd, 8, "grade_2 四(一)5",
             "place 8, needs top 3"},
        Case{"NccU12Place9", kNcc, "u12", kMenInd, 9, "",
             "place 9, needs places 4-8"},
        Case{"NaoIndividual128", kNao, "", kMenInd, 128, "grade_2 四(二)",
             "place 128, needs top 16", 200},
        Case{"NaoTeam16", kNao, "", kMenTeam, 16, "grade_2 四(二)",
             "place 16, needs top 8"}),
    [](const auto& info) { return std::string(info.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Grade3, Placing,
    ::testing::Values(
        Case{"NccAmateurIndividual128", kNcc, "amateur", kMenInd, 128,
             "grade_3 五(一)", "place 128, needs places 17-64", 200},
        Case{"NccAmateurIndividual129", kNcc, "amateur", kMenInd, 129, "",
             "place 129, needs places 65-128", 200},
        Case{"NccAmateurTeam32", kNcc, "amateur", kMenTeam, 32,
             "grade_3 五(一)", "place 32, needs places 9-16"},
        Case{"NccAmateurTeam33", kNcc, "amateur", kMenTeam, 33, "",
             "place 33, needs places 17-32"},
        Case{"NaoIndividual256", kNao, "", kMenInd, 256, "grade_3 五(二)",
             "place 256, needs places 17-128", 300},
        Case{"NaoIndividual257", kNao, "", kMenInd, 257, "",
             "place 257, needs places 129-256", 300},
        Case{"NaoTeam17", kNao, "", kMenTeam, 17, "grade_3 五(二)",
             "place 17, needs places 9-16"},
        Case{"ProvincialTop32", "provincial_championship", "", kMenInd, 32,
             "grade_3 五(三)", ""},
        Case{"Provincial33", "provincial_championship", "", kMenInd, 33, "",
             "place 33, needs top 32"},
        Case{"ProvincialJuniorTop16", "provincial_junior_championship", "",
             kWomenInd, 16, "grade_3 五(四)", ""},
        Case{"ProvincialJunior17", "provincial_junior_championship", "",
             kWomenInd, 17, "", "place 17, needs top 16"},
        Case{"CityTop6", "city_championship", "", kMenInd, 6, "grade_3 五(五)",
             ""},
        Case{"City7", "city_championship", "", kMenInd, 7, "",
             "place 7, needs top 6"}),
    [](const auto& info) { return std::string(info.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Notes, Placing,
    ::testing::Values(
        // Note 1: only men's/women's individual and team, mixed pairs.
        Case{"Note1MixedTeamNotEligible", kNmsg, "", SubEvent::kMixedTeam, 1,
             "", "sub-event mixed_team not eligible"},
        Case{"Note1OtherSubEventNotEligible", "city_championship", "",
             SubEvent::kOther, 1, "", "sub-event other not eligible"},
        // Note 2: at least 8 played.
        Case{"Note2EightPlayed", "city_championship", "", kMenInd, 1,
             "grade_3 五(五)", "", 8},
        Case{"Note2SixPlayed", "city_championship", "", kMenInd, 1, "",
             "only 6 entrants played; at least 8 required", 6},
        // Note 3: an event whose groups the standard does not name gives
        // grades only in its highest group.
        Case{"Note3HighestGroup", "provincial_championship", "a", kMenInd, 1,
             "grade_3 五(三)", ""},
        Case{"Note3LowerGroup", "provincial_championship", "b", kMenInd, 1, "",
             "group b not the event's highest", 40, false},
        // Every reason at once, for the grade the place would have met.
        Case{"Notes2And3AndPending", "provincial_championship", "b", kMenInd,
             40, "",
             "only 6 entrants played; at least 8 required; group b not the "
             "event's highest; place pending; no grade until it is decided; "
             "place 40, needs top 32",
             6, false, true},
        // Note 4: recognised World Professional Championship events.
        Case{"Note4WorldGoTeam", "world_go_team_championship", "", kMenTeam, 2,
             "international_master 一(一)", ""},
        Case{"Note4GexuanWomenTeam", "gexuan_huading_cup", "", kWomenTeam, 3,
             "master 二(二)", "place 3, needs top 2"},
        Case{"Note4Bailing", "bailing_cup", "", kMenInd, 8,
             "international_master 一(一)", ""},
        Case{"Note4Mengbaihe", "mengbaihe_cup", "", kMenInd, 12,
             "master 二(二)", "place 12, needs top 8"},
        Case{"Note4Qionglong", "qionglongshan_cup", "", kWomenInd, 1,
             "international_master 一(一)", ""},
        Case{"Note4BailingWomenNotRecognised", "bailing_cup", "", kWomenTeam, 1,
             "",
             "sub-event women_team of bailing_cup is not a recognised event"},
        // Note 5: recognised National Championship events.
        Case{"Note5ALeague", "national_a_league", "", kMenTeam, 4,
             "master 二(六)", ""},
        Case{"Note5WomenALeague", "national_women_a_league", "", kWomenTeam, 8,
             "grade_1 三(二)1", "place 8, needs top 4"},
        Case{"Note5EveningNewsIndividual", "evening_news_cup", "", kMenInd, 16,
             "grade_1 三(二)2", ""},
        Case{"Note5EveningNewsWomen", "evening_news_cup", "", kWomenInd, 1, "",
             "sub-event women_individual of evening_news_cup is not a "
             "recognised event"},
        // Groups and competitions outside the table, pending places.
        Case{"NccBGroupIndividual", kNcc, "b", kMenInd, 1, "",
             "no grade for sub-event men_individual in group b"},
        Case{"ClubEvent", "club_event", "", kMenInd, 1, "",
             "competition 'club_event' gives no athlete grade"},
        Case{"PendingPlayoff", "city_championship", "", kMenInd, 1, "",
             "place pending; no grade until it is decided", 40, true, true}),
    [](const auto& info) { return std::string(info.param.name); });

struct DanCase {
  const char* name;
  const char* rank;
  bool appraisal;
  bool effective;
  const char* grants;
  const char* misses;
};

class DanRoute : public ::testing::TestWithParam<DanCase> {};

TEST_P(DanRoute, CertificatesQualify) {
  const DanCase& c = GetParam();
  PlayerRecord record;
  record.certificates.push_back({"000250001",
                                 registry::Rank::FromString(c.rank),
                                 c.appraisal, c.effective});
  const PlayerEvaluation e = EvaluatePlayer(GradeStandard::Default(), record);
  EXPECT_EQ(GrantsOf(e), c.grants);
  EXPECT_EQ(MissesOf(e), c.misses);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, DanRoute,
    ::testing::Values(
        DanCase{"Dan7", "7d", false, true, "grade_1 段位", ""},
        DanCase{"Dan6", "6d", false, true, "grade_1 段位", ""},
        DanCase{"Dan5", "5d", false, true, "grade_2 段位", ""},
        DanCase{"Dan4", "4d", false, true, "grade_2 段位", ""},
        DanCase{"Dan4UnderNotice", "4d", false, false, "",
                "4d certificate still under notice"},
        DanCase{"Dan6ByAppraisal", "6d", true, true, "",
                "6d obtained by appraisal; an appraised dan never qualifies"},
        DanCase{"Dan5ByAppraisalUnderNotice", "5d", true, false, "",
                "5d obtained by appraisal; an appraised dan never qualifies; "
                "5d certificate still under notice"},
        DanCase{"Dan3", "3d", false, true, "",
                "3d certificate gives no grade; 4d and above qualify"},
        DanCase{"Kyu", "5k", false, true, "", ""}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(EvaluatePlayer, EveryGradeBestFirstWithItsJustification) {
  PlayerRecord record;
  EventPlacing city;
  city.event_name = "Xi'an City Championship 2024";
  city.competition = "city_championship";
  city.sub_event = kMenInd;
  city.place = 2;
  city.entrants_played = 30;
  EventPlacing nao = city;
  nao.event_name = "National Amateur Open 2025";
  nao.competition = kNao;
  nao.place = 5;
  nao.shared = true;
  nao.entrants_played = 300;
  record.placings = {city, nao};
  record.certificates.push_back(
      {"000250007", registry::Rank::FromString("5d"), false, true});
  const PlayerEvaluation e = EvaluatePlayer(GradeStandard::Default(), record);
  EXPECT_EQ(GrantsOf(e), "grade_1 三(三);grade_2 段位;grade_3 五(五)");
  EXPECT_EQ(
      e.grants[0].explanation,
      "Grade 1 Athlete (一级运动员): National Amateur Open 2025 (main group, "
      "men_individual) place 5= of 300 played, clause 三(三)");
  EXPECT_EQ(e.grants[1].basis.certificate->number, "000250007");
}

// EvaluateEvent over real standings: a city championship knockout of 16
// registered players gives places 1, 2, 3=, 3=, 5= x4, 9= x8; top 6
// qualify, so the eight players placed 1-5= do.
TEST(EvaluateEvent, ListsEveryQualifyingEntrant) {
  tournaments::testing::ResultsBuilder b;
  b.Players(16);
  int round = 1;
  for (int size = 16; size > 1; size /= 2, ++round) {
    for (int i = 1; i <= size / 2; ++i) b.Win(round, i, size + 1 - i);
  }
  tournaments::EventResults results = b.Build();
  for (auto& e : results.entrants)
    e.player_id = registry::PlayerId{1000 + e.id.value};
  tournaments::Event event =
      tournaments::testing::MakeEvent(tournaments::FormatKind::kKnockout);
  event.competition = "city_championship";
  event.sub_event = kMenInd;
  auto standings = tournaments::ComputeStandings(event, results);
  ASSERT_TRUE(standings.ok()) << standings.status();
  auto eval =
      EvaluateEvent(GradeStandard::Default(), event, results, *standings);
  ASSERT_TRUE(eval.ok()) << eval.status();
  ASSERT_EQ(eval->qualifying.size(), 8u);
  EXPECT_EQ(eval->qualifying[7].place, 5);
  EXPECT_EQ(eval->qualifying[0].player_ids,
            std::vector<registry::PlayerId>{registry::PlayerId{1001}});
  EXPECT_TRUE(eval->blockers.empty());
}

TEST(EvaluateEvent, TooFewPlayersIsABlockerNotAnError) {
  tournaments::testing::ResultsBuilder b;
  b.Players(4).Win(1, 1, 4).Win(1, 2, 3).Win(2, 1, 2);
  tournaments::Event event =
      tournaments::testing::MakeEvent(tournaments::FormatKind::kKnockout);
  event.competition = "city_championship";
  event.sub_event = kMenInd;
  auto standings = tournaments::ComputeStandings(event, b.Build());
  ASSERT_TRUE(standings.ok());
  auto eval =
      EvaluateEvent(GradeStandard::Default(), event, b.Build(), *standings);
  ASSERT_TRUE(eval.ok());
  EXPECT_TRUE(eval->qualifying.empty());
  EXPECT_EQ(eval->blockers, std::vector<std::string>{
                                "only 4 entrants played; at least 8 required"});
}

// A team event: the grade goes to every registered member of the team.
TEST(EvaluateEvent, TeamPlacesCoverTheirMembers) {
  tournaments::testing::ResultsBuilder b;
  for (int p = 1; p <= 16; ++p)
    b.Player(p, "P" + std::to_string(p), (p + 1) / 2);
  for (int t = 1; t <= 8; ++t)
    b.TeamOf(t, "T" + std::to_string(t), {2 * t - 1, 2 * t});
  // One round: team t beats team 9 - t on both boards.
  for (int t = 1; t <= 4; ++t) {
    const int u = 9 - t;
    b.Win(1, 2 * t - 1, 2 * u - 1, 1).Win(1, 2 * t, 2 * u, 2);
  }
  tournaments::EventResults results = b.Build();
  for (auto& e : results.entrants)
    e.player_id = registry::PlayerId{500 + e.id.value};
  tournaments::Event event = tournaments::testing::MakeEvent(
      tournaments::FormatKind::kTeamSwiss, 1, 2);
  event.competition = kNcc;
  event.group = "amateur";
  event.sub_event = kMenTeam;
  auto standings = tournaments::ComputeStandings(event, results);
  ASSERT_TRUE(standings.ok()) << standings.status();
  auto eval =
      EvaluateEvent(GradeStandard::Default(), event, results, *standings);
  ASSERT_TRUE(eval.ok()) << eval.status();
  // Winners share 1st (same total), losers share 5th: all 8 teams are in
  // the amateur group's top 8 (三(二)2).
  ASSERT_EQ(eval->qualifying.size(), 8u);
  EXPECT_EQ(eval->qualifying[0].player_ids,
            (std::vector<registry::PlayerId>{registry::PlayerId{501},
                                             registry::PlayerId{502}}));
  EXPECT_EQ(eval->qualifying[0].grants[0].clause, "三(二)2");
}

}  // namespace
}  // namespace gorank::eligibility
