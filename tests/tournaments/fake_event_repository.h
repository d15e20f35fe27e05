// In-memory EventRepository for tests. Thread-safe (one mutex). Keeps the
// ChangeRecords it was handed, in order, where SQLite appends them to the
// audit log.
#ifndef GORANK_TESTS_TOURNAMENTS_FAKE_EVENT_REPOSITORY_H_
#define GORANK_TESTS_TOURNAMENTS_FAKE_EVENT_REPOSITORY_H_

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "services/common/status_macros.h"
#include "services/tournaments/event_repository.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments::testing {

class FakeEventRepository : public EventRepository {
 public:
  absl::StatusOr<Event> CreateEvent(const Event& event,
                                    const ChangeRecord& audit) override {
    GORANK_RETURN_IF_ERROR(ValidateEvent(event));
    std::lock_guard<std::mutex> lock(mu_);
    Event stored = event;
    stored.id = EventId{++last_id_};
    events_[stored.id.value] = {stored, EventResults{}};
    audit_.push_back(audit);
    audit_.back().subject = "event:" + std::to_string(stored.id.value);
    return stored;
  }
  absl::StatusOr<Event> GetEvent(EventId id) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(id.value);
    if (it == events_.end()) return NotFound(id);
    return it->second.first;
  }
  absl::Status UpdateEvent(const Event& event,
                           const ChangeRecord& audit) override {
    GORANK_RETURN_IF_ERROR(ValidateEvent(event));
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(event.id.value);
    if (it == events_.end()) return NotFound(event.id);
    if (it->second.first.closed) return Closed(event.id);
    it->second.first = event;
    audit_.push_back(audit);
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<Event>> ListEvents(
      const EventFilter& f) const override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Event> out;
    for (const auto& [id, entry] : events_) {
      const Event& e = entry.first;
      if (!f.organiser_prefix.empty() &&
          e.organiser_prefix != f.organiser_prefix)
        continue;
      if (!f.competition.empty() && e.competition != f.competition) continue;
      if (f.starts_on_or_after && e.start < *f.starts_on_or_after) continue;
      if (f.starts_on_or_before && e.start > *f.starts_on_or_before) continue;
      if (f.player &&
          std::none_of(
              entry.second.entrants.begin(), entry.second.entrants.end(),
              [&](const Entrant& en) { return en.player_id == f.player; }))
        continue;
      if (!f.name_contains.empty() &&
          AsciiLower(e.name).find(AsciiLower(f.name_contains)) ==
              std::string::npos)
        continue;
      if (f.after_start && !f.newest_first &&
          (e.start < *f.after_start ||
           (e.start == *f.after_start && e.id.value <= f.after_id)))
        continue;
      if (f.after_start && f.newest_first &&
          (*f.after_start < e.start ||
           (e.start == *f.after_start && e.id.value >= f.after_id)))
        continue;
      out.push_back(e);
    }
    std::stable_sort(
        out.begin(), out.end(),
        [](const Event& a, const Event& b) { return a.start < b.start; });
    if (f.newest_first) std::reverse(out.begin(), out.end());
    if (f.limit > 0 && out.size() > static_cast<size_t>(f.limit))
      out.resize(static_cast<size_t>(f.limit));
    return out;
  }
  absl::StatusOr<EventResults> GetResults(EventId id) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(id.value);
    if (it == events_.end()) return NotFound(id);
    return it->second.second;
  }
  absl::Status SaveResults(EventId id, const EventResults& results,
                           const ChangeRecord& audit) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(id.value);
    if (it == events_.end()) return NotFound(id);
    GORANK_RETURN_IF_ERROR(ValidateResults(it->second.first, results));
    if (it->second.first.closed &&
        !OnlyTieDecisionsDiffer(it->second.second, results)) {
      return Closed(id);
    }
    it->second.second = results;
    audit_.push_back(audit);
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<EventId>> EventsOfPlayer(
      registry::PlayerId player_id) const override {
    std::vector<Event> all;
    GORANK_ASSIGN_OR_RETURN(all, ListEvents(EventFilter{}));
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<EventId> out;
    for (const Event& e : all) {
      for (const Entrant& en : events_.at(e.id.value).second.entrants) {
        if (en.player_id == player_id) {
          out.push_back(e.id);
          break;
        }
      }
    }
    return out;
  }

  std::vector<ChangeRecord> audit() const {
    std::lock_guard<std::mutex> lock(mu_);
    return audit_;
  }

 private:
  static std::string AsciiLower(std::string s) {
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
  }
  static absl::Status NotFound(EventId id) {
    return absl::NotFoundError("no event with id " + std::to_string(id.value));
  }
  static absl::Status Closed(EventId id) {
    return absl::FailedPreconditionError("event " + std::to_string(id.value) +
                                         " is closed: its results are final");
  }

  mutable std::mutex mu_;
  int64_t last_id_ = 0;
  std::map<int64_t, std::pair<Event, EventResults>> events_;
  std::vector<ChangeRecord> audit_;
};

}  // namespace gorank::tournaments::testing

#endif  // GORANK_TESTS_TOURNAMENTS_FAKE_EVENT_REPOSITORY_H_
