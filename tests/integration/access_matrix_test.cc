// Every RPC of auth::AccessTable() called by every kind of caller through a
// real gRPC channel: the server must answer exactly as the access table
// promises. The expected roles are written down here independently, so a
// change of the table (or a new RPC without a row here) fails this test.
#include <future>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "gorank/v1/certificates.pb.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "services/auth/access_policy.h"
#include "tests/testing/in_process_server.h"

namespace gorank::integration {
namespace {

// Who may call what: P public, N national admin, A agency operator, U auditor.
const std::map<std::string, std::string>& ExpectedRoles() {
  static const auto* const kRows = new std::map<std::string, std::string>{
      {"/gorank.v1.PlayerRegistry/RegisterPlayer", "NA"},
      {"/gorank.v1.PlayerRegistry/GetPlayer", "PNAU"},
      {"/gorank.v1.PlayerRegistry/UpdatePlayer", "NA"},
      {"/gorank.v1.PlayerRegistry/SearchPlayers", "PNAU"},
      {"/gorank.v1.PlayerRegistry/GetRankHistory", "PNAU"},
      {"/gorank.v1.PlayerRegistry/ChangeRank", "NA"},
      {"/gorank.v1.PlayerRegistry/ImportPlayers", "NA"},
      {"/gorank.v1.AgencyService/ListAgencies", "PNAU"},
      {"/gorank.v1.AgencyService/CreateAgency", "N"},
      {"/gorank.v1.AgencyService/SuspendAgency", "N"},
      {"/gorank.v1.AgencyService/ReinstateAgency", "N"},
      {"/gorank.v1.TokenService/CreateToken", "N"},
      {"/gorank.v1.TokenService/RevokeToken", "N"},
      {"/gorank.v1.TokenService/ListTokens", "NU"},
      {"/gorank.v1.TokenService/WhoAmI", "PNAU"},
      {"/gorank.v1.RankService/ParseRank", "PNAU"},
      {"/gorank.v1.CertificateService/IssueCertificate", "NA"},
      {"/gorank.v1.CertificateService/GetCertificate", "NAU"},
      {"/gorank.v1.CertificateService/ListCertificates", "NAU"},
      {"/gorank.v1.CertificateService/RevokeCertificate", "NA"},
      {"/gorank.v1.CertificateService/LodgeObjection", "PNAU"},
      {"/gorank.v1.CertificateService/DecideObjection", "N"},
      {"/gorank.v1.CertificateService/ListNotices", "PNAU"},
      {"/gorank.v1.CertificateService/ListObjections", "NAU"},
      {"/gorank.v1.CertificateService/RecommendAppraisal", "NA"},
      {"/gorank.v1.CertificateService/DecideAppraisal", "N"},
      {"/gorank.v1.CertificateService/ListAppraisals", "NAU"},
      {"/gorank.v1.CertificateService/OrderStock", "NA"},
      {"/gorank.v1.CertificateService/ReleaseStock", "N"},
      {"/gorank.v1.CertificateService/GetStock", "NAU"},
      {"/gorank.v1.CertificateService/VerifyCertificate", "PNAU"},
      {"/gorank.v1.CertificateService/LookupRank", "PNAU"},
      {"/gorank.v1.CertificateService/ExportHolders", "NAU"},
      {"/gorank.v1.CertificateService/ImportCertificates", "NA"},
      {"/gorank.v1.RulesService/CheckGameRecord", "PNAU"},
      {"/gorank.v1.RulesService/CheckGameRecords", "PNAU"},
      {"/gorank.v1.RulesService/CheckGomokuRecord", "PNAU"},
      {"/gorank.v1.RulesService/CheckXiangqiRecord", "PNAU"},
      {"/gorank.v1.AuditService/GetCheckpoint", "PNAU"},
      {"/gorank.v1.AuditService/GetEntries", "NU"},
      {"/gorank.v1.AuditService/GetInclusionProof", "PNAU"},
      {"/gorank.v1.AuditService/GetConsistencyProof", "PNAU"},
      {"/gorank.v1.AuditService/VerifyTables", "NU"},
      {"/gorank.v1.AuditService/GetAnnualReport", "NAU"},
      {"/gorank.v1.AuditService/GetNationalSummary", "NU"},
      {"/gorank.v1.AuditService/RecordReview", "U"},
      {"/gorank.v1.AuditService/ListReviews", "NAU"},
      {"/gorank.v1.AuditService/Backup", "NU"},
      {"/gorank.v1.AuditService/GetCertificateStatement", "NAU"},
      {"/gorank.v1.AuditService/GetRevocationList", "PNAU"},
      {"/gorank.v1.TournamentService/ListCompetitions", "PNAU"},
      {"/gorank.v1.TournamentService/CreateEvent", "NA"},
      {"/gorank.v1.TournamentService/GetEvent", "PNAU"},
      {"/gorank.v1.TournamentService/UpdateEvent", "NA"},
      {"/gorank.v1.TournamentService/ListEvents", "PNAU"},
      {"/gorank.v1.TournamentService/GetResults", "PNAU"},
      {"/gorank.v1.TournamentService/SaveResults", "NA"},
      {"/gorank.v1.TournamentService/GetStandings", "PNAU"},
      {"/gorank.v1.TournamentService/ImportResults", "NA"},
      {"/gorank.v1.TournamentService/ExportResults", "PNAU"},
      {"/gorank.v1.TournamentService/RecordRound", "NA"},
      {"/gorank.v1.TournamentService/CloseEvent", "NA"},
      {"/gorank.v1.TournamentService/EditResults", "NA"},
      {"/gorank.v1.TournamentService/PairRound", "NA"},
      {"/gorank.v1.EligibilityService/EvaluatePlayer", "PNAU"},
      {"/gorank.v1.EligibilityService/EvaluateEvent", "PNAU"},
      {"/gorank.v1.EligibilityService/GetGradeStandard", "PNAU"},
      {"/gorank.v1.RatingService/GetRating", "PNAU"},
      {"/gorank.v1.RatingService/GetRatingHistory", "PNAU"},
      {"/gorank.v1.RatingService/ListRatings", "PNAU"},
      {"/gorank.v1.RatingService/ListRatingSnapshots", "PNAU"},
      {"/gorank.v1.RatingService/RecomputeRatings", "N"},
      {"/gorank.v1.RatingService/ImportRatings", "N"},
      {"/gorank.v1.RatingService/ListPromotionRules", "PNAU"},
      {"/gorank.v1.RatingService/ExplainPromotion", "PNAU"},
      {"/gorank.v1.RatingService/EvaluatePromotions", "NA"},
      {"/gorank.v1.RatingService/ListProposals", "NAU"},
      {"/gorank.v1.RatingService/DecidePromotion", "NA"},
  };
  return *kRows;
}

enum class CallerKind {
  kPublic,
  kNational,
  kOperator,
  kAuditor,
  kRevoked,
  kGarbage,
  kMalformed
};

const char* KindName(CallerKind k) {
  switch (k) {
    case CallerKind::kPublic:
      return "Public";
    case CallerKind::kNational:
      return "National";
    case CallerKind::kOperator:
      return "Operator";
    case CallerKind::kAuditor:
      return "Auditor";
    case CallerKind::kRevoked:
      return "RevokedToken";
    case CallerKind::kGarbage:
      return "GarbageToken";
    case CallerKind::kMalformed:
      return "MalformedHeader";
  }
  return "?";
}

char RoleLetter(auth::Role r) {
  switch (r) {
    case auth::Role::kPublic:
      return 'P';
    case auth::Role::kNationalAdmin:
      return 'N';
    case auth::Role::kAgencyOperator:
      return 'A';
    case auth::Role::kAuditor:
      return 'U';
  }
  return '?';
}

enum class Outcome { kAllowed, kPermissionDenied, kUnauthenticated };

Outcome Expected(const std::string& roles, CallerKind k) {
  switch (k) {
    case CallerKind::kRevoked:
    case CallerKind::kGarbage:
    case CallerKind::kMalformed:
      return Outcome::kUnauthenticated;  // bad credentials, even where public
    case CallerKind::kPublic:
      return roles.find('P') != std::string::npos ? Outcome::kAllowed
                                                  : Outcome::kUnauthenticated;
    case CallerKind::kNational:
      return roles.find('N') != std::string::npos ? Outcome::kAllowed
                                                  : Outcome::kPermissionDenied;
    case CallerKind::kOperator:
      return roles.find('A') != std::string::npos ? Outcome::kAllowed
                                                  : Outcome::kPermissionDenied;
    case CallerKind::kAuditor:
      return roles.find('U') != std::string::npos ? Outcome::kAllowed
                                                  : Outcome::kPermissionDenied;
  }
  return Outcome::kAllowed;
}

// True for a client- or server-streaming method of a gorank.v1 service.
bool IsStreaming(const std::string& method) {
  const size_t slash = method.rfind('/');
  const auto* svc =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          method.substr(1, slash - 1));
  if (svc == nullptr) return false;
  const auto* m = svc->FindMethodByName(method.substr(slash + 1));
  return m != nullptr && (m->client_streaming() || m->server_streaming());
}

// The request each RPC is called with: the default message, except where an
// agency operator would otherwise be refused by the domain's scope rules
// (its own agency must be named), which is not what this test is about.
std::string RequestFor(const std::string& method) {
  if (method == "/gorank.v1.CertificateService/GetStock") {
    v1::GetStockRequest r;
    r.set_agency_prefix("110");
    r.set_year(2025);
    return r.SerializeAsString();
  }
  if (method == "/gorank.v1.CertificateService/ExportHolders") {
    v1::ExportHoldersRequest r;
    r.set_agency_prefix("110");
    return r.SerializeAsString();
  }
  return "";
}

// Calls `method` with RequestFor(method), unary or streaming (one request
// message, responses drained): the access check runs before the request is
// looked at, so its answer is what counts here.
grpc::Status CallWithEmptyRequest(const std::shared_ptr<grpc::Channel>& channel,
                                  const std::string& method,
                                  grpc::ClientContext* ctx) {
  grpc::GenericStub stub(channel);
  grpc::Slice bytes(RequestFor(method));
  grpc::ByteBuffer request(&bytes, 1);
  if (!IsStreaming(method)) {
    grpc::ByteBuffer response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(ctx, method, grpc::StubOptions(), &request, &response,
                   [&done](grpc::Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }
  grpc::CompletionQueue cq;
  auto call = stub.PrepareCall(ctx, method, &cq);
  void* tag = nullptr;
  bool ok = false;
  auto wait = [&] { return cq.Next(&tag, &ok); };
  call->StartCall(reinterpret_cast<void*>(1));
  wait();
  if (ok) {
    call->Write(request, reinterpret_cast<void*>(4));
    wait();
    call->WritesDone(reinterpret_cast<void*>(2));
    wait();
    grpc::ByteBuffer response;
    do {
      call->Read(&response, reinterpret_cast<void*>(5));
      wait();
    } while (ok);
  }
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(3));
  while (wait() && tag != reinterpret_cast<void*>(3)) {
  }
  cq.Shutdown();
  while (wait()) {
  }
  return status;
}

class AccessMatrixTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { server_ = new testing::InProcessServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static std::unique_ptr<grpc::ClientContext> ContextFor(CallerKind k) {
    switch (k) {
      case CallerKind::kPublic:
        return testing::InProcessServer::Context("");
      case CallerKind::kNational:
        return testing::InProcessServer::Context(server_->admin);
      case CallerKind::kOperator:
        return testing::InProcessServer::Context(server_->op110);
      case CallerKind::kAuditor:
        return testing::InProcessServer::Context(server_->auditor);
      case CallerKind::kRevoked:
        return testing::InProcessServer::Context(server_->revoked);
      case CallerKind::kGarbage:
        return testing::InProcessServer::Context("rkd_not_a_token");
      case CallerKind::kMalformed:
        return testing::InProcessServer::RawContext("Basic dXNlcjpwdw==");
    }
    return nullptr;
  }

  static grpc::Status Call(const std::string& method, CallerKind k) {
    auto ctx = ContextFor(k);
    return CallWithEmptyRequest(server_->channel(), method, ctx.get());
  }

  static testing::InProcessServer* server_;
};

testing::InProcessServer* AccessMatrixTest::server_ = nullptr;

constexpr CallerKind kAllCallers[] = {
    CallerKind::kPublic,   CallerKind::kNational, CallerKind::kOperator,
    CallerKind::kAuditor,  CallerKind::kRevoked,  CallerKind::kGarbage,
    CallerKind::kMalformed};

// One test per RPC (so ctest lists each), every kind of caller inside it.
TEST_P(AccessMatrixTest, AnswersAsTheTablePromises) {
  const std::string& method = GetParam();
  auto row = ExpectedRoles().find(method);
  ASSERT_NE(row, ExpectedRoles().end())
      << method
      << " is in auth::AccessTable() but has no row in this test: add "
      << "its expected roles to ExpectedRoles()";
  for (CallerKind caller : kAllCallers) {
    SCOPED_TRACE(KindName(caller));
    const grpc::Status s = Call(method, caller);
    switch (Expected(row->second, caller)) {
      case Outcome::kAllowed:
        EXPECT_NE(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
            << s.error_message();
        EXPECT_NE(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << s.error_message();
        EXPECT_NE(s.error_code(), grpc::StatusCode::UNIMPLEMENTED)
            << method << " is in the access table but not served";
        break;
      case Outcome::kPermissionDenied:
        EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << s.error_message();
        break;
      case Outcome::kUnauthenticated:
        EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
            << s.error_message();
        break;
    }
  }
}

std::vector<std::string> AllMethods() {
  std::vector<std::string> out;
  for (const auth::MethodPolicy& p : auth::AccessTable())
    out.push_back(p.method);
  return out;
}

INSTANTIATE_TEST_SUITE_P(EveryRpc, AccessMatrixTest,
                         ::testing::ValuesIn(AllMethods()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name =
                               info.param.substr(info.param.find('.') + 1);
                           for (char& ch : name) {
                             if (ch == '/' || ch == '.') ch = '_';
                           }
                           return name;
                         });

TEST(AccessTableTest, RowsHereMatchTheServersTable) {
  std::set<std::string> in_table;
  for (const auth::MethodPolicy& p : auth::AccessTable()) {
    in_table.insert(p.method);
    auto row = ExpectedRoles().find(p.method);
    if (row == ExpectedRoles().end()) {
      ADD_FAILURE() << "no row here for " << p.method;
      continue;
    }
    std::string roles;
    for (auth::Role r : p.roles) roles.push_back(RoleLetter(r));
    std::sort(roles.begin(), roles.end());
    std::string expected = row->second;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(roles, expected) << p.method << ": the access table changed";
  }
  for (const auto& [method, roles] : ExpectedRoles()) {
    EXPECT_EQ(in_table.count(method), 1u)
        << method << " vanished from the access table";
  }
}

// Every method the server actually serves (answers with anything but
// UNIMPLEMENTED) must be in the access table: a served RPC without a row
// would fail with INTERNAL for everyone.
TEST(AccessTableTest, EveryServedMethodHasARow) {
  testing::InProcessServer server;
  std::set<std::string> in_table;
  for (const auth::MethodPolicy& p : auth::AccessTable())
    in_table.insert(p.method);
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  int probed = 0;
  for (const char* file :
       {"gorank/v1/registry.proto", "gorank/v1/certificates.proto",
        "gorank/v1/rules.proto", "gorank/v1/ratings.proto",
        "gorank/v1/tournaments.proto", "gorank/v1/eligibility.proto",
        "gorank/v1/audit.proto"}) {
    const google::protobuf::FileDescriptor* fd = pool->FindFileByName(file);
    if (fd == nullptr) continue;  // not compiled into gorank_proto
    for (int i = 0; i < fd->service_count(); ++i) {
      const google::protobuf::ServiceDescriptor* svc = fd->service(i);
      for (int j = 0; j < svc->method_count(); ++j) {
        const auto* m = svc->method(j);
        const std::string name = "/" + svc->full_name() + "/" + m->name();
        auto ctx = testing::InProcessServer::Context(server.admin);
        const grpc::Status s =
            CallWithEmptyRequest(server.channel(), name, ctx.get());
        ++probed;
        if (s.error_code() != grpc::StatusCode::UNIMPLEMENTED) {
          EXPECT_EQ(in_table.count(name), 1u)
              << name << " is served but not in auth::AccessTable()";
          EXPECT_NE(s.error_code(), grpc::StatusCode::INTERNAL) << name;
        } else {
          EXPECT_EQ(in_table.count(name), 0u)
              << name << " is in the table but not served";
        }
      }
    }
  }
  EXPECT_GE(probed, 15);
}

}  // namespace
}  // namespace gorank::integration
