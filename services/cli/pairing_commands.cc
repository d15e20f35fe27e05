// rankctl event pair | sheet, and the per-board result of a paired round
// (event result --board B --winner ...): the director's pairing desk.
// Players are named by their entrant number in the event (the ID column of
// `rankctl event entrants`).
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gorank/v1/tournaments.grpc.pb.h"
#include "services/cli/certificate_print.h"
#include "services/cli/commands.h"
#include "services/cli/integer_args.h"
#include "services/cli/pairing_sheet.h"
#include "services/cli/unary.h"

namespace gorank::cli {
namespace {

using Stub = v1::TournamentService::Stub;

// One call with the shared context; false (message printed, *exit set) when
// it fails.
template <typename Req, typename Resp, typename Method>
bool Call(CliContext& ctx, Stub& stub, Method method, const Req& req,
          Resp* resp, int* exit) {
  auto call = ctx.NewCall();
  if (!call) {
    *exit = kExitUsage;
    return false;
  }
  const grpc::Status s = (stub.*method)(call.get(), req, resp);
  if (!s.ok()) {
    *exit = ctx.Fail(s);
    return false;
  }
  return true;
}

std::string Komi(int komi_x2) {
  std::string s = std::to_string(komi_x2 / 2);
  if (komi_x2 % 2 != 0)
    s = (komi_x2 < 0 && komi_x2 / 2 == 0 ? "-" : "") + s + ".5";
  return s;
}

// "12 Wang Lei (5d)"; "#12" when the event has no such entrant.
class Names {
 public:
  explicit Names(const v1::EventResults& r) {
    for (const v1::Entrant& e : r.entrants()) {
      std::string name = e.family_name();
      if (!e.given_name().empty()) {
        const bool cjk = !name.empty() &&
                         static_cast<unsigned char>(name.back()) >= 0x80 &&
                         static_cast<unsigned char>(e.given_name()[0]) >= 0x80;
        name += (cjk ? "" : " ") + e.given_name();
      }
      if (e.has_rank()) name += " (" + RankText(e.rank()) + ")";
      names_[e.id()] = std::to_string(e.id()) + " " + name;
    }
  }
  std::string operator()(int id) const {
    const auto it = names_.find(id);
    return it != names_.end() ? it->second : "#" + std::to_string(id);
  }

 private:
  std::map<int, std::string> names_;
};

std::string ByeText(const v1::Bye& b, const Names& names) {
  return names(b.entrant_id()) + ": " +
         (b.points() == 2   ? "bye, 2 points"
          : b.points() == 0 ? "absent, 0 points"
                            : "bye, 1 point");
}

void PrintPairing(const v1::PairRoundResponse& resp, const Names& names,
                  int64_t event_id) {
  const v1::Pairing& p = resp.pairing();
  std::cout << "round " << p.round() << " of event " << event_id << " (seed "
            << p.seed() << "): " << p.boards_size() << " boards, "
            << p.byes_size() << " byes"
            << (resp.stored() ? "; stored, awaiting results"
                              : " (dry run: nothing stored)")
            << "\n";
  std::vector<std::vector<std::string>> rows = {
      {"BOARD", "WHITE", "BLACK", "HANDICAP", "KOMI"}};
  for (const v1::PairedBoard& b : p.boards()) {
    rows.push_back({std::to_string(b.board()), names(b.white_entrant_id()),
                    names(b.black_entrant_id()), std::to_string(b.handicap()),
                    Komi(b.komi_x2())});
  }
  PrintTable(rows);
  for (const v1::Bye& b : p.byes()) std::cout << ByeText(b, names) << "\n";
  if (p.decisions_size() > 0) std::cout << "decisions:\n";
  for (const std::string& d : p.decisions()) std::cout << "  " << d << "\n";
}

// "3-17" -> {3, 17}.
bool PairSpec(const std::string& spec, int32_t* a, int32_t* b) {
  const size_t dash = spec.find('-');
  const std::string_view text(spec);
  return dash != std::string::npos && ParseDecimal(text.substr(0, dash), a) &&
         ParseDecimal(text.substr(dash + 1), b) && *a > 0 && *b > 0;
}

struct PairArgs {
  v1::PairRoundRequest req;
  std::vector<std::string> pairs;
};

int Pair(CliContext& ctx, PairArgs& a) {
  for (const std::string& spec : a.pairs) {
    int32_t x = 0, y = 0;
    if (!PairSpec(spec, &x, &y) || x == y) {
      return CliContext::Usage("--pair '" + spec +
                               "': expected A-B, two different entrant "
                               "numbers (rankctl event entrants)");
    }
    v1::ForcedPair* f = a.req.add_forced_pairs();
    f->set_first_entrant_id(x);
    f->set_second_entrant_id(y);
  }
  auto stub = v1::TournamentService::NewStub(ctx.Channel());
  v1::PairRoundResponse resp;
  int exit = kExitOk;
  if (!Call(ctx, *stub, &Stub::PairRound, a.req, &resp, &exit)) return exit;
  if (ctx.json) return ctx.Print(resp, [] {});
  v1::GetResultsRequest rreq;
  rreq.set_event_id(a.req.event_id());
  v1::GetResultsResponse results;
  if (!Call(ctx, *stub, &Stub::GetResults, rreq, &results, &exit)) return exit;
  PrintPairing(resp, Names(results.results()), a.req.event_id());
  return kExitOk;
}

void AddPair(CLI::App* event, CliContext& ctx, Action& action) {
  auto* pair = event->add_subcommand(
      "pair",
      "pair the next round of a Swiss (or McMahon) event and store it as the "
      "round's games awaiting results (a round without results can be "
      "re-paired). PLAYER, A and B are entrant numbers in the event (the ID "
      "column of `rankctl event entrants`), not registry player ids");
  auto a = std::make_shared<PairArgs>();
  v1::PairRoundRequest* r = &a->req;
  pair->add_option_function<int64_t>(
          "event", [r](int64_t v) { r->set_event_id(v); }, "event id")
      ->required();
  pair->add_option_function<int32_t>(
          "--round", [r](int32_t v) { r->set_round(v); }, "round to pair")
      ->required();
  pair->add_flag_function(
      "--dry-run", [r](int64_t n) { r->set_dry_run(n > 0); },
      "show the pairing; store nothing");
  pair->add_option_function<std::vector<int32_t>>(
      "--swap",
      [r](const std::vector<int32_t>& v) {
        for (int32_t b : v) r->add_swap_boards(b);
      },
      "BOARD: swap the colours of that board (repeat)");
  pair->add_option("--pair", a->pairs,
                   "A-B: entrants A and B play each other this round "
                   "(colours by the rules; repeat)");
  pair->add_option_function<std::vector<int32_t>>(
      "--bye",
      [r](const std::vector<int32_t>& v) {
        for (int32_t e : v) r->add_byes(e);
      },
      "PLAYER: give that entrant the bye (2 points; repeat)");
  pair->add_option_function<std::vector<int32_t>>(
      "--absent",
      [r](const std::vector<int32_t>& v) {
        for (int32_t e : v) r->add_absent(e);
      },
      "PLAYER: that entrant is absent this round: not paired, 0 points "
      "(repeat)");
  pair->callback(
      [&, a] { action = [&, a]() -> int { return Pair(ctx, *a); }; });
}

struct SheetArgs {
  int64_t event_id = 0;
  int32_t round = 0;
  std::string out;
};

int Sheet(CliContext& ctx, const SheetArgs& a) {
  auto stub = v1::TournamentService::NewStub(ctx.Channel());
  int exit = kExitOk;
  v1::GetEventRequest ereq;
  ereq.set_event_id(a.event_id);
  v1::GetEventResponse event;
  if (!Call(ctx, *stub, &Stub::GetEvent, ereq, &event, &exit)) return exit;
  v1::GetResultsRequest rreq;
  rreq.set_event_id(a.event_id);
  v1::GetResultsResponse results;
  if (!Call(ctx, *stub, &Stub::GetResults, rreq, &results, &exit)) return exit;
  const Names names(results.results());
  PairingSheet sheet;
  sheet.event_name = event.event().name();
  sheet.event_id = a.event_id;
  sheet.round = a.round;
  std::vector<v1::Game> games;
  for (const v1::Game& g : results.results().games()) {
    if (g.round() == a.round && g.kind() != v1::GAME_KIND_PLACE_PLAYOFF)
      games.push_back(g);
  }
  std::stable_sort(games.begin(), games.end(),
                   [](const v1::Game& x, const v1::Game& y) {
                     return x.board() < y.board();
                   });
  int n = 0;
  for (const v1::Game& g : games) {
    ++n;
    sheet.boards.push_back(
        {g.board() > 0 ? g.board() : n, names(g.white_entrant_id()),
         names(g.black_entrant_id()), g.handicap(),
         Komi(g.has_komi() ? g.komi_x2() : event.event().rules().komi_x2())});
  }
  for (const v1::Bye& b : results.results().byes()) {
    if (b.round() == a.round) sheet.byes.push_back(ByeText(b, names));
  }
  if (sheet.boards.empty()) {
    std::cerr << "rankctl: round " << a.round << " of event " << a.event_id
              << " has no games (pair it first: rankctl event pair "
              << a.event_id << " --round " << a.round << ")\n";
    return kExitCallFailed;
  }
  absl::StatusOr<std::string> pdf = RenderPairingSheetPdf(sheet);
  if (!pdf.ok()) {
    std::cerr << "rankctl: cannot draw the sheets: " << pdf.status().message()
              << "\n";
    return kExitCallFailed;
  }
  std::string error;
  if (!WriteFileAtomically(a.out, *pdf, &error)) {
    std::cerr << "rankctl: " << error << "\n";
    return kExitCallFailed;
  }
  std::cout << "wrote " << a.out << " (" << PairingSheetPages(sheet)
            << " pages): the pairing of round " << a.round << " ("
            << sheet.boards.size() << " boards, " << sheet.byes.size()
            << " byes) and a result slip a board\n";
  return kExitOk;
}

void AddSheet(CLI::App* event, CliContext& ctx, Action& action) {
  auto* sheet = event->add_subcommand(
      "sheet",
      "write a printable PDF of a round: the pairing list and a result slip "
      "a board (public)");
  auto a = std::make_shared<SheetArgs>();
  sheet->add_option("event", a->event_id, "event id")->required();
  sheet->add_option("--round", a->round, "round")->required();
  sheet->add_option("--out", a->out, "the PDF file to write")->required();
  sheet->callback(
      [&, a] { action = [&, a]() -> int { return Sheet(ctx, *a); }; });
}

}  // namespace

void AddPairingCommands(CLI::App* event, CliContext& ctx, Action& action) {
  AddPair(event, ctx, action);
  AddSheet(event, ctx, action);
}

int RecordBoardResult(CliContext& ctx, int64_t event_id, int32_t round,
                      int32_t board, const std::string& winner, bool forfeit) {
  v1::GameOutcome outcome;
  if (winner == "black") {
    outcome = v1::GAME_OUTCOME_BLACK_WINS;
  } else if (winner == "white") {
    outcome = v1::GAME_OUTCOME_WHITE_WINS;
  } else if (winner == "jigo") {
    outcome = v1::GAME_OUTCOME_DRAW;
  } else if (winner == "both-lose") {
    outcome = v1::GAME_OUTCOME_BOTH_LOSE;
  } else {
    return CliContext::Usage(
        "--winner must be black, white, jigo or both-lose");
  }
  if (board < 1)
    return CliContext::Usage("--winner needs --board B (1 or more)");
  auto stub = v1::TournamentService::NewStub(ctx.Channel());
  int exit = kExitOk;
  v1::GetResultsRequest rreq;
  rreq.set_event_id(event_id);
  v1::GetResultsResponse results;
  if (!Call(ctx, *stub, &Stub::GetResults, rreq, &results, &exit)) return exit;
  const v1::Game* found = nullptr;
  for (const v1::Game& g : results.results().games()) {
    if (g.round() == round && g.board() == board &&
        g.kind() != v1::GAME_KIND_PLACE_PLAYOFF) {
      found = &g;
    }
  }
  if (found == nullptr) {
    std::cerr << "rankctl: round " << round << " of event " << event_id
              << " has no board " << board
              << " (boards are numbered by rankctl event pair; otherwise name "
                 "the game: --game BLACK-WHITE:RESULT)\n";
    return kExitCallFailed;
  }
  // The stored game with its outcome: handicap, komi and colours stay.
  v1::EditResultsRequest edit;
  edit.set_event_id(event_id);
  v1::Game* g = edit.add_set_games();
  *g = *found;
  g->set_outcome(outcome);
  g->set_forfeit(forfeit);
  v1::EditResultsResponse resp;
  if (!Call(ctx, *stub, &Stub::EditResults, edit, &resp, &exit)) return exit;
  return ctx.Print(resp, [&] {
    for (const std::string& c : resp.changes()) std::cout << c << "\n";
  });
}

}  // namespace gorank::cli
