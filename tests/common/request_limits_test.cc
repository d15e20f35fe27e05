// The request limits table (services/common/request_limits.h) on the real
// request messages, the error-message cut (grpc_status.h), input excerpts
// (excerpt.h) and the client-certificate names of mutual TLS
// (services/auth/call_gate.h).
#include "services/common/request_limits.h"

#include <climits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/descriptor_database.h"
#include "google/protobuf/dynamic_message.h"
#include "gorank/v1/audit.pb.h"
#include "gorank/v1/certificates.pb.h"
#include "gorank/v1/eligibility.pb.h"
#include "gorank/v1/ratings.pb.h"
#include "gorank/v1/registry.pb.h"
#include "gorank/v1/rules.pb.h"
#include "gorank/v1/tournaments.pb.h"
#include "gtest/gtest.h"
#include "services/auth/call_gate.h"
#include "services/common/excerpt.h"
#include "services/common/grpc_status.h"

namespace gorank {
namespace {

namespace gpb = google::protobuf;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(RequestLimitsTest, FreeTextAtItsLimitPassesAndOneByteMoreIsRefused) {
  v1::LodgeObjectionRequest r;
  r.set_number("110240001");
  r.set_text(std::string(4000, 'x'));
  EXPECT_TRUE(CheckRequestLimits(r).ok());
  r.set_text(std::string(3 << 20, 'x'));
  const absl::Status s = CheckRequestLimits(r);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Message(s), "text is 3145728 bytes; the limit is 4000 bytes");
}

// A message type no table entry names: the defaults of every type apply.
TEST(RequestLimitsTest, FieldsWithoutAnEntryGetTheDefaultsOfTheirType) {
  gpb::FileDescriptorProto file;
  file.set_name("probe.proto");
  file.set_package("probe");
  file.set_syntax("proto3");
  gpb::DescriptorProto* msg = file.add_message_type();
  msg->set_name("Probe");
  auto add = [&](const char* name, int number,
                 gpb::FieldDescriptorProto::Type type, bool rep) {
    gpb::FieldDescriptorProto* f = msg->add_field();
    f->set_name(name);
    f->set_number(number);
    f->set_type(type);
    f->set_label(rep ? gpb::FieldDescriptorProto::LABEL_REPEATED
                     : gpb::FieldDescriptorProto::LABEL_OPTIONAL);
  };
  add("free_text", 1, gpb::FieldDescriptorProto::TYPE_STRING, false);
  add("small", 2, gpb::FieldDescriptorProto::TYPE_INT32, false);
  add("big", 3, gpb::FieldDescriptorProto::TYPE_INT64, false);
  add("many", 4, gpb::FieldDescriptorProto::TYPE_BOOL, true);
  gpb::DescriptorPool pool;
  const gpb::FileDescriptor* built = pool.BuildFile(file);
  ASSERT_NE(built, nullptr);
  gpb::DynamicMessageFactory factory(&pool);
  const gpb::Descriptor* d = built->message_type(0);
  std::unique_ptr<gpb::Message> m(factory.GetPrototype(d)->New());
  const gpb::Reflection* r = m->GetReflection();
  r->SetString(m.get(), d->FindFieldByName("free_text"),
               std::string(kDefaultMaxStringBytes, 'x'));
  r->SetInt32(m.get(), d->FindFieldByName("small"), -kDefaultInt32Bound);
  r->SetInt64(m.get(), d->FindFieldByName("big"), kDefaultInt64Bound);
  for (int i = 0; i < kDefaultMaxItems; ++i)
    r->AddBool(m.get(), d->FindFieldByName("many"), true);
  EXPECT_TRUE(CheckRequestLimits(*m).ok()) << CheckRequestLimits(*m);
  r->SetString(m.get(), d->FindFieldByName("free_text"), std::string(257, 'x'));
  EXPECT_EQ(Message(CheckRequestLimits(*m)),
            "free_text is 257 bytes; the limit is 256 bytes");
  r->ClearField(m.get(), d->FindFieldByName("free_text"));
  r->SetInt32(m.get(), d->FindFieldByName("small"), -kDefaultInt32Bound - 1);
  EXPECT_EQ(Message(CheckRequestLimits(*m)),
            "small is -1000001; the allowed range is -1000000..1000000");
  r->ClearField(m.get(), d->FindFieldByName("small"));
  r->SetInt64(m.get(), d->FindFieldByName("big"), INT64_MAX);
  EXPECT_EQ(CheckRequestLimits(*m).code(), absl::StatusCode::kInvalidArgument);
  r->ClearField(m.get(), d->FindFieldByName("big"));
  r->AddBool(m.get(), d->FindFieldByName("many"), true);
  EXPECT_EQ(Message(CheckRequestLimits(*m)),
            "many has 1001 items; the limit is 1000");
}

TEST(RequestLimitsTest, NestedAndRepeatedFieldsAreNamedByTheirPath) {
  v1::SaveResultsRequest r;
  for (int i = 0; i < 4; ++i)
    r.mutable_results()->add_games()->set_round(i + 1);
  EXPECT_TRUE(CheckRequestLimits(r).ok());
  r.mutable_results()->mutable_games(3)->set_round(INT32_MAX);
  EXPECT_EQ(
      Message(CheckRequestLimits(r)),
      "results.games[3].round is 2147483647; the allowed range is 0..10000");
  r.mutable_results()->mutable_games(3)->set_round(2);
  r.mutable_results()->add_entrants()->set_family_name(std::string(121, 'f'));
  EXPECT_EQ(
      Message(CheckRequestLimits(r)),
      "results.entrants[0].family_name is 121 bytes; the limit is 120 bytes");
}

TEST(RequestLimitsTest, AbsurdNumbersAreRefused) {
  v1::CreateEventRequest e;
  e.mutable_event()->mutable_rules()->set_komi_x2(INT32_MIN);
  EXPECT_EQ(
      Message(CheckRequestLimits(e)),
      "event.rules.komi_x2 is -2147483648; the allowed range is -2000..2000");
  e.mutable_event()->mutable_rules()->set_komi_x2(15);
  e.mutable_event()->mutable_format()->set_boards(INT32_MAX);
  EXPECT_NE(
      Message(CheckRequestLimits(e)).find("event.format.boards is 2147483647"),
      std::string::npos);
  v1::GetPlayerRequest g;
  g.set_player_id(INT64_MAX);
  EXPECT_EQ(CheckRequestLimits(g).code(), absl::StatusCode::kInvalidArgument);
  g.set_player_id(12345);
  EXPECT_TRUE(CheckRequestLimits(g).ok());
}

TEST(RequestLimitsTest, TooManyItemsAreRefusedBeforeTheirContents) {
  v1::RecordRoundRequest r;
  for (int i = 0; i < 10001; ++i) r.add_byes();
  EXPECT_EQ(Message(CheckRequestLimits(r)),
            "byes has 10001 items; the limit is 10000");
}

TEST(RequestLimitsTest, InvalidUtf8AndUndeclaredEnumValuesAreRefused) {
  v1::VerifyCertificateRequest v;
  v.set_number("11024\xC3\x28");
  EXPECT_EQ(Message(CheckRequestLimits(v)), "number is not valid UTF-8 text");
  v1::CheckGameRecordRequest c;
  c.set_sgf("(;GM[1]\xFF\xFE)");  // bytes: any byte is fine
  EXPECT_TRUE(CheckRequestLimits(c).ok());
  c.mutable_options()->set_ruleset(static_cast<v1::Ruleset>(42));
  EXPECT_EQ(Message(CheckRequestLimits(c)),
            "options.ruleset is 42, not a value of gorank.v1.Ruleset");
}

// Every field of every request message of every gorank.v1 service has a
// limit whose integer range holds 0 (proto3's unset value, never checked).
TEST(RequestLimitsTest, EveryRequestFieldHasASaneLimit) {
  // Link every generated file into this binary (a static library's objects
  // come only when referenced).
  for (const gpb::Descriptor* d : {v1::GetCheckpointRequest::descriptor(),
                                   v1::EvaluatePlayerRequest::descriptor(),
                                   v1::GetRatingRequest::descriptor(),
                                   v1::GetEventRequest::descriptor()}) {
    ASSERT_NE(d, nullptr);
  }
  std::vector<std::string> files;
  ASSERT_TRUE(
      gpb::DescriptorPool::internal_generated_database()->FindAllFileNames(
          &files));
  std::set<const gpb::Descriptor*> seen;
  std::vector<const gpb::Descriptor*> todo;
  for (const std::string& name : files) {
    if (name.rfind("gorank/v1/", 0) != 0) continue;
    const gpb::FileDescriptor* file =
        gpb::DescriptorPool::generated_pool()->FindFileByName(name);
    ASSERT_NE(file, nullptr) << name;
    for (int s = 0; s < file->service_count(); ++s) {
      for (int m = 0; m < file->service(s)->method_count(); ++m) {
        todo.push_back(file->service(s)->method(m)->input_type());
      }
    }
  }
  ASSERT_GE(todo.size(), 60u);
  int fields = 0;
  while (!todo.empty()) {
    const gpb::Descriptor* d = todo.back();
    todo.pop_back();
    if (!seen.insert(d).second) continue;
    for (int i = 0; i < d->field_count(); ++i) {
      const gpb::FieldDescriptor* f = d->field(i);
      ++fields;
      const FieldLimit l = LimitOf(*f);
      EXPECT_LE(l.min, 0) << f->full_name();
      EXPECT_GE(l.max, 0) << f->full_name();
      EXPECT_GT(l.max_bytes, 0) << f->full_name();
      EXPECT_GT(l.max_items, 0) << f->full_name();
      EXPECT_LE(l.max_bytes, 4 << 20) << f->full_name();
      EXPECT_FALSE(DescribeLimit(*f).empty() &&
                   f->cpp_type() != gpb::FieldDescriptor::CPPTYPE_MESSAGE &&
                   f->cpp_type() != gpb::FieldDescriptor::CPPTYPE_BOOL)
          << f->full_name();
      if (f->message_type() != nullptr) todo.push_back(f->message_type());
    }
  }
  EXPECT_GT(fields, 200);
}

TEST(ErrorMessageTest, LongMessagesAreCutAtACharacterBoundary) {
  EXPECT_EQ(ShortenMessage("short"), "short");
  const std::string han = "段";  // 3 bytes
  std::string long_text;
  for (int i = 0; i < 1000; ++i) long_text += han;
  const std::string cut = ShortenMessage(long_text, 100);
  EXPECT_LE(cut.size(), 100u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
  EXPECT_EQ((cut.size() - 3) % 3, 0u) << "cut inside a character";
  const grpc::Status s =
      ToGrpcStatus(absl::InvalidArgumentError(std::string(1 << 20, 'x')));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LE(s.error_message().size(), kMaxErrorMessageBytes);
}

TEST(ErrorMessageTest, ExcerptsQuoteAFewBytesAndTheLength) {
  EXPECT_EQ(QuotedExcerpt("5k"), "'5k'");
  EXPECT_EQ(QuotedExcerpt(std::string(100000, 'k')),
            "'" + std::string(kExcerptBytes, 'k') + "...' (100000 bytes)");
  EXPECT_EQ(QuotedExcerpt("业余三段", 4), "'业...' (12 bytes)");
}

TEST(CertificateNameTest, EachRoleHasItsName) {
  auth::Caller admin{auth::Role::kNationalAdmin, "", 1};
  auth::Caller op{auth::Role::kAgencyOperator, "110", 2};
  auth::Caller auditor{auth::Role::kAuditor, "", 3};
  EXPECT_EQ(ExpectedCertificateName(admin), "national-admin");
  EXPECT_EQ(ExpectedCertificateName(op), "agency-110");
  EXPECT_TRUE(CertificateMatches(admin, "national-admin"));
  EXPECT_FALSE(CertificateMatches(admin, "agency-110"));
  EXPECT_TRUE(CertificateMatches(op, "agency-110"));
  EXPECT_FALSE(CertificateMatches(op, "agency-130"));
  EXPECT_FALSE(CertificateMatches(op, "agency-1100"));
  EXPECT_FALSE(CertificateMatches(op, "national-admin"));
  EXPECT_TRUE(CertificateMatches(auditor, "auditor"));
  EXPECT_TRUE(CertificateMatches(auditor, "auditor-2026"));
  EXPECT_FALSE(CertificateMatches(auditor, "auditors"));
  EXPECT_FALSE(CertificateMatches(auditor, "national-admin"));
  EXPECT_FALSE(CertificateMatches(auth::Caller::Public(), ""));
}

}  // namespace
}  // namespace gorank
