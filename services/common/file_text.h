// Reading a whole small file (a key, a certificate, a config, a checkpoint)
// into a string, with the error message every caller gives.
#ifndef GORANK_SERVICES_COMMON_FILE_TEXT_H_
#define GORANK_SERVICES_COMMON_FILE_TEXT_H_

#include <string>

#include "absl/status/statusor.h"

namespace gorank {

// The bytes of `path`. NOT_FOUND "cannot read <what> <path>" (or "cannot
// read <path>" when `what` is empty) when it cannot be opened. Thread-safe.
absl::StatusOr<std::string> ReadTextFile(const std::string& what,
                                         const std::string& path);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_FILE_TEXT_H_
