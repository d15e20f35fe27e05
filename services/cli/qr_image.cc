#include "services/cli/qr_image.h"

#include <png.h>
#include <sys/stat.h>
#include <zbar.h>

#include <cstring>
#include <memory>

namespace gorank::cli {

// zbar.h declares its C API inside namespace zbar when compiled as C++.
using namespace zbar;  // NOLINT(build/namespaces)

absl::StatusOr<std::vector<std::string>> ReadQrCodes(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return absl::NotFoundError("cannot read " + path + ": " +
                               std::strerror(errno));
  }
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) {
    return absl::InvalidArgumentError(path + " is not a PNG image (" +
                                      png.message + ")");
  }
  png.format = PNG_FORMAT_GRAY;
  const size_t size = PNG_IMAGE_SIZE(png);
  // zbar takes the buffer (free()d by zbar_image_free_data).
  auto* gray = static_cast<unsigned char*>(std::malloc(size));
  if (gray == nullptr) {
    png_image_free(&png);
    return absl::ResourceExhaustedError("no memory for " + path);
  }
  // A transparent picture is read as if on white paper (a code drawn on
  // transparency has its light modules transparent).
  png_color white;
  white.red = white.green = white.blue = 255;
  if (!png_image_finish_read(&png, &white, gray, 0, nullptr)) {
    std::free(gray);
    return absl::InvalidArgumentError("cannot decode " + path + " (" +
                                      png.message + ")");
  }
  std::unique_ptr<zbar_image_scanner_t, void (*)(zbar_image_scanner_t*)>
      scanner(zbar_image_scanner_create(), zbar_image_scanner_destroy);
  zbar_image_scanner_set_config(scanner.get(), ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
  zbar_image_scanner_set_config(scanner.get(), ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
  std::unique_ptr<zbar_image_t, void (*)(zbar_image_t*)> image(
      zbar_image_create(), zbar_image_destroy);
  zbar_image_set_format(image.get(), zbar_fourcc('Y', '8', '0', '0'));
  zbar_image_set_size(image.get(), png.width, png.height);
  zbar_image_set_data(image.get(), gray, size, zbar_image_free_data);
  std::vector<std::string> texts;
  if (zbar_scan_image(scanner.get(), image.get()) > 0) {
    for (const zbar_symbol_t* s = zbar_image_first_symbol(image.get());
         s != nullptr; s = zbar_symbol_next(s)) {
      if (zbar_symbol_get_type(s) != ZBAR_QRCODE) continue;
      texts.emplace_back(zbar_symbol_get_data(s),
                         zbar_symbol_get_data_length(s));
    }
  }
  if (texts.empty()) {
    return absl::InvalidArgumentError("no QR code found in " + path);
  }
  return texts;
}

}  // namespace gorank::cli
