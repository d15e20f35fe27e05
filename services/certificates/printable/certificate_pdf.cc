#include "services/certificates/printable/certificate_pdf.h"

#include <hpdf.h>
#include <iconv.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <vector>

#include "services/certificates/printable/hpdf_document.h"
#include "services/common/status_macros.h"

namespace gorank::certificates::printable {
namespace {

struct Rgb {
  float r, g, b;
};
constexpr Rgb kPaper{1.0f, 0.988f, 0.953f};
constexpr Rgb kRed{0.62f, 0.08f, 0.08f};
constexpr Rgb kGold{0.72f, 0.56f, 0.22f};
constexpr Rgb kInk{0.12f, 0.10f, 0.10f};
constexpr Rgb kGrey{0.38f, 0.36f, 0.34f};
constexpr Rgb kGrid{0.95f, 0.92f, 0.84f};
constexpr Rgb kWhite{1.0f, 1.0f, 1.0f};
constexpr Rgb kBlack{0.0f, 0.0f, 0.0f};

enum class Face {
  kSong,
  kHei,
  kTimes,
  kTimesItalic,
  kHelvetica,
  kHelveticaBold
};
enum class Align { kLeft, kCenter, kRight };

bool IsChinese(Face f) { return f == Face::kSong || f == Face::kHei; }

// One certificate page: A4 landscape, origin bottom left, units of 1/72 inch.
class Renderer {
 public:
  explicit Renderer(const CertificateSheet& s) : s_(s) {}
  ~Renderer() {
    if (pdf_) HPDF_Free(pdf_);
  }
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  absl::StatusOr<std::string> Render() {
    GORANK_RETURN_IF_ERROR(Open());
    Frame();
    GORANK_RETURN_IF_ERROR(Heading());
    GORANK_RETURN_IF_ERROR(Body());
    GORANK_RETURN_IF_ERROR(Fields());
    GORANK_RETURN_IF_ERROR(QrBlock());
    return Save();
  }

 private:
  absl::Status Failed(const std::string& where) const {
    return HpdfFailure(error_, where);
  }

  absl::Status Open() {
    pdf_ = HPDF_New(&OnHpdfError, &error_);
    if (!pdf_)
      return absl::InternalError("libharu could not create a document");
    HPDF_SetCompressionMode(pdf_, HPDF_COMP_ALL);
    HPDF_UseCNSFonts(pdf_);
    HPDF_UseCNSEncodings(pdf_);
    HPDF_SetInfoAttr(pdf_, HPDF_INFO_TITLE,
                     ("Certificate " + s_.number).c_str());
    HPDF_SetInfoAttr(pdf_, HPDF_INFO_CREATOR, "rankctl cert print");
    fonts_[0] = HPDF_GetFont(pdf_, "SimSun", "GBK-EUC-H");
    fonts_[1] = HPDF_GetFont(pdf_, "SimHei", "GBK-EUC-H");
    fonts_[2] = HPDF_GetFont(pdf_, "Times-Roman", "WinAnsiEncoding");
    fonts_[3] = HPDF_GetFont(pdf_, "Times-Italic", "WinAnsiEncoding");
    fonts_[4] = HPDF_GetFont(pdf_, "Helvetica", "WinAnsiEncoding");
    fonts_[5] = HPDF_GetFont(pdf_, "Helvetica-Bold", "WinAnsiEncoding");
    page_ = HPDF_AddPage(pdf_);
    if (page_) HPDF_Page_SetSize(page_, HPDF_PAGE_SIZE_A4, HPDF_PAGE_LANDSCAPE);
    if (error_.error_no != 0 || !page_)
      return Failed("setting up the page and fonts");
    width_ = HPDF_Page_GetWidth(page_);
    height_ = HPDF_Page_GetHeight(page_);
    return absl::OkStatus();
  }

  void Fill(Rgb c) { HPDF_Page_SetRGBFill(page_, c.r, c.g, c.b); }
  void Stroke(Rgb c, float w) {
    HPDF_Page_SetRGBStroke(page_, c.r, c.g, c.b);
    HPDF_Page_SetLineWidth(page_, w);
  }
  void Box(float inset, Rgb c, float w) {
    Stroke(c, w);
    HPDF_Page_Rectangle(page_, inset, inset, width_ - 2 * inset,
                        height_ - 2 * inset);
    HPDF_Page_Stroke(page_);
  }

  // A faint board of `lines` lines (19: Go, 15: Gomoku) with its star points,
  // centred behind the text.
  void Board(int lines) {
    const float grid = 330, step = grid / static_cast<float>(lines - 1);
    const float x0 = (width_ - grid) / 2, y0 = 150;
    Stroke(kGrid, 0.8f);
    for (int i = 0; i < lines; ++i) {
      HPDF_Page_MoveTo(page_, x0 + i * step, y0);
      HPDF_Page_LineTo(page_, x0 + i * step, y0 + grid);
      HPDF_Page_MoveTo(page_, x0, y0 + i * step);
      HPDF_Page_LineTo(page_, x0 + grid, y0 + i * step);
    }
    HPDF_Page_Stroke(page_);
    Fill(kGrid);
    const int a = 3, b = lines / 2, c = lines - 4;
    const int stars[][2] = {{a, a}, {a, c}, {c, a}, {c, c}, {b, b},
                            {a, b}, {b, a}, {c, b}, {b, c}};
    for (int k = 0; k < (lines == 19 ? 9 : 5); ++k) {
      HPDF_Page_Circle(page_, x0 + stars[k][0] * step, y0 + stars[k][1] * step,
                       2.2f);
    }
    HPDF_Page_Fill(page_);
  }

  // Paper, a faint board behind the text, a red and a gold frame, and
  // gold corner squares.
  void Frame() {
    Fill(kPaper);
    HPDF_Page_Rectangle(page_, 0, 0, width_, height_);
    HPDF_Page_Fill(page_);
    Board(s_.gomoku ? 15 : 19);
    Box(20, kRed, 5);
    Box(30, kGold, 1.2f);
    Box(34, kGold, 0.5f);
    Fill(kGold);
    for (float x : {24.0f, width_ - 40}) {
      for (float y : {24.0f, height_ - 40}) {
        HPDF_Page_Rectangle(page_, x, y, 16, 16);
      }
    }
    HPDF_Page_Fill(page_);
  }

  absl::Status Text(Face face, float size, Rgb color, const std::string& what,
                    const std::string& utf8, float x, float y, Align align) {
    GORANK_ASSIGN_OR_RETURN(
        std::string text,
        EncodeText(what, utf8, IsChinese(face) ? "GBK" : "CP1252"));
    HPDF_Page_BeginText(page_);
    HPDF_Page_SetFontAndSize(page_, fonts_[static_cast<int>(face)], size);
    const float w = HPDF_Page_TextWidth(page_, text.c_str());
    if (align == Align::kCenter) x -= w / 2;
    if (align == Align::kRight) x -= w;
    Fill(color);
    HPDF_Page_TextOut(page_, x, y, text.c_str());
    HPDF_Page_EndText(page_);
    if (error_.error_no != 0) return Failed("drawing the " + what);
    return absl::OkStatus();
  }

  absl::Status Heading() {
    const float cx = width_ / 2;
    GORANK_RETURN_IF_ERROR(Text(Face::kHei, 22, kRed, "federation",
                                s_.federation_zh, cx, 515, Align::kCenter));
    GORANK_RETURN_IF_ERROR(Text(Face::kTimes, 12, kGrey, "federation",
                                s_.federation_en, cx, 497, Align::kCenter));
    GORANK_RETURN_IF_ERROR(Text(Face::kHei, 38, kRed, "title", s_.title_zh, cx,
                                445, Align::kCenter));
    GORANK_RETURN_IF_ERROR(Text(Face::kTimesItalic, 17, kInk, "title",
                                s_.title_en, cx, 420, Align::kCenter));
    Stroke(kGold, 1);
    HPDF_Page_MoveTo(page_, cx - 150, 408);
    HPDF_Page_LineTo(page_, cx + 150, 408);
    HPDF_Page_Stroke(page_);
    return absl::OkStatus();
  }

  absl::Status Body() {
    const float cx = width_ / 2;
    GORANK_RETURN_IF_ERROR(Text(Face::kHei, 28, kInk, "holder name",
                                s_.holder_name, cx, 368, Align::kCenter));
    if (!s_.holder_latin_name.empty()) {
      GORANK_RETURN_IF_ERROR(Text(Face::kTimesItalic, 14, kGrey, "Latin name",
                                  s_.holder_latin_name, cx, 350,
                                  Align::kCenter));
    }
    for (int i = 0; i < 2; ++i) {
      GORANK_RETURN_IF_ERROR(Text(Face::kSong, 15, kInk, "certificate text",
                                  s_.body_zh[i], cx, 318 - 22 * i,
                                  Align::kCenter));
      GORANK_RETURN_IF_ERROR(Text(Face::kTimes, 11, kGrey, "certificate text",
                                  s_.body_en[i], cx, 262 - 14 * i,
                                  Align::kCenter));
    }
    GORANK_RETURN_IF_ERROR(Text(Face::kHei, 40, kRed, "grade", s_.grade_zh, cx,
                                190, Align::kCenter));
    GORANK_RETURN_IF_ERROR(Text(Face::kHelveticaBold, 13, kRed, "grade",
                                s_.grade_en + "  \xC2\xB7  " + s_.grade_code,
                                cx, 170, Align::kCenter));
    if (!s_.notice_zh.empty()) {
      GORANK_RETURN_IF_ERROR(Text(Face::kHei, 12, kRed, "notice", s_.notice_zh,
                                  cx, 150, Align::kCenter));
      GORANK_RETURN_IF_ERROR(Text(Face::kTimesItalic, 10, kRed, "notice",
                                  s_.notice_en, cx, 137, Align::kCenter));
    }
    return absl::OkStatus();
  }

  // Number, date and agency at the bottom left; the seal space in the middle.
  absl::Status Fields() {
    struct Row {
      const char* zh;
      const char* en;
      std::string value_zh, value_en;
    };
    const Row rows[] = {
        {"证书编号", "Certificate No.", s_.number, ""},
        {"发证日期", "Date of issue", s_.date_zh, s_.date_en},
        {"发证机构", "Issuing agency", s_.agency_zh, s_.agency_en}};
    float y = 118;
    for (const Row& r : rows) {
      GORANK_RETURN_IF_ERROR(
          Text(Face::kHei, 11, kInk, "label", r.zh, 70, y, Align::kLeft));
      GORANK_RETURN_IF_ERROR(Text(Face::kHelvetica, 7.5f, kGrey, "label", r.en,
                                  70, y - 10, Align::kLeft));
      const Face face = r.value_en.empty() ? Face::kHelveticaBold : Face::kSong;
      GORANK_RETURN_IF_ERROR(Text(face, r.value_en.empty() ? 13 : 12, kInk,
                                  r.en, r.value_zh, 150, y, Align::kLeft));
      if (!r.value_en.empty()) {
        GORANK_RETURN_IF_ERROR(Text(Face::kHelvetica, 8, kGrey, r.en,
                                    r.value_en, 150, y - 10, Align::kLeft));
      }
      y -= 30;
    }
    const float sx = width_ / 2 + 40;
    Stroke(kGrey, 0.6f);
    HPDF_Page_MoveTo(page_, sx, 70);
    HPDF_Page_LineTo(page_, sx + 150, 70);
    HPDF_Page_Stroke(page_);
    GORANK_RETURN_IF_ERROR(Text(Face::kSong, 10, kGrey, "seal",
                                "发证机构（盖章）", sx + 75, 57,
                                Align::kCenter));
    return Text(Face::kHelvetica, 7.5f, kGrey, "seal",
                "Seal of the issuing agency", sx + 75, 47, Align::kCenter);
  }

  // The QR code: white square with a four-module quiet zone, dark modules
  // drawn as one rectangle per horizontal run.
  absl::Status QrBlock() {
    const int n = s_.qr.size();
    const float side = 108, x0 = width_ - 70 - side, y0 = 62;
    const float m = side / static_cast<float>(n + 8);
    Fill(kWhite);
    HPDF_Page_Rectangle(page_, x0, y0, side, side);
    HPDF_Page_Fill(page_);
    Fill(kBlack);
    for (int row = 0; row < n; ++row) {
      const float y = y0 + side - (4 + row + 1) * m;
      for (int col = 0; col < n;) {
        if (!s_.qr.dark(col, row)) {
          ++col;
          continue;
        }
        int end = col;
        while (end < n && s_.qr.dark(end, row)) ++end;
        HPDF_Page_Rectangle(page_, x0 + (4 + col) * m, y, (end - col) * m, m);
        col = end;
      }
    }
    HPDF_Page_Fill(page_);
    const float cx = x0 + side / 2;
    GORANK_RETURN_IF_ERROR(Text(Face::kHei, 10, kInk, "QR caption", "扫码核验",
                                cx, y0 + side + 17, Align::kCenter));
    GORANK_RETURN_IF_ERROR(Text(Face::kHelvetica, 7, kGrey, "QR caption",
                                "Scan to verify", cx, y0 + side + 7,
                                Align::kCenter));
    return Text(Face::kHelvetica, 6, kGrey, "verification URL", s_.printed_url,
                cx, y0 - 10, Align::kCenter);
  }

  absl::StatusOr<std::string> Save() { return SaveHpdf(pdf_, error_); }

  const CertificateSheet& s_;
  HpdfError error_;
  HPDF_Doc pdf_ = nullptr;
  HPDF_Page page_ = nullptr;
  HPDF_Font fonts_[6] = {};
  float width_ = 0, height_ = 0;
};

}  // namespace

absl::StatusOr<std::string> EncodeText(const std::string& what,
                                       const std::string& utf8,
                                       const char* charset) {
  iconv_t cd = iconv_open(charset, "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    return absl::InternalError(std::string("iconv cannot convert UTF-8 to ") +
                               charset);
  }
  std::unique_ptr<void, int (*)(iconv_t)> closer(cd, &iconv_close);
  std::string out(utf8.size() * 2 + 4, '\0');
  char* in_p = const_cast<char*>(utf8.data());
  size_t in_left = utf8.size();
  char* out_p = out.data();
  size_t out_left = out.size();
  if (iconv(cd, &in_p, &in_left, &out_p, &out_left) ==
      static_cast<size_t>(-1)) {
    const size_t at = utf8.size() - in_left;
    return absl::InvalidArgumentError(
        "the " + what + " '" + utf8 + "' cannot be printed: " +
        (errno == EILSEQ
             ? std::string("byte ") + std::to_string(at) +
                   " starts a character " + charset + " lacks (or is not UTF-8)"
             : std::string("it is not complete UTF-8")));
  }
  out.resize(out.size() - out_left);
  return out;
}

absl::StatusOr<std::string> RenderCertificatePdf(
    const CertificateSheet& sheet) {
  Renderer r(sheet);
  return r.Render();
}

}  // namespace gorank::certificates::printable
