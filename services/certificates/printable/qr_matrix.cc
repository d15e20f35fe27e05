#include "services/certificates/printable/qr_matrix.h"

#include <qrencode.h>

#include <cerrno>
#include <memory>

namespace gorank::certificates::printable {

absl::StatusOr<QrMatrix> QrMatrix::Encode(const std::string& text) {
  if (text.empty() || text.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        "QR code text must be non-empty and without NUL bytes");
  }
  errno = 0;
  // Version 0: the smallest symbol that holds the text.
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeString8bit(text.c_str(), 0, QR_ECLEVEL_M), &QRcode_free);
  if (!code) {
    if (errno == ERANGE) {
      return absl::InvalidArgumentError("QR code text of " +
                                        std::to_string(text.size()) +
                                        " bytes is too long for one QR code");
    }
    return absl::InternalError("libqrencode failed (errno " +
                               std::to_string(errno) + ")");
  }
  QrMatrix m;
  m.size_ = code->width;
  m.dark_.resize(static_cast<size_t>(m.size_) * static_cast<size_t>(m.size_));
  for (size_t i = 0; i < m.dark_.size(); ++i) {
    m.dark_[i] = (code->data[i] & 1) != 0;  // bit 0: dark module
  }
  return m;
}

}  // namespace gorank::certificates::printable
