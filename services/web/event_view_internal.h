// Shared by event_view.cc (list, facts, standings) and event_tables.cc
// (cross table, rounds, teams): the tournament pages' own texts in both
// languages and small helpers. Not for other modules.
#ifndef GORANK_SERVICES_WEB_EVENT_VIEW_INTERNAL_H_
#define GORANK_SERVICES_WEB_EVENT_VIEW_INTERNAL_H_

#include <map>
#include <string>
#include <vector>

#include "gorank/v1/tournaments.pb.h"
#include "services/web/html.h"

namespace gorank::web::event_view {

struct EventTexts {
  const char* list_title;
  const char* filter_legend;
  const char* agency_label;
  const char* year_label;
  const char* from_label;
  const char* to_label;
  const char* filter_button;
  const char* list_caption;
  const char* none;
  const char* next_page;
  const char* col_dates;
  const char* col_name;
  const char* col_place;
  const char* col_organiser;
  const char* col_level;
  const char* col_state;
  const char* closed;
  const char* open;
  const char* facts_dates;
  const char* facts_place;
  const char* facts_organiser;
  const char* facts_level;
  const char* facts_competition;
  const char* facts_system;
  const char* facts_rounds;
  const char* facts_rules;
  const char* facts_state;
  const char* facts_files;
  const char* egf_file;
  const char* csv_file;
  const char* standings;
  const char* standings_caption;
  const char* final_standings;
  const char* pending_results;
  const char* pending_playoff;
  const char* col_rank_place;
  const char* col_player;
  const char* col_team;
  const char* col_rank;
  const char* col_note;
  const char* shared_suffix;  // after a shared place range, for readers
  const char* pending_place;  // followed by the range in brackets
  const char* by_playoff;
  const char* by_lots;
  const char* voided;
  const char* cross_table;
  const char* cross_caption_rr;
  const char* cross_caption_rounds;
  const char* cross_caption_teams;
  const char* cross_legend;
  const char* rounds;
  const char* round_word_before;  // "第" / "Round "
  const char* round_word_after;   // "轮" / ""
  const char* playoffs;
  const char* teams;
  const char* board_order;
  const char* match_caption;  // before the two team names
  const char* board_points;
  const char* match_points;
  const char* col_board;
  const char* col_black;
  const char* col_white;
  const char* col_result;
  const char* table_scroll;  // aria-label of a scrolling table wrapper
  const char* relay_players;
  const char* col_games_won;
  const char* col_games_played;
  const char* still_in;
  const char* left_after_game;
};

const EventTexts& TextsOf(Lang lang);

std::string E(const std::string& s);
// "第3轮" / "Round 3".
std::string RoundName(Lang lang, int round);
// A table inside a horizontally scrolling, focusable wrapper.
std::string Scroll(Lang lang, const std::string& table_html);
// Entrant id -> entrant.
std::map<int, const v1::Entrant*> EntrantsById(const v1::EventResults& r);
// The entrant's name (escaped), linked to /players/{id} when registered.
std::string EntrantLink(Lang lang, const v1::Entrant& e);
// Rows of the cross tables: the standings' order, then anyone else (by id).
std::vector<int> RowOrder(const v1::Standings& standings,
                          const std::vector<int>& all_ids);
// The rounds the results span: the event's R (or rounds of a round robin)
// when set, else the highest regular round recorded.
int RoundCount(const v1::Event& event, const v1::EventResults& results);
bool IsTeamFormat(v1::FormatKind kind);

// event_tables.cc
std::string CrossTableSection(Lang lang, const v1::Event& event,
                              const v1::EventResults& results,
                              const v1::Standings& standings);
std::string RoundsSection(Lang lang, const v1::Event& event,
                          const v1::EventResults& results,
                          const v1::Standings& standings);
std::string TeamsSection(Lang lang, const v1::EventResults& results);

}  // namespace gorank::web::event_view

#endif  // GORANK_SERVICES_WEB_EVENT_VIEW_INTERNAL_H_
