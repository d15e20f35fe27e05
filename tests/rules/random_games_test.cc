// Self-consistency: thousands of random games, generated with the engine's
// own legality test plus an independent situational-superko filter, must
// replay through the checker without a violation, end where they ended, and
// give the same final position and area count as a naive, independent board
// (string cells, flood-fill captures, flood-fill counting).
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/rules/go/board.h"
#include "services/rules/go/check.h"

namespace gorank::rules::go {
namespace {

// A deliberately simple board: row-major cells, '.', 'X', 'O'.
struct NaiveBoard {
  int n;
  std::string cells;

  explicit NaiveBoard(int size) : n(size), cells(size * size, '.') {}

  std::vector<int> Neighbours(int i) const {
    std::vector<int> out;
    int r = i / n, c = i % n;
    if (r > 0) out.push_back(i - n);
    if (r + 1 < n) out.push_back(i + n);
    if (c > 0) out.push_back(i - 1);
    if (c + 1 < n) out.push_back(i + 1);
    return out;
  }

  // The group through i and whether it has a liberty.
  std::set<int> Group(int i, bool* has_liberty) const {
    std::set<int> group{i};
    std::vector<int> todo{i};
    *has_liberty = false;
    while (!todo.empty()) {
      int j = todo.back();
      todo.pop_back();
      for (int k : Neighbours(j)) {
        if (cells[k] == '.') *has_liberty = true;
        if (cells[k] == cells[i] && group.insert(k).second) todo.push_back(k);
      }
    }
    return group;
  }

  // Plays assuming legality; captures first, then (for the test's own
  // sanity) reports whether the mover's group would be left dead.
  bool Play(char stone, int i) {
    cells[i] = stone;
    char other = stone == 'X' ? 'O' : 'X';
    for (int k : Neighbours(i)) {
      if (cells[k] != other) continue;
      bool alive;
      std::set<int> g = Group(k, &alive);
      if (!alive) {
        for (int s : g) cells[s] = '.';
      }
    }
    bool alive;
    Group(i, &alive);
    return alive;
  }

  // Area count: stones + regions bordered by one colour; both: shared.
  void Count(int* black, int* white, int* shared) const {
    *black = *white = *shared = 0;
    std::vector<bool> seen(cells.size(), false);
    for (size_t i = 0; i < cells.size(); ++i) {
      if (cells[i] == 'X') ++*black;
      if (cells[i] == 'O') ++*white;
      if (cells[i] != '.' || seen[i]) continue;
      int size = 0;
      bool b = false, w = false;
      std::vector<int> todo{static_cast<int>(i)};
      seen[i] = true;
      while (!todo.empty()) {
        int j = todo.back();
        todo.pop_back();
        ++size;
        for (int k : Neighbours(j)) {
          b = b || cells[k] == 'X';
          w = w || cells[k] == 'O';
          if (cells[k] == '.' && !seen[k]) {
            seen[k] = true;
            todo.push_back(k);
          }
        }
      }
      if (b && !w) *black += size;
      if (w && !b) *white += size;
      if (b == w) *shared += size;
    }
  }
};

struct Generated {
  std::string sgf;
  NaiveBoard final_board;
  bool two_passes;
  int moves;
};

Generated Generate(int size, std::mt19937_64& rng) {
  Board board(size);
  NaiveBoard naive(size);
  std::set<std::string> seen{naive.cells +
                             "X"};  // situations: cells + side to move
  std::string sgf = "(;GM[1]FF[4]SZ[" + std::to_string(size) + "]KM[7.5]";
  Color to_move = Color::kBlack;
  int passes = 0, moves = 0;
  const int cap = 3 * size * size;
  std::uniform_int_distribution<int> point(0, size * size - 1);
  while (passes < 2 && moves < cap) {
    std::string node = ";" + std::string(ColorLetter(to_move)) + "[]";
    char stone = to_move == Color::kBlack ? 'X' : 'O';
    char next = stone == 'X' ? 'O' : 'X';
    bool played = false;
    for (int attempt = 0; attempt < 30 && !played && rng() % 60 != 0;
         ++attempt) {
      int i = point(rng);
      Point p{i % size, i / size};
      if (board.Check(to_move, p) != Board::PlayResult::kOk) continue;
      NaiveBoard trial = naive;
      EXPECT_TRUE(trial.Play(stone, i)) << "engine allowed a suicide";
      if (seen.count(trial.cells + next)) continue;  // situational superko
      board.Play(to_move, p);
      naive = trial;
      node = ";" + std::string(ColorLetter(to_move)) + "[" + ToSgf(p) + "]";
      played = true;
    }
    if (played) {
      passes = 0;
    } else {
      board.Pass();
      ++passes;
    }
    sgf += node;
    ++moves;
    to_move = Opponent(to_move);
    seen.insert(naive.cells + next);
  }
  return Generated{sgf + ")", naive, passes >= 2, moves};
}

TEST(RandomGames, ReplayCleanlyAndCountLikeANaiveBoard) {
  std::mt19937_64 rng(20020101);  // fixed seed: the same games every run
  const std::pair<int, int> plan[] = {
      {5, 800}, {7, 600}, {9, 500}, {13, 100}, {19, 40}};
  int games = 0, total_moves = 0;
  for (const auto& [size, count] : plan) {
    for (int g = 0; g < count; ++g, ++games) {
      Generated game = Generate(size, rng);
      total_moves += game.moves;
      absl::StatusOr<std::vector<GameReport>> reports =
          CheckRecords(game.sgf, CheckOptions());
      ASSERT_TRUE(reports.ok()) << reports.status();
      const GameReport& r = reports->front();
      ASSERT_TRUE(r.violations.empty())
          << "game " << games << ": " << r.violations[0].description
          << " at move " << r.violations[0].move_number << "\n"
          << game.sgf;
      EXPECT_EQ(r.move_count, game.moves);
      EXPECT_EQ(r.end == GameEnd::kTwoPasses, game.two_passes);
      std::string position;
      for (const std::string& row : r.final_position) position += row;
      ASSERT_EQ(position, game.final_board.cells) << game.sgf;
      int black, white, shared;
      game.final_board.Count(&black, &white, &shared);
      EXPECT_EQ(r.count.black_area, black);
      EXPECT_EQ(r.count.white_area, white);
      EXPECT_EQ(r.count.shared_points, shared);
      EXPECT_EQ(r.count.margin_half_points, 2 * black - 2 * white - 15);
    }
  }
  EXPECT_EQ(games, 2040);
  EXPECT_GT(total_moves,
            100000);  // the games are long enough to mean something
}

}  // namespace
}  // namespace gorank::rules::go
