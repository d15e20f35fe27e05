#include "services/common/grpc_status.h"

#include <atomic>
#include <string>

#include "spdlog/spdlog.h"

namespace gorank {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const auto code = static_cast<grpc::StatusCode>(status.code());
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
    case absl::StatusCode::kDataLoss: {
      static std::atomic<int64_t> incidents{0};
      const int64_t id = ++incidents;
      spdlog::error("incident {}: {}", id, status.ToString());
      return grpc::Status(code, "internal error (incident " +
                                    std::to_string(id) +
                                    " in the server log)");
    }
    default:
      return grpc::Status(code, message);
  }
}

}  // namespace gorank
