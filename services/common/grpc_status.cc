#include "services/common/grpc_status.h"

#include <atomic>
#include <string>

#include "services/common/excerpt.h"
#include "spdlog/spdlog.h"

namespace gorank {

std::string ShortenMessage(std::string_view message, size_t max_bytes) {
  if (message.size() <= max_bytes) return std::string(message);
  constexpr std::string_view kEllipsis = "...";
  const size_t room =
      max_bytes > kEllipsis.size() ? max_bytes - kEllipsis.size() : 0;
  return std::string(Utf8Prefix(message, room)) + std::string(kEllipsis);
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const auto code = static_cast<grpc::StatusCode>(status.code());
  const std::string message = ShortenMessage(
      std::string_view(status.message().data(), status.message().size()));
  switch (status.code()) {
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
    case absl::StatusCode::kDataLoss: {
      static std::atomic<int64_t> incidents{0};
      const int64_t id = ++incidents;
      spdlog::error("incident {}: {}", id, status.ToString());
      return grpc::Status(code, "internal error (incident " +
                                    std::to_string(id) + " in the server log)");
    }
    default:
      return grpc::Status(code, message);
  }
}

}  // namespace gorank
