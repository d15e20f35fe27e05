#include "services/cli/pairing_sheet.h"

#include <cstdio>

#include "hpdf.h"
#include "services/certificates/printable/certificate_pdf.h"
#include "services/certificates/printable/hpdf_document.h"
#include "services/common/status_macros.h"

namespace gorank::cli {
namespace {

using certificates::printable::HpdfError;
using certificates::printable::HpdfFailure;
using certificates::printable::OnHpdfError;
using certificates::printable::SaveHpdf;

constexpr int kListRows = 40;     // boards on one page of the list
constexpr int kSlipsPerPage = 4;  // result slips on one page

int ListPages(const PairingSheet& s) {
  const int rows = static_cast<int>(s.boards.size() + s.byes.size());
  return rows == 0 ? 1 : (rows + kListRows - 1) / kListRows;
}

int SlipPages(const PairingSheet& s) {
  return static_cast<int>((s.boards.size() + kSlipsPerPage - 1) /
                          kSlipsPerPage);
}

// A4 portrait pages, origin bottom left, units of 1/72 inch.
class Renderer {
 public:
  explicit Renderer(const PairingSheet& s) : s_(s) {}
  ~Renderer() {
    if (pdf_) HPDF_Free(pdf_);
  }
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  absl::StatusOr<std::string> Render() {
    pdf_ = HPDF_New(&OnHpdfError, &error_);
    if (!pdf_) return absl::InternalError("libharu could not create a PDF");
    HPDF_SetCompressionMode(pdf_, HPDF_COMP_ALL);
    HPDF_UseCNSFonts(pdf_);
    HPDF_UseCNSEncodings(pdf_);
    HPDF_SetInfoAttr(pdf_, HPDF_INFO_CREATOR, "rankctl event sheet");
    font_ = HPDF_GetFont(pdf_, "SimSun", "GBK-EUC-H");
    bold_ = HPDF_GetFont(pdf_, "SimHei", "GBK-EUC-H");
    latin_ = HPDF_GetFont(pdf_, "Helvetica", "WinAnsiEncoding");
    latin_bold_ = HPDF_GetFont(pdf_, "Helvetica-Bold", "WinAnsiEncoding");
    if (error_.error_no != 0) return Failed("loading the fonts");
    GORANK_RETURN_IF_ERROR(List());
    GORANK_RETURN_IF_ERROR(Slips());
    return Save();
  }

 private:
  absl::Status Failed(const std::string& where) const {
    return HpdfFailure(error_, where);
  }

  absl::Status NewPage() {
    page_ = HPDF_AddPage(pdf_);
    if (page_) HPDF_Page_SetSize(page_, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
    if (error_.error_no != 0 || !page_) return Failed("adding a page");
    return absl::OkStatus();
  }

  // ASCII runs in Helvetica, the others (Chinese) in SimSun/SimHei: a
  // viewer's substitute for the CID font may lack Latin glyphs.
  absl::Status Text(bool heavy, float size, const std::string& what,
                    const std::string& utf8, float x, float y) {
    size_t i = 0;
    while (i < utf8.size()) {
      const bool ascii = static_cast<unsigned char>(utf8[i]) < 0x80;
      size_t j = i;
      while (j < utf8.size() &&
             (static_cast<unsigned char>(utf8[j]) < 0x80) == ascii) {
        ++j;
      }
      const std::string run = utf8.substr(i, j - i);
      GORANK_ASSIGN_OR_RETURN(std::string text,
                              certificates::printable::EncodeText(
                                  what, run, ascii ? "CP1252" : "GBK"));
      HPDF_Page_BeginText(page_);
      HPDF_Page_SetFontAndSize(
          page_,
          ascii ? (heavy ? latin_bold_ : latin_) : (heavy ? bold_ : font_),
          size);
      HPDF_Page_TextOut(page_, x, y, text.c_str());
      x += HPDF_Page_TextWidth(page_, text.c_str());
      HPDF_Page_EndText(page_);
      if (error_.error_no != 0) return Failed("drawing the " + what);
      i = j;
    }
    return absl::OkStatus();
  }

  void Line(float x0, float y0, float x1, float y1, float width = 0.5f) {
    HPDF_Page_SetLineWidth(page_, width);
    HPDF_Page_MoveTo(page_, x0, y0);
    HPDF_Page_LineTo(page_, x1, y1);
    HPDF_Page_Stroke(page_);
  }

  void Box(float x, float y, float side) {
    HPDF_Page_SetLineWidth(page_, 0.8f);
    HPDF_Page_Rectangle(page_, x, y, side, side);
    HPDF_Page_Stroke(page_);
  }

  std::string Title() const {
    return s_.event_name + " (event " + std::to_string(s_.event_id) +
           "), round " + std::to_string(s_.round);
  }

  // The pairing list: a header, one line a board, the byes after them.
  absl::Status List() {
    const int pages = ListPages(s_);
    size_t board = 0, bye = 0;
    for (int p = 1; p <= pages; ++p) {
      GORANK_RETURN_IF_ERROR(NewPage());
      GORANK_RETURN_IF_ERROR(Text(true, 15, "title", Title(), 40, 800));
      GORANK_RETURN_IF_ERROR(Text(false, 10, "page",
                                  "Pairing 对阵表  page " + std::to_string(p) +
                                      " of " + std::to_string(pages),
                                  40, 782));
      float y = 750;
      GORANK_RETURN_IF_ERROR(Text(true, 10, "header", "Board", 40, y));
      GORANK_RETURN_IF_ERROR(Text(true, 10, "header", "White 白方", 85, y));
      GORANK_RETURN_IF_ERROR(Text(true, 10, "header", "Black 黑方", 290, y));
      GORANK_RETURN_IF_ERROR(Text(true, 10, "header", "Hcp", 495, y));
      GORANK_RETURN_IF_ERROR(Text(true, 10, "header", "Komi", 525, y));
      Line(40, y - 5, 560, y - 5, 0.8f);
      for (int row = 0; row < kListRows; ++row) {
        y -= 17;
        if (board < s_.boards.size()) {
          const SheetBoard& b = s_.boards[board++];
          GORANK_RETURN_IF_ERROR(
              Text(false, 10, "board", std::to_string(b.board), 45, y));
          GORANK_RETURN_IF_ERROR(Text(false, 10, "white name", b.white, 85, y));
          GORANK_RETURN_IF_ERROR(
              Text(false, 10, "black name", b.black, 290, y));
          GORANK_RETURN_IF_ERROR(
              Text(false, 10, "handicap", std::to_string(b.handicap), 500, y));
          GORANK_RETURN_IF_ERROR(Text(false, 10, "komi", b.komi, 528, y));
        } else if (bye < s_.byes.size()) {
          GORANK_RETURN_IF_ERROR(
              Text(false, 10, "bye", "- " + s_.byes[bye++], 85, y));
        } else {
          break;
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status Slip(const SheetBoard& b, float top) {
    GORANK_RETURN_IF_ERROR(Text(true, 11, "title", Title(), 40, top - 25));
    GORANK_RETURN_IF_ERROR(Text(true, 13, "board",
                                "Board 台次 " + std::to_string(b.board), 40,
                                top - 45));
    GORANK_RETURN_IF_ERROR(
        Text(false, 10, "conditions",
             "handicap " + std::to_string(b.handicap) + ", komi " + b.komi, 200,
             top - 45));
    GORANK_RETURN_IF_ERROR(
        Text(false, 11, "white name", "White 白方: " + b.white, 40, top - 70));
    GORANK_RETURN_IF_ERROR(
        Text(false, 11, "black name", "Black 黑方: " + b.black, 40, top - 90));
    const float y = top - 120;
    const char* const choices[] = {"White wins 白胜", "Black wins 黑胜",
                                   "Jigo 和棋", "Both lose 双负"};
    for (int i = 0; i < 4; ++i) {
      Box(40 + i * 130, y, 10);
      GORANK_RETURN_IF_ERROR(
          Text(false, 10, "result choice", choices[i], 55 + i * 130, y + 1));
    }
    GORANK_RETURN_IF_ERROR(Text(false, 10, "signatures",
                                "White signature 白方签名", 40, top - 165));
    GORANK_RETURN_IF_ERROR(Text(false, 10, "signatures",
                                "Black signature 黑方签名", 300, top - 165));
    Line(160, top - 167, 285, top - 167);
    Line(420, top - 167, 555, top - 167);
    return absl::OkStatus();
  }

  // Four slips a page, separated by cutting lines.
  absl::Status Slips() {
    const float height = 842.0f / kSlipsPerPage;
    for (size_t i = 0; i < s_.boards.size(); ++i) {
      const int slot = static_cast<int>(i % kSlipsPerPage);
      if (slot == 0) GORANK_RETURN_IF_ERROR(NewPage());
      const float top = 842.0f - slot * height;
      if (slot > 0) Line(20, top, 575, top, 0.3f);
      GORANK_RETURN_IF_ERROR(Slip(s_.boards[i], top));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::string> Save() { return SaveHpdf(pdf_, error_); }

  const PairingSheet& s_;
  HpdfError error_;
  HPDF_Doc pdf_ = nullptr;
  HPDF_Page page_ = nullptr;
  HPDF_Font font_ = nullptr;
  HPDF_Font bold_ = nullptr;
  HPDF_Font latin_ = nullptr;
  HPDF_Font latin_bold_ = nullptr;
};

}  // namespace

int PairingSheetPages(const PairingSheet& sheet) {
  return ListPages(sheet) + SlipPages(sheet);
}

absl::StatusOr<std::string> RenderPairingSheetPdf(const PairingSheet& sheet) {
  return Renderer(sheet).Render();
}

}  // namespace gorank::cli
