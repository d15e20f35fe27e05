// rankctl cert|appraisal|stock ...
#include <iostream>
#include <random>

#include "gorank/v1/certificates.grpc.pb.h"
#include "services/cli/certificate_offline.h"
#include "services/cli/certificate_print.h"
#include "services/cli/commands.h"
#include "services/cli/office_file.h"
#include "services/cli/unary.h"

namespace gorank::cli {
namespace {

std::string StateText(v1::CertificateState s) {
  switch (s) {
    case v1::CERTIFICATE_STATE_UNDER_NOTICE:
      return "under notice";
    case v1::CERTIFICATE_STATE_EFFECTIVE:
      return "effective";
    case v1::CERTIFICATE_STATE_REVOKED:
      return "revoked";
    default:
      return "-";
  }
}

std::string BasisText(v1::CertificateBasis b) {
  switch (b) {
    case v1::CERTIFICATE_BASIS_TOURNAMENT:
      return "tournament";
    case v1::CERTIFICATE_BASIS_APPRAISAL:
      return "appraisal";
    case v1::CERTIFICATE_BASIS_RATING_PROMOTION:
      return "rating";
    case v1::CERTIFICATE_BASIS_HONORARY_AWARD:
      return "honorary";
    default:
      return "-";
  }
}

std::string NewRequestId() {
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "cli-";
  for (int i = 0; i < 24; ++i) id.push_back(kHex[rd() % 16]);
  return id;
}

void PrintCertificate(const v1::Certificate& c) {
  PrintTable({{"number", c.number()},
              {"player", std::to_string(c.player_id())},
              {"discipline",
               c.discipline() == v1::DISCIPLINE_GOMOKU ? "gomoku" : "go"},
              {"grade", RankText(c.grade())},
              {"issued", DateText(c.issue_date())},
              {"agency", c.agency_prefix()},
              {"basis", BasisText(c.basis()) + ": " + c.basis_reference()},
              {"state",
               StateText(c.state()) + (c.revoke_reason().empty()
                                           ? ""
                                           : " (" + c.revoke_reason() + ")")}});
}

void PrintCertificates(
    const google::protobuf::RepeatedPtrField<v1::Certificate>& list) {
  std::vector<std::vector<std::string>> rows = {
      {"NUMBER", "PLAYER", "GRADE", "ISSUED", "BASIS", "STATE"}};
  for (const auto& c : list) {
    rows.push_back({c.number(), std::to_string(c.player_id()),
                    RankText(c.grade()), DateText(c.issue_date()),
                    BasisText(c.basis()), StateText(c.state())});
  }
  PrintTable(rows);
}

Cell DateCell(const v1::Date& d) {
  return Cell::Date(d.year(), d.month(), d.day());
}

// The holder list of `cert export`, one row a certificate.
Sheet HolderSheet(const v1::ExportHoldersResponse& resp) {
  Sheet sheet{"holders",
              {"number", "grade", "issue_date", "basis", "basis_reference",
               "state", "name", "latin_name", "gender", "birth_date",
               "home_agency", "resident_id"},
              {}};
  for (const auto& h : resp.records()) {
    const auto& c = h.certificate();
    sheet.rows.push_back(
        {Cell::Text(c.number()), Cell::Text(RankText(c.grade())),
         DateCell(c.issue_date()), Cell::Text(BasisText(c.basis())),
         Cell::Text(c.basis_reference()), Cell::Text(StateText(c.state())),
         Cell::Text(h.name()), Cell::Text(h.latin_name()),
         Cell::Text(h.gender() == v1::GENDER_MALE     ? "male"
                    : h.gender() == v1::GENDER_FEMALE ? "female"
                                                      : ""),
         DateCell(h.birth_date()), Cell::Text(h.home_agency_prefix()),
         Cell::Text(h.resident_id())});
  }
  return sheet;
}

void AddCertIssue(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* issue = cert.add_subcommand("issue", "issue a certificate");
  auto r = std::make_shared<v1::IssueCertificateRequest>();
  auto grade = std::make_shared<std::string>();
  auto date = std::make_shared<std::string>();
  auto basis = std::make_shared<std::string>("tournament");
  auto discipline = std::make_shared<std::string>("go");
  issue
      ->add_option_function<int64_t>(
          "--player", [r](int64_t v) { r->set_player_id(v); }, "player id")
      ->required();
  issue
      ->add_option(
          "--grade", *grade,
          "Go: 10k..1k, 1d..7d, 8d (honorary); Gomoku: 10k..1k, 1d..6d")
      ->required();
  issue->add_option("--discipline", *discipline, "go|gomoku")
      ->capture_default_str();
  issue->add_option("--basis", *basis, "tournament|rating|honorary")
      ->capture_default_str();
  issue
      ->add_option("--reference", *r->mutable_basis_reference(),
                   "what it rests on: event and place, decision ...")
      ->required();
  issue->add_option("--date", *date,
                    "date of issue YYYY-MM-DD (default today)");
  issue->add_option("--agency", *r->mutable_agency_prefix(),
                    "issuing agency prefix");
  issue->add_option("--request-id", *r->mutable_request_id(),
                    "idempotency key (default: a fresh random one)");
  issue->add_option(
      "--correction",
      [r](const CLI::results_t& v) {
        r->set_correction(true);
        r->set_correction_reason(v[0]);
        return true;
      },
      "issue below the current rank, with this reason");
  issue->callback([&, r, grade, date, basis, discipline] {
    action = [&, r, grade, date, basis, discipline]() -> int {
      v1::Discipline d;
      if (!SetDiscipline(*discipline, &d)) return kExitUsage;
      r->set_discipline(d);
      SetRank(*grade, r->mutable_grade());
      if (!date->empty() && !SetDate(*date, r->mutable_issue_date()))
        return kExitUsage;
      if (*basis == "tournament")
        r->set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
      else if (*basis == "rating")
        r->set_basis(v1::CERTIFICATE_BASIS_RATING_PROMOTION);
      else if (*basis == "honorary")
        r->set_basis(v1::CERTIFICATE_BASIS_HONORARY_AWARD);
      else
        return CliContext::Usage(
            "--basis must be tournament, rating or honorary");
      if (r->request_id().empty()) r->set_request_id(NewRequestId());
      return Unary<v1::CertificateService, v1::IssueCertificateResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.IssueCertificate(c, *r, resp);
          },
          [](const auto& resp) { PrintCertificate(resp.certificate()); });
    };
  });
}

void AddCertGet(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* get = cert.add_subcommand("get", "show a certificate");
  auto number = std::make_shared<std::string>();
  get->add_option("number", *number, "nine-digit number")->required();
  get->callback([&, number] {
    action = [&, number]() -> int {
      v1::GetCertificateRequest req;
      req.set_number(*number);
      return Unary<v1::CertificateService, v1::GetCertificateResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetCertificate(c, req, resp);
          },
          [](const auto& resp) { PrintCertificate(resp.certificate()); });
    };
  });
}

void AddCertList(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* list = cert.add_subcommand("list", "list certificates");
  auto lr = std::make_shared<v1::ListCertificatesRequest>();
  list->add_option("--agency", *lr->mutable_agency_prefix(), "agency prefix");
  list->add_option_function<int32_t>(
      "--year", [lr](int32_t v) { lr->set_year(v); }, "year of issue");
  list->add_option_function<int64_t>(
      "--player", [lr](int64_t v) { lr->set_player_id(v); }, "player id");
  list->callback([&, lr] {
    action = [&, lr]() -> int {
      return AllPages<v1::CertificateService, v1::ListCertificatesRequest,
                      v1::ListCertificatesResponse>(
          ctx, *lr,
          [&](auto& s, auto* c, const auto& req, auto* resp) {
            return s.ListCertificates(c, req, resp);
          },
          [](const auto& resp) { PrintCertificates(resp.certificates()); });
    };
  });
}

void AddCertRevoke(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* revoke = cert.add_subcommand("revoke", "revoke a certificate");
  auto rv = std::make_shared<v1::RevokeCertificateRequest>();
  revoke->add_option("number", *rv->mutable_number(), "nine-digit number")
      ->required();
  revoke->add_option("--reason", *rv->mutable_reason(), "why")->required();
  revoke->callback([&, rv] {
    action = [&, rv]() -> int {
      return Unary<v1::CertificateService, v1::RevokeCertificateResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.RevokeCertificate(c, *rv, resp);
          },
          [](const auto& resp) { PrintCertificate(resp.certificate()); });
    };
  });
}

void AddCertVerify(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* verify = cert.add_subcommand(
      "verify", "check a certificate number against a name (public)");
  auto vr = std::make_shared<v1::VerifyCertificateRequest>();
  verify->add_option("number", *vr->mutable_number(), "nine-digit number")
      ->required();
  verify->add_option("--name", *vr->mutable_holder_name(), "holder's name")
      ->required();
  verify->callback([&, vr] {
    action = [&, vr]() -> int {
      // NOT_VALID is an answer, not an error, but scripts test the exit status:
      // 3, as `check` gives for a failing record (also with --json).
      v1::VerifyOutcome outcome = v1::VERIFY_OUTCOME_UNSPECIFIED;
      const int rc =
          Unary<v1::CertificateService, v1::VerifyCertificateResponse>(
              ctx,
              [&](auto& s, auto* c, auto* resp) {
                grpc::Status status = s.VerifyCertificate(c, *vr, resp);
                outcome = resp->outcome();
                return status;
              },
              [](const auto& resp) {
                std::string outcome =
                    v1::VerifyOutcome_Name(resp.outcome()).substr(15);
                std::cout << outcome;
                if (resp.outcome() != v1::VERIFY_OUTCOME_NOT_VALID) {
                  std::cout << "  " << resp.number() << "  "
                            << RankText(resp.grade()) << "  "
                            << DateText(resp.issue_date()) << "  "
                            << resp.agency_name() << "  "
                            << resp.masked_holder_name();
                }
                std::cout << "\n";
              });
      return rc == kExitOk && outcome == v1::VERIFY_OUTCOME_NOT_VALID
                 ? kExitCheckFailed
                 : rc;
    };
  });
}

void AddCertLookup(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* lookup =
      cert.add_subcommand("lookup", "public rank lookup by exact name");
  auto name = std::make_shared<std::string>();
  lookup->add_option("name", *name, "name or Latin name")->required();
  lookup->callback([&, name] {
    action = [&, name]() -> int {
      v1::LookupRankRequest req;
      req.set_name(*name);
      return Unary<v1::CertificateService, v1::LookupRankResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.LookupRank(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"NAME", "REGION", "RANK", "CERTIFICATES"}};
            for (const auto& p : resp.players()) {
              std::string certs;
              for (const auto& c : p.certificates()) {
                certs += (certs.empty() ? "" : ", ") + c.number() + " " +
                         RankText(c.grade()) +
                         (c.state() == v1::CERTIFICATE_STATE_UNDER_NOTICE
                              ? " (notice)"
                              : "");
              }
              rows.push_back(
                  {p.name(), p.region(),
                   RankText(p.rank()) + (p.has_gomoku_rank()
                                             ? ", " + RankText(p.gomoku_rank())
                                             : ""),
                   certs});
            }
            PrintTable(rows);
          });
    };
  });
}

void AddCertNotices(CLI::App& cert, CliContext& ctx, Action& action) {
  cert.add_subcommand("notices", "certificates under public notice (public)")
      ->callback([&] {
        action = [&]() -> int {
          return AllPages<v1::CertificateService, v1::ListNoticesRequest,
                          v1::ListNoticesResponse>(
              ctx, v1::ListNoticesRequest(),
              [&](auto& s, auto* c, const auto& req, auto* resp) {
                return s.ListNotices(c, req, resp);
              },
              [](const auto& resp) {
                std::vector<std::vector<std::string>> rows = {
                    {"NUMBER", "HOLDER", "HOLDER'S AGENCY", "GRADE",
                     "ISSUED BY", "BASIS", "NOTICE ENDS", "OBJECTIONS"}};
                for (const auto& n : resp.notices()) {
                  const std::string when =
                      TimeText(n.certificate().notice_until_unix());
                  rows.push_back({n.certificate().number(), n.holder_name(),
                                  n.holder_agency_name() + " (" +
                                      n.holder_agency_prefix() + ")",
                                  RankText(n.certificate().grade()),
                                  n.agency_name(),
                                  BasisText(n.certificate().basis()) + ": " +
                                      n.certificate().basis_reference(),
                                  when, std::to_string(n.open_objections())});
                }
                PrintTable(rows);
              });
        };
      });
}

void AddCertObject(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* object = cert.add_subcommand(
      "object", "lodge an objection to a posted certificate");
  auto ob = std::make_shared<v1::LodgeObjectionRequest>();
  object->add_option("number", *ob->mutable_number(), "nine-digit number")
      ->required();
  object->add_option("--text", *ob->mutable_text(), "the objection")
      ->required();
  object->add_option("--contact", *ob->mutable_contact(), "how to reach you")
      ->required();
  object->callback([&, ob] {
    action = [&, ob]() -> int {
      return Unary<v1::CertificateService, v1::LodgeObjectionResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.LodgeObjection(c, *ob, resp);
          },
          [](const auto& resp) {
            std::cout << "objection " << resp.objection().id() << " lodged\n";
          });
    };
  });
}

void AddCertObjections(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* objections =
      cert.add_subcommand("objections",
                          "objections with their text and state (national "
                          "admin, auditor, holder's agency)");
  auto lo = std::make_shared<v1::ListObjectionsRequest>();
  auto ostate = std::make_shared<std::string>();
  objections->add_option("--state", *ostate,
                         "open|upheld|dismissed (default: any)");
  objections->add_option("--number", *lo->mutable_number(),
                         "one certificate's objections");
  objections->add_option("--page-token", *lo->mutable_page_token(),
                         "from a previous page");
  objections->callback([&, lo, ostate] {
    action = [&, lo, ostate]() -> int {
      if (ostate->empty())
        lo->set_state(v1::OBJECTION_STATE_UNSPECIFIED);
      else if (*ostate == "open")
        lo->set_state(v1::OBJECTION_STATE_OPEN);
      else if (*ostate == "upheld")
        lo->set_state(v1::OBJECTION_STATE_UPHELD);
      else if (*ostate == "dismissed")
        lo->set_state(v1::OBJECTION_STATE_DISMISSED);
      else
        return CliContext::Usage("--state must be open, upheld or dismissed");
      return Unary<v1::CertificateService, v1::ListObjectionsResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ListObjections(c, *lo, resp);
          },
          [](const auto& resp) {
            auto day = [](int64_t unix_seconds) {
              return TimeText(unix_seconds);
            };
            std::vector<std::vector<std::string>> rows = {
                {"ID", "NUMBER", "HOLDER", "GRADE", "STATE", "LODGED",
                 "DECIDED", "TEXT", "CONTACT", "DECISION"}};
            for (const auto& o : resp.objections()) {
              rows.push_back(
                  {std::to_string(o.id()), o.number(),
                   o.holder_name() + " (" + o.holder_agency_prefix() + ")",
                   RankText(o.grade()),
                   v1::ObjectionState_Name(o.state()).substr(16),
                   day(o.lodged_unix()), day(o.decided_unix()), o.text(),
                   o.contact().empty() ? "-" : o.contact(),
                   o.decision_note().empty() ? "-" : o.decision_note()});
            }
            PrintTable(rows);
            if (!resp.next_page_token().empty()) {
              std::cout << "more: --page-token " << resp.next_page_token()
                        << "\n";
            }
          });
    };
  });
}

void AddCertDecideObjection(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* decide =
      cert.add_subcommand("decide-objection", "uphold or dismiss an objection");
  auto dr = std::make_shared<v1::DecideObjectionRequest>();
  auto verdict = std::make_shared<std::string>();
  decide
      ->add_option_function<int64_t>(
          "id", [dr](int64_t v) { dr->set_objection_id(v); }, "objection id")
      ->required();
  decide->add_option("--verdict", *verdict, "uphold|dismiss")->required();
  decide->add_option("--note", *dr->mutable_note(), "reasons")->required();
  decide->callback([&, dr, verdict] {
    action = [&, dr, verdict]() -> int {
      if (*verdict != "uphold" && *verdict != "dismiss") {
        return CliContext::Usage("--verdict must be uphold or dismiss");
      }
      dr->set_uphold(*verdict == "uphold");
      return Unary<v1::CertificateService, v1::DecideObjectionResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.DecideObjection(c, *dr, resp);
          },
          [](const auto& resp) {
            std::cout << "objection " << resp.objection().id() << ": "
                      << EnumWords(
                             v1::ObjectionState_Name(resp.objection().state()),
                             "OBJECTION_STATE_")
                      << "\n";
          });
    };
  });
}

void AddCertExport(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* exp = cert.add_subcommand("export",
                                  "an agency's certificates and holders: CSV "
                                  "(UTF-8 with BOM) or --out FILE.xlsx");
  auto er = std::make_shared<v1::ExportHoldersRequest>();
  auto out = std::make_shared<std::string>();
  exp->add_option("--agency", *er->mutable_agency_prefix(), "agency prefix")
      ->required();
  exp->add_option_function<int32_t>(
         "--year", [er](int32_t v) { er->set_year(v); }, "year of issue")
      ->required();
  exp->add_option("--out", *out,
                  "write to FILE instead of standard output: an Excel workbook "
                  "when it ends "
                  "in .xlsx, else CSV");
  exp->callback([&, er, out] {
    action = [&, er, out]() -> int {
      return UnaryFirst<v1::CertificateService, v1::ExportHoldersResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ExportHolders(c, *er, resp);
          },
          [&](const auto& resp) {
            if (out->empty()) return kExitOk;
            const std::string error =
                WriteOfficeFile(*out, {HolderSheet(resp)});
            return error.empty() ? kExitOk : CliContext::Usage(error);
          },
          [&](const auto& resp) {
            if (out->empty()) {
              std::cout << CsvText(HolderSheet(resp));
            } else {
              std::cout << "wrote " << resp.records_size()
                        << " certificate(s) to " << *out << "\n";
            }
          });
    };
  });
}

void AddCertCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* cert =
      app.add_subcommand("cert", "issue, verify and manage rank certificates");
  cert->require_subcommand(1);

  AddCertIssue(*cert, ctx, action);
  AddCertGet(*cert, ctx, action);
  AddCertList(*cert, ctx, action);
  AddCertRevoke(*cert, ctx, action);
  AddCertVerify(*cert, ctx, action);
  AddCertLookup(*cert, ctx, action);
  AddCertNotices(*cert, ctx, action);
  AddCertObject(*cert, ctx, action);
  AddCertObjections(*cert, ctx, action);
  AddCertDecideObjection(*cert, ctx, action);
  AddCertPrintCommand(*cert, ctx, action);
  AddCertOfflineCommands(*cert, ctx, action);
  AddCertExport(*cert, ctx, action);
}

void AddAppraisalRecommend(CLI::App& ap, CliContext& ctx, Action& action) {
  auto* rec = ap.add_subcommand("recommend",
                                "recommend a player for an appraisal grade");
  auto rr = std::make_shared<v1::RecommendAppraisalRequest>();
  auto grade = std::make_shared<std::string>();
  rec->add_option_function<int64_t>(
         "--player", [rr](int64_t v) { rr->set_player_id(v); }, "player id")
      ->required();
  rec->add_option("--grade", *grade, "1d..7d")->required();
  rec->add_option("--note", *rr->mutable_note(),
                  "grounds of the recommendation");
  rec->callback([&, rr, grade] {
    action = [&, rr, grade]() -> int {
      SetRank(*grade, rr->mutable_grade());
      return Unary<v1::CertificateService, v1::RecommendAppraisalResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.RecommendAppraisal(c, *rr, resp);
          },
          [](const auto& resp) {
            std::cout << "appraisal " << resp.appraisal().id() << " pending\n";
          });
    };
  });
}

void AddAppraisalDecide(CLI::App& ap, CliContext& ctx, Action& action) {
  auto* dec = ap.add_subcommand("decide", "approve or reject (national admin)");
  auto dr = std::make_shared<v1::DecideAppraisalRequest>();
  auto verdict = std::make_shared<std::string>();
  dec->add_option_function<int64_t>(
         "id", [dr](int64_t v) { dr->set_appraisal_id(v); }, "appraisal id")
      ->required();
  dec->add_option("--verdict", *verdict, "approve|reject")->required();
  dec->add_option("--note", *dr->mutable_note(), "reasons");
  dec->callback([&, dr, verdict] {
    action = [&, dr, verdict]() -> int {
      if (*verdict != "approve" && *verdict != "reject") {
        return CliContext::Usage("--verdict must be approve or reject");
      }
      dr->set_approve(*verdict == "approve");
      return Unary<v1::CertificateService, v1::DecideAppraisalResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.DecideAppraisal(c, *dr, resp);
          },
          [](const auto& resp) {
            std::cout << "appraisal " << resp.appraisal().id() << ": "
                      << EnumWords(
                             v1::AppraisalState_Name(resp.appraisal().state()),
                             "APPRAISAL_STATE_")
                      << (resp.appraisal().certificate_number().empty()
                              ? ""
                              : ", certificate " +
                                    resp.appraisal().certificate_number())
                      << "\n";
          });
    };
  });
}

void AddAppraisalList(CLI::App& ap, CliContext& ctx, Action& action) {
  auto* list = ap.add_subcommand("list", "appraisals");
  auto lr = std::make_shared<v1::ListAppraisalsRequest>();
  list->add_option("--agency", *lr->mutable_agency_prefix(), "agency prefix");
  list->add_flag(
      "--pending", [lr](int64_t) { lr->set_pending_only(true); },
      "pending only");
  list->callback([&, lr] {
    action = [&, lr]() -> int {
      return AllPages<v1::CertificateService, v1::ListAppraisalsRequest,
                      v1::ListAppraisalsResponse>(
          ctx, *lr,
          [&](auto& s, auto* c, const auto& req, auto* resp) {
            return s.ListAppraisals(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"ID", "PLAYER", "GRADE", "AGENCY", "STATE", "CERTIFICATE"}};
            for (const auto& a : resp.appraisals()) {
              rows.push_back({std::to_string(a.id()),
                              std::to_string(a.player_id()),
                              RankText(a.grade()), a.agency_prefix(),
                              v1::AppraisalState_Name(a.state()).substr(16),
                              a.certificate_number()});
            }
            PrintTable(rows);
          });
    };
  });
}

void AddAppraisalCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* ap = app.add_subcommand(
      "appraisal", "appraisal (鉴定) recommendations and decisions");
  ap->require_subcommand(1);
  AddAppraisalRecommend(*ap, ctx, action);
  AddAppraisalDecide(*ap, ctx, action);
  AddAppraisalList(*ap, ctx, action);
}

void PrintStock(const v1::StockOrder& s) {
  std::cout << "agency " << s.agency_prefix() << " stock " << s.year()
            << ": ordered " << s.quantity() << ", used " << s.used() << ", "
            << (s.released_unix() ? "released" : "not released") << "\n";
}

void AddStockCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* st = app.add_subcommand("stock", "certificate stock orders");
  st->require_subcommand(1);
  struct Args {
    std::string prefix;
    int year = 0;
    int quantity = 0;
  };
  auto* order =
      st->add_subcommand("order", "order next year's stock (1-31 December)");
  auto oa = std::make_shared<Args>();
  order->add_option("--agency", oa->prefix, "agency prefix")->required();
  order->add_option("--year", oa->year, "the year the stock is for")
      ->required();
  order->add_option("--quantity", oa->quantity, "number of certificates")
      ->required();
  order->callback([&, oa] {
    action = [&, oa]() -> int {
      v1::OrderStockRequest req;
      req.set_agency_prefix(oa->prefix);
      req.set_year(oa->year);
      req.set_quantity(oa->quantity);
      return Unary<v1::CertificateService, v1::OrderStockResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.OrderStock(c, req, resp);
          },
          [](const auto& resp) { PrintStock(resp.order()); });
    };
  });
  auto* release =
      st->add_subcommand("release", "release an order (national admin)");
  auto ra = std::make_shared<Args>();
  release->add_option("--agency", ra->prefix, "agency prefix")->required();
  release->add_option("--year", ra->year, "year")->required();
  release->callback([&, ra] {
    action = [&, ra]() -> int {
      v1::ReleaseStockRequest req;
      req.set_agency_prefix(ra->prefix);
      req.set_year(ra->year);
      return Unary<v1::CertificateService, v1::ReleaseStockResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.ReleaseStock(c, req, resp);
          },
          [](const auto& resp) { PrintStock(resp.order()); });
    };
  });
  auto* get = st->add_subcommand("get", "show an order and its use");
  auto ga = std::make_shared<Args>();
  get->add_option("--agency", ga->prefix, "agency prefix")->required();
  get->add_option("--year", ga->year, "year")->required();
  get->callback([&, ga] {
    action = [&, ga]() -> int {
      v1::GetStockRequest req;
      req.set_agency_prefix(ga->prefix);
      req.set_year(ga->year);
      return Unary<v1::CertificateService, v1::GetStockResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetStock(c, req, resp);
          },
          [](const auto& resp) { PrintStock(resp.order()); });
    };
  });
}

}  // namespace

void AddCertificateCommands(CLI::App& app, CliContext& ctx, Action& action) {
  AddCertCommands(app, ctx, action);
  AddAppraisalCommands(app, ctx, action);
  AddStockCommands(app, ctx, action);
}

}  // namespace gorank::cli
