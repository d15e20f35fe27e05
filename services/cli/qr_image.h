// Reading a QR code from a picture (rankctl cert verify-offline --image): a
// PNG file (a scan, a photo, a page rendered with pdftoppm) decoded with
// libpng and scanned with libzbar. No network, no other files.
#ifndef GORANK_SERVICES_CLI_QR_IMAGE_H_
#define GORANK_SERVICES_CLI_QR_IMAGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::cli {

// The texts of every QR code in the PNG file at `path`, top first as zbar
// finds them. NOT_FOUND when the file does not exist; INVALID_ARGUMENT when
// it is not a PNG libpng can read, or holds no QR code zbar can read.
// Thread-safe (each call has its own scanner).
absl::StatusOr<std::vector<std::string>> ReadQrCodes(const std::string& path);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_QR_IMAGE_H_
