// Conversions between the tournaments domain and gorank.v1 messages
// (tournaments.proto). Request-side conversions validate and return
// INVALID_ARGUMENT naming the field; answer-side conversions cannot fail.
// Proto3 zero values: a Format's cycles and lives of 0 mean 1; an Event
// without `rules` gets the domain defaults (Chinese rules, komi 7.5); a Game's
// colours_known and a Bye's points are taken as sent (false, 0 = a free
// round), so clients set them.
#ifndef GORANK_SERVICES_TOURNAMENTS_TOURNAMENT_PROTO_CONVERT_H_
#define GORANK_SERVICES_TOURNAMENTS_TOURNAMENT_PROTO_CONVERT_H_

#include "absl/status/statusor.h"
#include "gorank/v1/tournaments.pb.h"
#include "services/tournaments/competition_catalogue.h"
#include "services/tournaments/event_desk.h"
#include "services/tournaments/event_repository.h"
#include "services/tournaments/result_file.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments {

absl::StatusOr<Event> EventFromProto(const v1::Event& e);
void EventToProto(const Event& e, v1::Event* out);

absl::StatusOr<EventResults> ResultsFromProto(const v1::EventResults& r);
void ResultsToProto(const EventResults& r, v1::EventResults* out);
absl::StatusOr<Game> GameFromProto(const v1::Game& g, const std::string& field);
absl::StatusOr<Bye> ByeFromProto(const v1::Bye& b);

absl::StatusOr<EventFilter> FilterFromProto(const v1::ListEventsRequest& req);
absl::StatusOr<ResultFileFormat> FileFormatFromProto(v1::ResultFileFormat f);

void StandingsToProto(const Standings& s, v1::Standings* out);
void PlayerPlaceToProto(const PlayerPlace& p, v1::PlayerPlace* out);
void CompetitionToProto(const Competition& c, v1::Competition* out);

// EditResults: INVALID_ARGUMENT naming the field (ranks, enums, byes).
absl::StatusOr<ResultsEdit> EditFromProto(const v1::EditResultsRequest& req);
// The import's resolutions and switches (checked by the desk).
ImportOptions ImportOptionsFromProto(const v1::ImportResultsRequest& req);
void RowMatchToProto(const RowMatch& m, v1::RowMatch* out);

// Entrant/team and event enumerations (shared with eligibility.proto).
v1::SubEvent SubEventToProto(SubEvent s);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_TOURNAMENT_PROTO_CONVERT_H_
