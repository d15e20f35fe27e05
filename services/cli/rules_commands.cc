// rankctl check FILE...: the rules check of Go game records. Public (no token
// needed). The files go to rankd through one CheckGameRecords stream (a new
// stream every kFilesPerStream files); rankctl only sends bytes and prints the
// answers, it knows nothing of the rules.
//
// One line per record (a game; a collection's games are FILE[0], FILE[1], ...,
// 0-based as in the server's messages):
//   FILE  OK  77 moves, two passes at move 77; count W+1 (白胜1/4子); RE agrees
//   FILE  FAIL  move 1 B A9 suicide (第19条 禁着点); 1 move, unfinished
//   FILE  MALFORMED  INVALID_ARGUMENT: ...
// then "N records: X ok, Y failed, Z malformed". --verbose adds every
// violation, the result check and the readings taken; --json prints one JSON
// answer per file and a JSON summary, one per line. Exit status: 0 all pass,
// 3 a record failed or was malformed, 1 the call failed, 2 usage.
//
// `check --game gomoku FILE...`: Gomoku records (SGF GM[4] or a move list
// "H8 I9 ..."), one CheckGomokuRecord call a file, in order:
//   FILE  OK  black wins by five at move 9 (H4-H8); forbidden: move 7 J9
//             double three (unclaimed)
//   FILE  FAIL  move 10 move after the end of the game (+1 more); ...
// with the same summary line, --json (one {"record_id", "report"|"error_code",
// "error_message"} object a file) and exit statuses.
//
// `check --game xiangqi FILE...`: Xiangqi (象棋) PGN files (UTF-8 or GBK, ICCS,
// WXF or Chinese moves; --notation forces one), one CheckXiangqiRecord call a
// file, one line a game (FILE[0], FILE[1], ... when a file holds several):
//   FILE  OK  red wins: black is checkmated after move 41
//   FILE  FAIL  move 3 (red) H8+6 (WXF): b0d1: the horse is blocked at the
//               leg (蹩马腿) [illegal move, horse leg blocked]
//   FILE  ARBITER  needs an arbiter: moves 12-19 repeat the position ...
// A game that needs an arbiter counts as not passed (exit status 3); the
// summary line says how many. --json and the other exit statuses as above.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/rules.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/integer_args.h"

namespace gorank::cli {
namespace {

constexpr size_t kFilesPerStream =
    1000;  // the server takes up to 10,000 a stream
// Larger files are not sent: a message over the server's 4 MiB transport limit
// would end the whole stream. (The server's own record limit is 1 MiB.)
constexpr long long kMaxSendBytes = (4 << 20) - (16 << 10);

struct CheckArgs {
  std::vector<std::string> files;
  std::string ruleset = "chinese";
  std::string ko = "situational";
  std::string cycle = "no-result";
  std::string komi;       // points, e.g. "7.5"
  std::string variation;  // "0,1,2"
  std::string dead;       // "dd,ee" (SGF points, one a dead chain)
  int black_warnings = 0;
  int white_warnings = 0;
  bool verbose = false;
  std::string game = "go";
  std::string gomoku_rules = "formal";
  std::string claim = "as-recorded";
  std::string format = "auto";
  std::string notation = "auto";
};

struct Tally {
  int records = 0, ok = 0, failed = 0, malformed = 0;
  int arbiter = 0;  // Xiangqi games that need an arbiter (counted in failed)
};

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// False (message printed) when an argument cannot be sent.
bool BuildOptions(const CheckArgs& a, v1::CheckOptions* o) {
  o->set_ruleset(a.ruleset == "japanese" ? v1::RULESET_JAPANESE
                 : a.ruleset == "korean" ? v1::RULESET_KOREAN
                                         : v1::RULESET_CHINESE);
  o->set_ko_rule(a.ko == "simple"       ? v1::KO_RULE_SIMPLE
                 : a.ko == "positional" ? v1::KO_RULE_POSITIONAL_SUPERKO
                 : a.ko == "cycles"     ? v1::KO_RULE_CYCLES_REPORTED
                                        : v1::KO_RULE_SITUATIONAL_SUPERKO);
  o->set_cycle_ruling(a.cycle == "draw"     ? v1::CYCLE_RULING_DRAW
                      : a.cycle == "replay" ? v1::CYCLE_RULING_REPLAY
                                            : v1::CYCLE_RULING_NO_RESULT);
  if (!a.komi.empty()) {
    char* end = nullptr;
    const double points = std::strtod(a.komi.c_str(), &end);
    const double halves = points * 2;
    if (*end != '\0' || !std::isfinite(halves) || std::fabs(halves) > 1e6 ||
        halves != std::round(halves)) {
      CliContext::Usage(
          "--komi must be a number of points in halves (7.5, 6.5, 0, -0.5), "
          "got '" +
          a.komi + "'");
      return false;
    }
    o->set_komi_half_points(static_cast<int>(halves));
  }
  for (const std::string& v : SplitCommas(a.variation)) {
    if (v.find_first_not_of("0123456789") != std::string::npos ||
        v.size() > 6) {
      CliContext::Usage(
          "--variation is a comma-separated list of branch numbers (0 = main "
          "line)");
      return false;
    }
    int branch = 0;
    ParseDecimal(v, &branch);  // at most six digits: always fits
    o->add_variation(branch);
  }
  if (!a.dead.empty()) {
    o->set_dead_stones_given(true);
    for (const std::string& p : SplitCommas(a.dead))
      o->add_dead_stones()->set_sgf(p);
  }
  o->set_black_warnings(a.black_warnings);
  o->set_white_warnings(a.white_warnings);
  return true;
}

std::string KindName(v1::ViolationKind k) {
  switch (k) {
    case v1::VIOLATION_KIND_SUICIDE:
      return "suicide";
    case v1::VIOLATION_KIND_KO_RECAPTURE:
      return "ko";
    case v1::VIOLATION_KIND_SUPERKO:
      return "superko";
    case v1::VIOLATION_KIND_OCCUPIED:
      return "occupied";
    case v1::VIOLATION_KIND_DOUBLE_MOVE:
      return "double_move";
    case v1::VIOLATION_KIND_WHITE_FIRST:
      return "white_first";
    case v1::VIOLATION_KIND_AFTER_END:
      return "after_end";
    default:
      return "violation";
  }
}

std::string Letter(v1::StoneColor c) {
  return c == v1::STONE_COLOR_BLACK   ? "B"
         : c == v1::STONE_COLOR_WHITE ? "W"
                                      : "-";
}

// "move 1 B A9 suicide (第19条 禁着点)".
std::string ViolationText(const v1::Violation& v) {
  return "move " + std::to_string(v.move_number()) + " " + Letter(v.color()) +
         " " + (v.pass() ? "pass" : v.point().label()) + " " +
         KindName(v.kind()) + " (" + v.article() + ")";
}

std::string EndText(const v1::GameReport& r) {
  switch (r.end()) {
    case v1::GAME_END_TWO_PASSES:
      return "two passes at move " + std::to_string(r.end_move());
    case v1::GAME_END_AGREEMENT:
      return "ended by agreement";
    case v1::GAME_END_RESIGNATION:
      return "resignation";
    case v1::GAME_END_TIME:
      return "lost on time";
    case v1::GAME_END_FORFEIT:
      return "forfeit";
    default:
      return "unfinished";
  }
}

// What decided the game: the count for a counted end, else the basis.
std::string DecisionText(const v1::GameReport& r) {
  switch (r.outcome_basis()) {
    case v1::OUTCOME_BASIS_TWO_WARNINGS:
      return Letter(r.two_warning_loser()) + " loses by two warnings";
    case v1::OUTCOME_BASIS_CYCLE:
      return "repetition cycle at move " +
             std::to_string(r.cycle().move_number());
    case v1::OUTCOME_BASIS_COUNT:
      if (r.end() == v1::GAME_END_TWO_PASSES ||
          r.end() == v1::GAME_END_AGREEMENT) {
        return "count " + r.count().result() + " (" + r.count().chinese() + ")";
      }
      return "";
    default:
      return "";
  }
}

std::string RecordLine(const std::string& name, const v1::GameReport& r,
                       bool verbose) {
  std::vector<std::string> parts;
  if (r.violations_size() > 0) {
    std::string first = ViolationText(r.violations(0));
    if (!verbose && r.violations_size() > 1) {
      first += " (+" + std::to_string(r.violations_size() - 1) + " more)";
    }
    parts.push_back(first);
  }
  if (r.result_check() == v1::RESULT_CHECK_CONTRADICTED)
    parts.push_back(r.result_check_detail());
  const int moves = r.move_count();
  parts.push_back(std::to_string(moves) +
                  (moves == 1 ? " move, " : " moves, ") + EndText(r));
  if (std::string d = DecisionText(r); !d.empty()) parts.push_back(d);
  if (r.result_check() == v1::RESULT_CHECK_AGREES) parts.push_back("RE agrees");
  std::string line = name + "  " + (r.failed() ? "FAIL" : "OK") + "  ";
  for (size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : "") + parts[i];
  return line;
}

void PrintVerbose(const v1::GameReport& r) {
  for (const v1::Violation& v : r.violations()) {
    std::cout << "    " << ViolationText(v) << ": " << v.description() << "\n";
  }
  std::cout << "    result: " << r.result_check_detail() << "\n";
  for (const std::string& note : r.notes())
    std::cout << "    note: " << note << "\n";
}

void PrintJsonLine(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  std::cout << out << "\n";
}

void PrintAnswer(const CliContext& ctx, const CheckArgs& args,
                 const v1::CheckGameRecordsResponse& resp, Tally& t) {
  if (ctx.json) PrintJsonLine(resp);
  if (!resp.error_code().empty()) {
    ++t.records;
    ++t.malformed;
    if (!ctx.json) {
      std::cout << resp.record_id() << "  MALFORMED  " << resp.error_code()
                << ": " << resp.error_message() << "\n";
    }
    return;
  }
  for (const v1::GameReport& r : resp.reports()) {
    ++t.records;
    ++(r.failed() ? t.failed : t.ok);
    if (ctx.json) continue;
    const std::string name =
        resp.reports_size() == 1
            ? resp.record_id()
            : resp.record_id() + "[" + std::to_string(r.game_index()) + "]";
    std::cout << RecordLine(name, r, args.verbose) << "\n";
    if (args.verbose) PrintVerbose(r);
  }
}

// Reads `path` whole; false when it cannot be read.
bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return !in.bad();
}

bool TooLargeToSend(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && st.st_size > kMaxSendBytes;
}

void AnswerTooLarge(const CliContext& ctx, const CheckArgs& args,
                    const std::string& path, Tally& t) {
  v1::CheckGameRecordsResponse local;
  local.set_record_id(path);
  local.set_error_code("RESOURCE_EXHAUSTED");
  local.set_error_message(
      "file over rankctl's " + std::to_string(kMaxSendBytes) +
      "-byte send limit, not sent (the server checks records up to 1 MiB)");
  PrintAnswer(ctx, args, local, t);
}

// Sends files [begin, end) on one stream and prints the answers in order;
// files too large to send are answered here. -1 to go on, else the exit
// status (a call failure or an unreadable file).
int CheckChunk(CliContext& ctx, const CheckArgs& args,
               const v1::CheckOptions& options, size_t begin, size_t end,
               Tally& t) {
  std::vector<char> skip(end - begin);
  for (size_t i = begin; i < end; ++i)
    skip[i - begin] = TooLargeToSend(args.files[i]);
  auto stub = v1::RulesService::NewStub(ctx.Channel());
  auto call = ctx.NewCall();
  if (!call) return kExitUsage;
  auto stream = stub->CheckGameRecords(call.get());
  bool read_failed = false;
  // Writer and reader run at once, so neither side's flow-control window
  // can fill up while the other waits.
  std::thread writer([&] {
    for (size_t i = begin; i < end; ++i) {
      if (skip[i - begin]) continue;
      v1::CheckGameRecordsRequest req;
      req.set_record_id(args.files[i]);
      if (!ReadFile(args.files[i], req.mutable_sgf())) {
        read_failed = true;
        break;
      }
      *req.mutable_options() = options;
      if (!stream->Write(req)) break;
    }
    stream->WritesDone();
  });
  v1::CheckGameRecordsResponse resp;
  size_t next = begin;
  auto skip_ahead = [&] {
    for (; next < end && skip[next - begin]; ++next)
      AnswerTooLarge(ctx, args, args.files[next], t);
  };
  while (stream->Read(&resp)) {
    skip_ahead();
    PrintAnswer(ctx, args, resp, t);
    ++next;
  }
  writer.join();
  const grpc::Status status = stream->Finish();
  if (read_failed)
    return CliContext::Usage("a file could not be read while sending");
  if (!status.ok()) return ctx.Fail(status);
  skip_ahead();
  return -1;
}

// ---- Gomoku ----

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string FoulText(const v1::GomokuForbiddenMove& f) {
  std::string out;
  for (int foul : f.fouls()) {
    out += out.empty() ? "" : "+";
    out += foul == v1::GOMOKU_FOUL_DOUBLE_THREE  ? "double three"
           : foul == v1::GOMOKU_FOUL_DOUBLE_FOUR ? "double four"
                                                 : "overline";
  }
  return out;
}

// "FILE  OK  black wins by five at move 9 (H4-H8); forbidden: move 7 J9 ...".
std::string GomokuLine(const std::string& name,
                       const v1::CheckGomokuRecordResponse& r, bool verbose) {
  std::vector<std::string> parts;
  if (r.violations_size() > 0) {
    const v1::GomokuViolation& v = r.violations(0);
    std::string first = v.message();
    if (v.move_number() > 0 && first.rfind("move ", 0) != 0)
      first = "move " + std::to_string(v.move_number()) + ": " + first;
    if (!verbose && r.violations_size() > 1)
      first += " (+" + std::to_string(r.violations_size() - 1) + " more)";
    parts.push_back(first);
  }
  parts.push_back(r.outcome().summary());
  std::string forbidden;
  for (const v1::GomokuForbiddenMove& f : r.forbidden_moves()) {
    forbidden += (forbidden.empty() ? "forbidden: move " : ", move ") +
                 std::to_string(f.move_number()) + " " + f.point() + " " +
                 FoulText(f) + (f.claimed() ? " (claimed)" : " (unclaimed)");
  }
  if (!forbidden.empty()) parts.push_back(forbidden);
  std::string line = name + "  " + (r.failed() ? "FAIL" : "OK") + "  ";
  for (size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : "") + parts[i];
  return line;
}

void PrintGomokuVerbose(const v1::CheckGomokuRecordResponse& r) {
  for (const v1::GomokuViolation& v : r.violations())
    std::cout << "    move " << v.move_number() << ": " << v.message() << "\n";
  for (const v1::GomokuForbiddenMove& f : r.forbidden_moves())
    std::cout << "    move " << f.move_number() << ": " << f.description()
              << "\n";
  for (const std::string& row : r.final_position())
    std::cout << "    " << row << "\n";
}

// Checks one file; -1 to go on, else the exit status (the call failed).
int CheckGomokuFile(CliContext& ctx, const CheckArgs& args,
                    const std::string& path, Tally& t) {
  v1::CheckGomokuRecordRequest req;
  if (!ReadFile(path, req.mutable_record()))
    return CliContext::Usage("cannot read " + path);
  req.set_ruleset(args.gomoku_rules == "freestyle"
                      ? v1::GOMOKU_RULESET_FREESTYLE
                      : v1::GOMOKU_RULESET_FORMAL);
  req.set_claim_policy(args.claim == "immediate"
                           ? v1::GOMOKU_CLAIM_POLICY_IMMEDIATE
                           : v1::GOMOKU_CLAIM_POLICY_AS_RECORDED);
  req.set_format(args.format == "sgf" ? v1::GOMOKU_RECORD_FORMAT_SGF
                 : args.format == "moves"
                     ? v1::GOMOKU_RECORD_FORMAT_MOVE_LIST
                     : v1::GOMOKU_RECORD_FORMAT_UNSPECIFIED);
  auto call = ctx.NewCall();
  if (!call) return kExitUsage;
  v1::CheckGomokuRecordResponse resp;
  const grpc::Status s = v1::RulesService::NewStub(ctx.Channel())
                             ->CheckGomokuRecord(call.get(), req, &resp);
  ++t.records;
  if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
      s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED ||
      s.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
    ++t.malformed;
    const std::string code = CodeName(s.error_code());
    if (ctx.json) {
      std::cout << "{\"record_id\":" << JsonString(path)
                << ",\"error_code\":" << JsonString(code)
                << ",\"error_message\":" << JsonString(s.error_message())
                << "}\n";
    } else {
      std::cout << path << "  MALFORMED  " << code << ": " << s.error_message()
                << "\n";
    }
    return -1;
  }
  if (!s.ok()) return ctx.Fail(s);
  ++(resp.failed() ? t.failed : t.ok);
  if (ctx.json) {
    std::string report;
    google::protobuf::util::JsonPrintOptions options;
    options.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(resp, &report, options);
    std::cout << "{\"record_id\":" << JsonString(path)
              << ",\"report\":" << report << "}\n";
  } else {
    std::cout << GomokuLine(path, resp, args.verbose) << "\n";
    if (args.verbose) PrintGomokuVerbose(resp);
  }
  return -1;
}

std::string XiangqiRuleName(v1::XiangqiRule r) {
  std::string name = v1::XiangqiRule_Name(r);
  name = name.substr(std::string("XIANGQI_RULE_").size());
  for (char& c : name) c = c == '_' ? ' ' : static_cast<char>(std::tolower(c));
  return name;
}

std::string XiangqiKindName(v1::XiangqiViolationKind k) {
  std::string name = v1::XiangqiViolationKind_Name(k);
  name = name.substr(std::string("XIANGQI_VIOLATION_KIND_").size());
  for (char& c : name) c = c == '_' ? ' ' : static_cast<char>(std::tolower(c));
  return name;
}

// "FILE  FAIL  move 3 (red) H8+6 (WXF): ... [illegal move, horse leg]".
std::string XiangqiLine(const std::string& name, const v1::XiangqiGameReport& g,
                        bool verbose) {
  std::vector<std::string> parts;
  if (g.violations_size() > 0) {
    const v1::XiangqiViolation& v = g.violations(0);
    std::string first = v.message() + " [" + XiangqiKindName(v.kind());
    if (v.rule() != v1::XIANGQI_RULE_UNSPECIFIED)
      first += ", " + XiangqiRuleName(v.rule());
    first += "]";
    if (!verbose && g.violations_size() > 1)
      first += " (+" + std::to_string(g.violations_size() - 1) + " more)";
    parts.push_back(first);
  }
  parts.push_back(g.outcome().summary());
  const std::string verdict = g.failed()          ? "FAIL"
                              : g.needs_arbiter() ? "ARBITER"
                                                  : "OK";
  std::string line = name + "  " + verdict + "  ";
  for (size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : "") + parts[i];
  return line;
}

void PrintXiangqiVerbose(const v1::XiangqiGameReport& g) {
  for (const v1::XiangqiViolation& v : g.violations())
    std::cout << "    " << v.message() << "\n";
  for (const v1::XiangqiRepetition& r : g.repetitions())
    std::cout << "    repetition, moves " << r.first_move() << "-"
              << r.last_move() << ": " << r.description() << "\n";
  std::cout << "    final position: " << g.final_fen() << "\n";
}

// Checks one Xiangqi file; -1 to go on, else the exit status (the call
// failed).
int CheckXiangqiFile(CliContext& ctx, const CheckArgs& args,
                     const std::string& path, Tally& t) {
  v1::CheckXiangqiRecordRequest req;
  if (!ReadFile(path, req.mutable_record()))
    return CliContext::Usage("cannot read " + path);
  req.set_notation(args.notation == "iccs"  ? v1::XIANGQI_NOTATION_ICCS
                   : args.notation == "wxf" ? v1::XIANGQI_NOTATION_WXF
                   : args.notation == "chinese"
                       ? v1::XIANGQI_NOTATION_CHINESE
                       : v1::XIANGQI_NOTATION_UNSPECIFIED);
  auto call = ctx.NewCall();
  if (!call) return kExitUsage;
  v1::CheckXiangqiRecordResponse resp;
  const grpc::Status s = v1::RulesService::NewStub(ctx.Channel())
                             ->CheckXiangqiRecord(call.get(), req, &resp);
  if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
      s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
    ++t.records;
    ++t.malformed;
    const std::string code = CodeName(s.error_code());
    if (ctx.json) {
      std::cout << "{\"record_id\":" << JsonString(path)
                << ",\"error_code\":" << JsonString(code)
                << ",\"error_message\":" << JsonString(s.error_message())
                << "}\n";
    } else {
      std::cout << path << "  MALFORMED  " << code << ": " << s.error_message()
                << "\n";
    }
    return -1;
  }
  if (!s.ok()) return ctx.Fail(s);
  for (int i = 0; i < resp.games_size(); ++i) {
    const v1::XiangqiGameReport& g = resp.games(i);
    ++t.records;
    if (g.failed() || g.needs_arbiter()) {
      ++t.failed;
      if (!g.failed()) ++t.arbiter;
    } else {
      ++t.ok;
    }
    if (ctx.json) continue;
    const std::string name =
        resp.games_size() == 1 ? path : path + "[" + std::to_string(i) + "]";
    std::cout << XiangqiLine(name, g, args.verbose) << "\n";
    if (args.verbose) PrintXiangqiVerbose(g);
  }
  if (ctx.json) {
    std::string report;
    google::protobuf::util::JsonPrintOptions options;
    options.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(resp, &report, options);
    std::cout << "{\"record_id\":" << JsonString(path)
              << ",\"report\":" << report << "}\n";
  }
  return -1;
}

// The summary line (or JSON object); the exit status of the check.
int PrintSummary(const CliContext& ctx, const Tally& t) {
  if (ctx.json) {
    std::cout << "{\"records\":" << t.records << ",\"ok\":" << t.ok
              << ",\"failed\":" << t.failed << ",\"malformed\":" << t.malformed;
    if (t.arbiter > 0) std::cout << ",\"needs_arbiter\":" << t.arbiter;
    std::cout << "}\n";
  } else {
    std::cout << t.records << " records: " << t.ok << " ok, " << t.failed
              << " failed, " << t.malformed << " malformed";
    if (t.arbiter > 0)
      std::cout << " (" << t.arbiter << " of the failed need an arbiter)";
    std::cout << "\n";
  }
  return t.failed + t.malformed > 0 ? kExitCheckFailed : kExitOk;
}

int RunCheck(CliContext& ctx, const CheckArgs& args) {
  for (const std::string& f : args.files) {
    struct stat st;
    if (::stat(f.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        !std::ifstream(f, std::ios::binary)) {
      return CliContext::Usage("cannot read " + f + " (not a readable file)");
    }
  }
  Tally t;
  if (args.game == "gomoku") {
    for (const std::string& f : args.files) {
      if (int rc = CheckGomokuFile(ctx, args, f, t); rc >= 0) return rc;
    }
    return PrintSummary(ctx, t);
  }
  if (args.game == "xiangqi") {
    for (const std::string& f : args.files) {
      if (int rc = CheckXiangqiFile(ctx, args, f, t); rc >= 0) return rc;
    }
    return PrintSummary(ctx, t);
  }
  v1::CheckOptions options;
  if (!BuildOptions(args, &options)) return kExitUsage;
  for (size_t begin = 0; begin < args.files.size(); begin += kFilesPerStream) {
    const size_t end = std::min(args.files.size(), begin + kFilesPerStream);
    if (int rc = CheckChunk(ctx, args, options, begin, end, t); rc >= 0)
      return rc;
  }
  return PrintSummary(ctx, t);
}

}  // namespace

void AddRulesCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto a = std::make_shared<CheckArgs>();
  auto* check = app.add_subcommand(
      "check",
      "check Go (SGF), Gomoku (SGF GM[4] or move list) or Xiangqi (PGN) "
      "game records against the rules; public, no token needed");
  check
      ->add_option("files", a->files,
                   "record files (a Go collection's games are FILE[0], "
                   "FILE[1] ...)")
      ->required();
  check->add_option("--game", a->game, "go | gomoku (五子棋) | xiangqi (象棋)")
      ->check(CLI::IsMember({"go", "gomoku", "xiangqi"}))
      ->capture_default_str();
  check
      ->add_option(
          "--notation", a->notation,
          "with --game xiangqi: auto ([Format], else each move's) | iccs | "
          "wxf | chinese")
      ->check(CLI::IsMember({"auto", "iccs", "wxf", "chinese"}))
      ->capture_default_str();
  check
      ->add_option("--gomoku-rules", a->gomoku_rules,
                   "with --game gomoku: formal (black's forbidden moves) | "
                   "freestyle")
      ->check(CLI::IsMember({"formal", "freestyle"}))
      ->capture_default_str();
  check
      ->add_option("--claim", a->claim,
                   "with --game gomoku: as-recorded | immediate (white claims "
                   "black's first forbidden move)")
      ->check(CLI::IsMember({"as-recorded", "immediate"}))
      ->capture_default_str();
  check
      ->add_option("--format", a->format,
                   "with --game gomoku: auto | sgf | moves (\"H8 I9 ...\")")
      ->check(CLI::IsMember({"auto", "sgf", "moves"}))
      ->capture_default_str();
  check
      ->add_option("--ruleset", a->ruleset,
                   "chinese (area) | japanese | korean (territory)")
      ->check(CLI::IsMember({"chinese", "japanese", "korean"}))
      ->capture_default_str();
  check
      ->add_option("--ko", a->ko,
                   "situational | positional | simple | cycles (report cycles)")
      ->check(CLI::IsMember({"situational", "positional", "simple", "cycles"}))
      ->capture_default_str();
  check
      ->add_option("--cycle-ruling", a->cycle,
                   "with --ko cycles: no-result | draw | replay")
      ->check(CLI::IsMember({"no-result", "draw", "replay"}))
      ->capture_default_str();
  check->add_option("--komi", a->komi,
                    "komi in points, overrides KM (e.g. 7.5)");
  check->add_option("--variation", a->variation,
                    "branch at each fork, e.g. 0,1 (default: main line)");
  check->add_option("--dead", a->dead,
                    "dead stones as SGF points, one a chain (e.g. dd,pq)");
  check
      ->add_option("--black-warnings", a->black_warnings,
                   "referee warnings to black")
      ->check(CLI::Range(0, 9));
  check
      ->add_option("--white-warnings", a->white_warnings,
                   "referee warnings to white")
      ->check(CLI::Range(0, 9));
  check->add_flag("--verbose,-v", a->verbose,
                  "every violation, the result check and the notes");
  check->callback([&, a] { action = [&, a] { return RunCheck(ctx, *a); }; });
}

}  // namespace gorank::cli
