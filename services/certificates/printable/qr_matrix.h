// A QR code as a square matrix of dark and light modules (libqrencode,
// error correction level M, byte mode), for drawing as filled squares.
#ifndef GORANK_SERVICES_CERTIFICATES_PRINTABLE_QR_MATRIX_H_
#define GORANK_SERVICES_CERTIFICATES_PRINTABLE_QR_MATRIX_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::certificates::printable {

// Value type. size() modules a side (17 + 4 * version), without the quiet
// zone: whoever draws it leaves 4 light modules around it.
class QrMatrix {
 public:
  QrMatrix() = default;

  // INVALID_ARGUMENT when `text` is empty or too long for a QR code at
  // level M (about 2,300 bytes); INTERNAL when libqrencode fails otherwise.
  static absl::StatusOr<QrMatrix> Encode(const std::string& text);

  int size() const { return size_; }
  int version() const { return (size_ - 17) / 4; }
  // REQUIRES: 0 <= x, y < size(). x is the column, y the row (top first).
  bool dark(int x, int y) const {
    return dark_[static_cast<size_t>(y * size_ + x)];
  }

 private:
  int size_ = 0;
  std::vector<bool> dark_;
};

}  // namespace gorank::certificates::printable

#endif  // GORANK_SERVICES_CERTIFICATES_PRINTABLE_QR_MATRIX_H_
