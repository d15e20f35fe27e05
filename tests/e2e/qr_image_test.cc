// Reading QR codes from PNG pictures (services/cli/qr_image.h): pictures
// drawn in the test from libqrencode's matrix (certificate_printable's
// QrMatrix) and written with libpng, in gray, in colour and with the light
// modules transparent; two codes in one picture; a picture with no code, a
// file that is not a PNG and a missing file.
#include "services/cli/qr_image.h"

#include <png.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/certificates/printable/qr_matrix.h"
#include "tests/testing/temp_dir.h"

namespace gorank::cli {
namespace {

using certificates::printable::QrMatrix;

constexpr int kModule = 4;  // pixels a module
constexpr int kQuiet = 4;   // light modules around a code

// A picture `width` x `height` in `format` (PNG_FORMAT_GRAY, _RGB, _GA or
// _RGBA), all light, on which codes are drawn.
struct Picture {
  int width, height;
  png_uint_32 format;
  std::vector<unsigned char> pixels;

  Picture(int w, int h, png_uint_32 f) : width(w), height(h), format(f) {
    pixels.assign(static_cast<size_t>(w) * h * Channels(), 255);
    if (f & PNG_FORMAT_FLAG_ALPHA) {
      // Light is transparent black: only compositing on white makes it light.
      for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = 0;
    }
  }
  int Channels() const { return PNG_IMAGE_SAMPLE_CHANNELS(format); }

  void Dark(int x, int y) {
    unsigned char* p =
        &pixels[(static_cast<size_t>(y) * width + x) * Channels()];
    for (int c = 0; c < Channels(); ++c) p[c] = 0;
    if (format & PNG_FORMAT_FLAG_ALPHA) p[Channels() - 1] = 255;
  }

  // Draws the code of `text` with its top left quiet zone at (x0, y0).
  void Draw(const std::string& text, int x0, int y0) {
    absl::StatusOr<QrMatrix> qr = QrMatrix::Encode(text);
    ASSERT_TRUE(qr.ok()) << qr.status();
    for (int y = 0; y < qr->size(); ++y) {
      for (int x = 0; x < qr->size(); ++x) {
        if (!qr->dark(x, y)) continue;
        for (int dy = 0; dy < kModule; ++dy) {
          for (int dx = 0; dx < kModule; ++dx) {
            Dark(x0 + (kQuiet + x) * kModule + dx,
                 y0 + (kQuiet + y) * kModule + dy);
          }
        }
      }
    }
  }

  void Write(const std::string& path) {
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    png.width = width;
    png.height = height;
    png.format = format;
    ASSERT_TRUE(png_image_write_to_file(&png, path.c_str(), 0, pixels.data(), 0,
                                        nullptr))
        << png.message;
  }
};

// Side of a drawn code with its quiet zone, in pixels.
int Side(const std::string& text) {
  return (QrMatrix::Encode(text)->size() + 2 * kQuiet) * kModule;
}

const std::string kUrl =
    "https://rank.example.org/verify?number=110250001&s=GR1.MTEwMjUwMDAxfGdv"
    "fDNkfDIwMjUtMTItMTB8MTEwfA.c2lnbmF0dXJl";

class QrImageTest : public ::testing::Test {
 protected:
  testing::TempDir dir_;
};

TEST_F(QrImageTest, ReadsTheCodeInGrayColourAndTransparentPictures) {
  for (const auto& [name, format] : {std::pair{"gray", PNG_FORMAT_GRAY},
                                     {"rgb", PNG_FORMAT_RGB},
                                     {"gray-alpha", PNG_FORMAT_GA},
                                     {"rgba", PNG_FORMAT_RGBA}}) {
    const int side = Side(kUrl);
    Picture pic(side + 40, side + 60, format);
    ASSERT_NO_FATAL_FAILURE(pic.Draw(kUrl, 20, 30));
    const std::string path = dir_.File(std::string(name) + ".png");
    ASSERT_NO_FATAL_FAILURE(pic.Write(path));
    absl::StatusOr<std::vector<std::string>> codes = ReadQrCodes(path);
    ASSERT_TRUE(codes.ok()) << name << ": " << codes.status();
    ASSERT_EQ(codes->size(), 1u) << name;
    EXPECT_EQ((*codes)[0], kUrl) << name;
  }
}

TEST_F(QrImageTest, ReadsEveryCodeInThePicture) {
  const std::string other = "GR1.second.code";
  const int a = Side(kUrl), b = Side(other);
  Picture pic(a + b, std::max(a, b), PNG_FORMAT_GRAY);
  ASSERT_NO_FATAL_FAILURE(pic.Draw(kUrl, 0, 0));
  ASSERT_NO_FATAL_FAILURE(pic.Draw(other, a, 0));
  const std::string path = dir_.File("two.png");
  ASSERT_NO_FATAL_FAILURE(pic.Write(path));
  absl::StatusOr<std::vector<std::string>> codes = ReadQrCodes(path);
  ASSERT_TRUE(codes.ok()) << codes.status();
  EXPECT_EQ(codes->size(), 2u);
  EXPECT_NE(std::find(codes->begin(), codes->end(), kUrl), codes->end());
  EXPECT_NE(std::find(codes->begin(), codes->end(), other), codes->end());
}

TEST_F(QrImageTest, PictureWithoutACodeIsInvalidArgument) {
  Picture pic(300, 200, PNG_FORMAT_RGB);
  for (int x = 20; x < 280; ++x) pic.Dark(x, 100);  // a line, no code
  const std::string path = dir_.File("blank.png");
  ASSERT_NO_FATAL_FAILURE(pic.Write(path));
  absl::StatusOr<std::vector<std::string>> codes = ReadQrCodes(path);
  EXPECT_EQ(codes.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(codes.status().message().find("no QR code"), std::string::npos)
      << codes.status();
  EXPECT_NE(codes.status().message().find(path), std::string::npos);
}

TEST_F(QrImageTest, NotAPngIsInvalidArgumentAndAMissingFileNotFound) {
  const std::string text = dir_.File("statement.png");
  std::ofstream(text) << "GR1.not.a.picture\n";
  absl::StatusOr<std::vector<std::string>> codes = ReadQrCodes(text);
  EXPECT_EQ(codes.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(codes.status().message().find("not a PNG"), std::string::npos)
      << codes.status();

  // A PNG cut short after its header.
  Picture pic(Side(kUrl), Side(kUrl), PNG_FORMAT_GRAY);
  ASSERT_NO_FATAL_FAILURE(pic.Draw(kUrl, 0, 0));
  const std::string whole = dir_.File("whole.png");
  ASSERT_NO_FATAL_FAILURE(pic.Write(whole));
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  const std::string cut = dir_.File("cut.png");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, 60);
  codes = ReadQrCodes(cut);
  EXPECT_EQ(codes.status().code(), absl::StatusCode::kInvalidArgument)
      << codes.status();

  codes = ReadQrCodes(dir_.File("missing.png"));
  EXPECT_EQ(codes.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(codes.status().message().find("missing.png"), std::string::npos);
}

}  // namespace
}  // namespace gorank::cli
