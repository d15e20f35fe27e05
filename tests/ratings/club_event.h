// The event the ratings gRPC tests play their games in: a one-day, class-A
// city round robin organised by agency 110 (rated in full).
#ifndef GORANK_TESTS_RATINGS_CLUB_EVENT_H_
#define GORANK_TESTS_RATINGS_CLUB_EVENT_H_

#include <string>

#include "gorank/v1/tournaments.pb.h"
#include "services/common/date.h"

namespace gorank::ratings::test_events {

inline v1::Event ClubRoundRobin(const std::string& name, Date day) {
  v1::Event e;
  e.set_name(name);
  e.mutable_start()->set_year(day.year);
  e.mutable_start()->set_month(day.month);
  e.mutable_start()->set_day(day.day);
  *e.mutable_end() = e.start();
  e.set_organiser_prefix("110");
  e.set_level(v1::EVENT_LEVEL_CITY);
  e.set_competition("club_event");
  e.set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
  e.set_highest_group(true);
  e.set_shared_places_allowed(true);
  e.mutable_format()->set_kind(v1::FORMAT_KIND_ROUND_ROBIN);
  e.mutable_time()->set_time_class(v1::TIME_CLASS_A);
  return e;
}

}  // namespace gorank::ratings::test_events

#endif  // GORANK_TESTS_RATINGS_CLUB_EVENT_H_
