#include "services/common/file_text.h"

#include <fstream>
#include <sstream>

#include "absl/status/status.h"

namespace gorank {

absl::StatusOr<std::string> ReadTextFile(const std::string& what,
                                         const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError("cannot read " +
                               (what.empty() ? "" : what + " ") + path);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace gorank
