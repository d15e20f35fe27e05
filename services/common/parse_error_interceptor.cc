#include "services/common/parse_error_interceptor.h"

#include <mutex>
#include <string>
#include <string_view>

#include "google/protobuf/stubs/logging.h"
#include "grpcpp/support/status.h"
#include "spdlog/spdlog.h"

namespace gorank {
namespace {

namespace gpb = google::protobuf;
using grpc::experimental::InterceptionHookPoints;

// The field of the last invalid-UTF-8 parse error on this thread, until the
// interceptor takes it.
thread_local std::string last_utf8_field;

// "String field 'gorank.v1.X.y' contains invalid UTF-8 data when parsing"
// -> "gorank.v1.X.y"; empty for any other line.
std::string Utf8ParseErrorField(std::string_view message) {
  constexpr std::string_view kHead = "String field '";
  constexpr std::string_view kTail =
      "' contains invalid UTF-8 data when parsing";
  if (message.substr(0, kHead.size()) != kHead) return "";
  const size_t end = message.find(kTail, kHead.size());
  if (end == std::string_view::npos) return "";
  std::string field(message.substr(kHead.size(), end - kHead.size()));
  if (!field.empty() && field[0] == '.') field.erase(0, 1);
  return field;
}

void LogToSpdlog(gpb::LogLevel level, const char* filename, int line,
                 const std::string& message) {
  if (std::string field = Utf8ParseErrorField(message); !field.empty()) {
    spdlog::info("protobuf: refused a message with invalid UTF-8 in {}", field);
    last_utf8_field = std::move(field);
    return;
  }
  switch (level) {
    case gpb::LOGLEVEL_INFO:
      spdlog::info("protobuf {}:{}: {}", filename, line, message);
      break;
    case gpb::LOGLEVEL_WARNING:
      spdlog::warn("protobuf {}:{}: {}", filename, line, message);
      break;
    case gpb::LOGLEVEL_ERROR:
      spdlog::error("protobuf {}:{}: {}", filename, line, message);
      break;
    default:  // FATAL: protobuf aborts after the handler returns
      spdlog::critical("protobuf {}:{}: {}", filename, line, message);
      break;
  }
}

class ParseErrorInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit ParseErrorInterceptor(bool streaming) : streaming_(streaming) {}

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE)) {
      std::string field = std::move(last_utf8_field);
      last_utf8_field.clear();
      if (methods->GetRecvMessage() == nullptr) {
        // Unary: the request did not parse. Stream: it did not parse, or the
        // client finished (told apart by the captured field).
        if (!field.empty() && bad_field_.empty()) bad_field_ = std::move(field);
        if (!streaming_) unparsed_ = true;
      }
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status status = methods->GetSendStatus();
      const bool bare_internal =
          status.error_code() == grpc::StatusCode::INTERNAL &&
          status.error_message().empty();
      if (!bad_field_.empty() && (bare_internal || streaming_)) {
        methods->ModifySendStatus(grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            "field " + bad_field_ + " is not valid UTF-8 text; " +
                (streaming_
                     ? "the stream was ended at that message"
                     : "the request was not read (send text as UTF-8)")));
      } else if (unparsed_ && bare_internal) {
        methods->ModifySendStatus(grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            "the request could not be parsed as its protobuf message type"));
      }
    }
    methods->Proceed();
  }

 private:
  const bool streaming_;
  std::string bad_field_;
  bool unparsed_ = false;
};

class ParseErrorInterceptorFactory
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    using Type = grpc::experimental::ServerRpcInfo::Type;
    return new ParseErrorInterceptor(info->type() == Type::CLIENT_STREAMING ||
                                     info->type() == Type::BIDI_STREAMING);
  }
};

}  // namespace

void InstallProtobufLogHandler() {
  static std::once_flag once;
  std::call_once(once, [] { gpb::SetLogHandler(&LogToSpdlog); });
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewParseErrorInterceptorFactory() {
  InstallProtobufLogHandler();
  return std::make_unique<ParseErrorInterceptorFactory>();
}

}  // namespace gorank
