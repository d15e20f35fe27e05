#include "services/certificates/index_follower.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

#include "services/common/status_macros.h"

namespace gorank::certificates {
namespace {

using Clock = std::chrono::steady_clock;

// "players:42" -> 42; 0 when not a positive integer.
int64_t IdOf(std::string_view key) {
  if (key.empty() || key.size() > 18) return 0;
  int64_t v = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string Millis(Clock::duration d) {
  return std::to_string(
             std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) +
         " ms";
}

}  // namespace

IndexFollower::IndexFollower(PublicIndex* index, CertificateRepository* certs,
                             registry::RegistryRepository* registry,
                             ChangeFeed* feed, FollowerOptions options,
                             Listener listener)
    : index_(index),
      certs_(certs),
      registry_(registry),
      feed_(feed),
      options_(options),
      listener_(std::move(listener)),
      fresh_as_of_(Clock::now()) {}

IndexFollower::~IndexFollower() { Stop(); }

void IndexFollower::SetPosition(int64_t position) {
  position_.store(position);
  std::lock_guard<std::mutex> lock(mu_);
  stats_.position = position;
  fresh_as_of_ = Clock::now();
}

void IndexFollower::Start() {
  follower_ = std::thread([this] { Run(); });
  watchdog_ = std::thread([this] { Watch(); });
}

void IndexFollower::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  feed_->Interrupt();
  if (follower_.joinable()) follower_.join();
  if (watchdog_.joinable()) watchdog_.join();
}

FollowerStats IndexFollower::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  FollowerStats s = stats_;
  s.seconds_behind =
      std::chrono::duration<double>(Clock::now() - fresh_as_of_).count();
  return s;
}

void IndexFollower::Tell(bool error, const std::string& what) {
  if (listener_) listener_(error, what);
}

absl::Status IndexFollower::CatchUp() {
  if (!connected_) {
    absl::Status c = feed_->Connect();
    if (!c.ok()) return c;
    connected_ = true;
    absl::StatusOr<int64_t> head = feed_->Head();
    if (!head.ok()) {
      connected_ = false;
      return head.status();
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      stats_.connected = true;
      if (ever_connected_) ++stats_.reconnects;
    }
    if (ever_connected_) {
      Tell(false, "change feed connected again; replaying from position " +
                      std::to_string(position_.load()) + " (head " +
                      std::to_string(*head) + ")");
    }
    ever_connected_ = true;
    if (*head < position_.load()) {
      Tell(true, "the audit log ends at " + std::to_string(*head) +
                     ", before the follower's position " +
                     std::to_string(position_.load()) +
                     " (another database?): rebuilding the public index");
      GORANK_RETURN_IF_ERROR(Rebuild());
    }
  }
  // Invalidated (a local read-back failed): built again from the database.
  if (!index_->usable() && !index_->stale()) GORANK_RETURN_IF_ERROR(Rebuild());
  while (true) {
    const Clock::time_point start = Clock::now();
    const int64_t from = position_.load();
    absl::StatusOr<std::vector<FeedChange>> changes =
        feed_->After(from, options_.batch);
    if (!changes.ok()) {
      connected_ = false;
      std::lock_guard<std::mutex> lock(mu_);
      stats_.connected = false;
      return changes.status();
    }
    GORANK_ASSIGN_OR_RETURN(const bool whole, Apply(*changes));
    if (!whole) return absl::OkStatus();  // at a gap: again next round
    if (changes->empty() || changes->back().seq < from + options_.batch) {
      std::lock_guard<std::mutex> lock(mu_);
      fresh_as_of_ = std::max(fresh_as_of_, start);
      return absl::OkStatus();
    }
  }
}

absl::StatusOr<bool> IndexFollower::Apply(
    const std::vector<FeedChange>& changes) {
  std::vector<std::string> rows;
  int64_t to = position_.load();
  bool whole = true;
  for (const FeedChange& c : changes) {
    if (c.seq <= to) continue;
    if (c.seq != to + 1) {
      // An earlier position not visible yet (or never written).
      const Clock::time_point now = Clock::now();
      if (gap_at_ != to + 1) {
        gap_at_ = to + 1;
        gap_since_ = now;
      }
      if (now - gap_since_ < options_.gap_wait) {
        whole = false;
        break;
      }
      Tell(true, "audit log positions " + std::to_string(to + 1) + ".." +
                     std::to_string(c.seq - 1) + " did not appear within " +
                     Millis(options_.gap_wait) + ": skipped");
    }
    rows.insert(rows.end(), c.rows.begin(), c.rows.end());
    to = c.seq;
  }
  if (to == position_.load()) return whole;
  GORANK_RETURN_IF_ERROR(Refresh(rows));
  const int64_t applied = to - position_.load();
  position_.store(to);
  std::lock_guard<std::mutex> lock(mu_);
  stats_.position = to;
  stats_.applied += applied;
  return whole;
}

absl::Status IndexFollower::Refresh(const std::vector<std::string>& rows) {
  std::set<std::string> numbers;
  std::set<int64_t> players;
  std::set<std::string> agencies;
  for (const std::string& row : rows) {
    const size_t colon = row.find(':');
    if (colon == std::string::npos) continue;
    const std::string_view table(row.data(), colon);
    const std::string key = row.substr(colon + 1);
    if (table == "certificates") {
      numbers.insert(key);
    } else if (table == "players") {
      if (const int64_t id = IdOf(key); id > 0) players.insert(id);
    } else if (table == "agencies") {
      agencies.insert(key);
    } else if (table == "objections") {
      const int64_t id = IdOf(key);
      if (id <= 0) continue;
      absl::StatusOr<Objection> o = certs_->GetObjection(id);
      if (absl::IsNotFound(o.status())) continue;
      if (!o.ok()) return o.status();
      numbers.insert(o->number.ToString());
    }
  }
  for (const std::string& text : numbers) {
    absl::StatusOr<CertificateNumber> n = CertificateNumber::Parse(text);
    if (!n.ok()) continue;  // not a number a public read can ask for
    GORANK_RETURN_IF_ERROR(index_->RefreshCertificate(
        *n, nullptr, [&] { return certs_->GetCertificate(*n); }));
  }
  for (int64_t id : players) {
    const registry::PlayerId pid{id};
    GORANK_RETURN_IF_ERROR(index_->RefreshPlayer(
        pid, nullptr, [&] { return registry_->GetPlayer(pid); }));
  }
  for (const std::string& prefix : agencies) {
    absl::StatusOr<registry::Agency> a = registry_->GetAgency(prefix);
    if (absl::IsNotFound(a.status())) continue;
    if (!a.ok()) return a.status();
    if (index_->AgencyName(prefix) != a->name) index_->PutAgency(*a);
  }
  return absl::OkStatus();
}

absl::Status IndexFollower::Rebuild() {
  const uint64_t since = index_->invalidations();
  absl::StatusOr<int64_t> head = feed_->Head();
  if (!head.ok()) {
    connected_ = false;
    return head.status();
  }
  const Clock::time_point start = Clock::now();
  absl::Status built = index_->Build(certs_, registry_);
  if (!built.ok()) {
    return absl::Status(built.code(), "rebuilding the public index: " +
                                          std::string(built.message()));
  }
  position_.store(*head);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.position = *head;
    ++stats_.rebuilds;
  }
  const bool valid = index_->Revalidate(since);
  Tell(!valid, "public index rebuilt from the database in " +
                   Millis(Clock::now() - start) + " at position " +
                   std::to_string(*head) +
                   (valid ? "" : "; invalidated again meanwhile"));
  return absl::OkStatus();
}

void IndexFollower::Run() {
  std::chrono::milliseconds backoff{20};
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) return;
    }
    const bool was_connected = connected_;
    absl::Status s = CatchUp();
    if (s.ok()) {
      backoff = std::chrono::milliseconds{20};
      if (!last_error_.empty()) {
        last_error_.clear();
        Tell(false, "change feed caught up at position " +
                        std::to_string(position_.load()));
      }
      s = feed_->Wait(options_.poll);
      if (s.ok()) continue;
      connected_ = false;
      std::lock_guard<std::mutex> lock(mu_);
      stats_.connected = false;
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (stop_) return;
    }
    if (s.ToString() != last_error_ || was_connected != connected_) {
      last_error_ = s.ToString();
      Tell(true, "change feed: " + last_error_ + "; trying again");
    }
    std::unique_lock<std::mutex> lock(mu_);
    stop_cv_.wait_for(lock, backoff, [this] { return stop_; });
    backoff = std::min(backoff * 2, options_.poll);
  }
}

void IndexFollower::Watch() {
  const std::chrono::milliseconds period =
      std::clamp(options_.poll / 4, std::chrono::milliseconds{10},
                 std::chrono::milliseconds{250});
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    stop_cv_.wait_for(lock, period, [this] { return stop_; });
    if (stop_) return;
    lock.unlock();
    CheckFreshness(Clock::now());
    lock.lock();
  }
}

void IndexFollower::CheckFreshness(Clock::time_point now) {
  bool changed;
  bool stale;
  Clock::duration behind;
  {
    std::lock_guard<std::mutex> lock(mu_);
    behind = now - fresh_as_of_;
    stale = behind > options_.stale_after;
    changed = stale != stats_.stale;
    stats_.stale = stale;
  }
  if (!changed) return;
  index_->SetStale(stale);
  if (stale) {
    Tell(true,
         "public index set aside: the change feed has not caught up for " +
             Millis(behind) + " (bound " + Millis(options_.stale_after) +
             "); verify and lookup read the database");
  } else {
    Tell(false, "public index in use again: the change feed caught up");
  }
}

}  // namespace gorank::certificates
