#include "services/certificates/public_index.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <thread>

#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"

namespace gorank::certificates {
namespace {

constexpr int kCertLeafBits = 7;  // 128 serials a leaf, 79 leaves a year
constexpr int kCertLeaf = 1 << kCertLeafBits;
constexpr int kCertMid = (kMaxSerial >> kCertLeafBits) + 1;
constexpr int kPlayerBits = 12;
constexpr int64_t kPlayerFan = int64_t{1} << kPlayerBits;
constexpr int64_t kPlayerLimit = int64_t{1} << (3 * kPlayerBits);
constexpr uint64_t kPresent = uint64_t{1} << 62;
constexpr uint64_t kObjection = uint64_t{1} << 61;
constexpr size_t kArenaChunk = size_t{1} << 20;

// The seqlock of one entry (H.-J. Boehm, "Can seqlocks get along with
// programming language memory models?", 2012): the fields are atomics read
// and written relaxed between the version loads and stores.
template <typename Copy>
void SeqRead(const std::atomic<uint32_t>& seq, const Copy& copy) {
  while (true) {
    const uint32_t before = seq.load(std::memory_order_acquire);
    if ((before & 1) == 0) {
      copy();
      std::atomic_thread_fence(std::memory_order_acquire);
      if (seq.load(std::memory_order_relaxed) == before) return;
    }
  }
}

// REQUIRES: the caller is the entry's only writer (its stripe is held).
template <typename Store>
void SeqWrite(std::atomic<uint32_t>& seq, const Store& store) {
  const uint32_t v = seq.load(std::memory_order_relaxed);
  seq.store(v + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  store();
  seq.store(v + 2, std::memory_order_release);
}

// 0 = none; else ordinal + 1000 (ordinals are -29..209).
uint32_t EncodeRank(const std::optional<registry::Rank>& r) {
  return r ? static_cast<uint32_t>(r->Ordinal() + 1000) : 0;
}
std::optional<registry::Rank> DecodeRank(uint32_t v) {
  if (v == 0) return std::nullopt;
  auto r = registry::Rank::FromOrdinal(static_cast<int>(v) - 1000);
  if (!r.ok()) return std::nullopt;
  return *r;
}

// "000".."999" -> 0..999; -1 otherwise.
int PrefixIndex(std::string_view p) {
  if (p.size() != 3) return -1;
  int v = 0;
  for (char c : p) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string PrefixText(int v) {
  std::string s = "000";
  for (int i = 2; i >= 0; --i, v /= 10) s[i] = static_cast<char>('0' + v % 10);
  return s;
}

// Names: three lengths (uint32) then the bytes of name, Latin name and home
// agency prefix.
constexpr size_t kNamesHeader = 3 * sizeof(uint32_t);
std::string_view NamePart(const char* blob, int part) {
  uint32_t len[3];
  std::memcpy(len, blob, sizeof(len));
  size_t at = kNamesHeader;
  for (int i = 0; i < part; ++i) at += len[i];
  return std::string_view(blob + at, len[part]);
}

}  // namespace

struct PublicIndex::CertSlot {
  std::atomic<uint32_t> seq{0};
  std::atomic<uint32_t> key{0};  // prefix * 1e6 + yy * 1e4 + serial
  std::atomic<int64_t> player_id{0};
  std::atomic<int64_t> notice_until{0};
  std::atomic<int64_t> revoked{0};
  // kPresent | kObjection | grade code << 32 | issue day (uint32).
  std::atomic<uint64_t> packed{0};
  // The holder's next certificate; set once, before the slot is linked.
  std::atomic<CertSlot*> next_of_player{nullptr};
};
struct PublicIndex::CertLeaf {
  CertSlot slots[kCertLeaf];
};
struct PublicIndex::CertMid {
  std::atomic<CertLeaf*> leaves[kCertMid] = {};
};
struct PublicIndex::PlayerSlot {
  std::atomic<uint32_t> seq{0};
  std::atomic<uint32_t> ranks{0};           // Go code | Gomoku code << 16
  std::atomic<const char*> names{nullptr};  // nullptr: not (yet) known
  std::atomic<CertSlot*> certs{nullptr};    // newest first
};
struct PublicIndex::PlayerLeaf {
  PlayerSlot slots[kPlayerFan];
};
struct PublicIndex::PlayerMid {
  std::atomic<PlayerLeaf*> leaves[kPlayerFan] = {};
};
struct PublicIndex::NameNode {
  uint64_t hash;
  PlayerSlot* player;
  int64_t id;
  std::atomic<NameNode*> next;
};
struct PublicIndex::NameTable {
  size_t mask;
  std::unique_ptr<std::atomic<NameNode*>[]> buckets;
};

const registry::Rank& PlaceholderGrade() {
  static const registry::Rank grade = registry::Rank::FromString("1k");
  return grade;
}

CertificateState PublicCertificate::StateAt(int64_t now_unix) const {
  if (revoked_unix != 0) return CertificateState::kRevoked;
  if (now_unix < notice_until_unix || has_open_objection)
    return CertificateState::kUnderNotice;
  return CertificateState::kEffective;
}

Certificate PublicCertificate::ToCertificate() const {
  Certificate c;
  c.number = number;
  c.year = 0;
  c.player_id = player_id;
  c.grade = grade;
  c.issue_date = issue_date;
  c.notice_until_unix = notice_until_unix;
  c.revoked_unix = revoked_unix;
  c.has_open_objection = has_open_objection;
  return c;
}

PublicIndex::PublicIndex()
    : cert_top_(new std::atomic<CertMid*>[1000 * 100]()),
      player_top_(new std::atomic<PlayerMid*>[kPlayerFan]()) {
  for (auto& a : agency_names_) a.store(nullptr, std::memory_order_relaxed);
  auto table = std::make_unique<NameTable>();
  table->mask = (size_t{1} << 12) - 1;
  table->buckets.reset(new std::atomic<NameNode*>[table->mask + 1]());
  names_.store(table.get(), std::memory_order_release);
  name_tables_.push_back(std::move(table));
}

PublicIndex::~PublicIndex() = default;

absl::Status PublicIndex::Build(CertificateRepository* certs,
                                registry::RegistryRepository* registry) {
  GORANK_ASSIGN_OR_RETURN(std::vector<registry::Agency> agencies,
                          registry->ListAgencies());
  for (const registry::Agency& a : agencies) PutAgency(a);
  registry::PlayerQuery q;
  q.limit = 5000;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(std::vector<registry::Player> page,
                            registry->SearchPlayers(q));
    for (const registry::Player& p : page) {
      std::lock_guard<std::mutex> lock(player_stripes_[p.id.value % kStripes]);
      StorePlayer(p);
    }
    if (static_cast<int>(page.size()) < q.limit) break;
    q.after_id = page.back().id.value;
  }
  // Certificates by issuing agency (their numbers start with its prefix:
  // one range of the number order each), on up to four threads; the reads run
  // on the database's reader pool, the stores take the entries' locks.
  std::atomic<size_t> next{0};
  std::mutex error_mu;
  absl::Status error;
  auto worker = [&] {
    for (size_t a = next++; a < agencies.size(); a = next++) {
      const std::string& prefix = agencies[a].prefix;
      CertificateFilter f;
      f.after_number = prefix;  // "110" sorts before "110000001"
      f.limit = 2000;
      for (bool more = true; more;) {
        absl::StatusOr<std::vector<Certificate>> page =
            certs->ListCertificates(f);
        if (!page.ok()) {
          std::lock_guard<std::mutex> lock(error_mu);
          error = page.status();
          return;
        }
        more = static_cast<int>(page->size()) == f.limit;
        for (const Certificate& c : *page) {
          if (c.number.prefix != prefix) {
            more = false;  // the next agency's range
            break;
          }
          std::lock_guard<std::mutex> lock(
              cert_stripes_[c.number.serial % kStripes]);
          StoreCertificate(c);
        }
        if (more) f.after_number = page->back().number.ToString();
      }
    }
  };
  const unsigned threads =
      std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  GORANK_RETURN_IF_ERROR(error);
  std::lock_guard<std::mutex> lock(state_mu_);
  built_ = true;
  UpdateUsable();
  return absl::OkStatus();
}

void PublicIndex::UpdateUsable() {
  usable_.store(built_ && !invalidated_ && !stale_.load(),
                std::memory_order_release);
}

void PublicIndex::Invalidate(const absl::Status& why) {
  bool was_valid;
  {
    std::lock_guard<std::mutex> lock(state_mu_);
    invalidations_.fetch_add(1, std::memory_order_acq_rel);
    was_valid = !invalidated_;
    invalidated_ = true;
    UpdateUsable();
  }
  if (was_valid && on_invalidate_) on_invalidate_(why);
}

bool PublicIndex::Revalidate(uint64_t since) {
  std::lock_guard<std::mutex> lock(state_mu_);
  if (invalidations_.load(std::memory_order_acquire) != since) return false;
  invalidated_ = false;
  UpdateUsable();
  return true;
}

void PublicIndex::SetStale(bool stale) {
  std::lock_guard<std::mutex> lock(state_mu_);
  stale_.store(stale, std::memory_order_release);
  UpdateUsable();
}

const PublicIndex::CertSlot* PublicIndex::CertAt(
    const CertificateNumber& n) const {
  const int p = PrefixIndex(n.prefix);
  if (p < 0 || n.yy < 0 || n.yy > 99 || n.serial < 1 || n.serial > kMaxSerial)
    return nullptr;
  const CertMid* mid =
      cert_top_[p * 100 + n.yy].load(std::memory_order_acquire);
  if (mid == nullptr) return nullptr;
  const CertLeaf* leaf =
      mid->leaves[n.serial >> kCertLeafBits].load(std::memory_order_acquire);
  if (leaf == nullptr) return nullptr;
  return &leaf->slots[n.serial & (kCertLeaf - 1)];
}

const PublicIndex::PlayerSlot* PublicIndex::PlayerAt(int64_t id) const {
  if (id <= 0 || id >= kPlayerLimit) return nullptr;
  const PlayerMid* mid =
      player_top_[id >> (2 * kPlayerBits)].load(std::memory_order_acquire);
  if (mid == nullptr) return nullptr;
  const PlayerLeaf* leaf =
      mid->leaves[(id >> kPlayerBits) & (kPlayerFan - 1)].load(
          std::memory_order_acquire);
  if (leaf == nullptr) return nullptr;
  return &leaf->slots[id & (kPlayerFan - 1)];
}

namespace {

void DecodeCert(uint32_t key, int64_t player, int64_t notice, int64_t revoked,
                uint64_t packed, PublicCertificate* out) {
  out->number.prefix = PrefixText(static_cast<int>(key / 1000000));
  out->number.yy = static_cast<int>(key / 10000 % 100);
  out->number.serial = static_cast<int>(key % 10000);
  out->player_id = registry::PlayerId{player};
  const auto grade = DecodeRank(static_cast<uint32_t>(packed >> 32) & 0xFFFF);
  if (grade) out->grade = *grade;
  out->issue_date =
      Date::FromDays(static_cast<int32_t>(static_cast<uint32_t>(packed)));
  out->notice_until_unix = notice;
  out->revoked_unix = revoked;
  out->has_open_objection = (packed & kObjection) != 0;
}

}  // namespace

bool PublicIndex::FindCertificate(const CertificateNumber& n,
                                  PublicCertificate* out) const {
  const CertSlot* slot = CertAt(n);
  if (slot == nullptr) return false;
  uint32_t key;
  int64_t player, notice, revoked;
  uint64_t packed;
  SeqRead(slot->seq, [&] {
    key = slot->key.load(std::memory_order_relaxed);
    player = slot->player_id.load(std::memory_order_relaxed);
    notice = slot->notice_until.load(std::memory_order_relaxed);
    revoked = slot->revoked.load(std::memory_order_relaxed);
    packed = slot->packed.load(std::memory_order_relaxed);
  });
  if ((packed & kPresent) == 0) return false;
  DecodeCert(key, player, notice, revoked, packed, out);
  return true;
}

void PublicIndex::ReadHolder(const PlayerSlot& slot, int64_t id,
                             PublicHolder* out, bool* present) const {
  const char* names;
  uint32_t ranks;
  SeqRead(slot.seq, [&] {
    names = slot.names.load(std::memory_order_relaxed);
    ranks = slot.ranks.load(std::memory_order_relaxed);
  });
  // The blob was written before its pointer was stored (release by the
  // version store; the acquire fence of SeqRead orders the reads).
  *present = names != nullptr;
  if (!*present) return;
  out->id = registry::PlayerId{id};
  out->name = NamePart(names, 0);
  out->latin_name = NamePart(names, 1);
  out->agency_prefix = NamePart(names, 2);
  out->rank = DecodeRank(ranks & 0xFFFF);
  out->gomoku_rank = DecodeRank(ranks >> 16);
}

bool PublicIndex::FindHolder(registry::PlayerId id, PublicHolder* out) const {
  const PlayerSlot* slot = PlayerAt(id.value);
  if (slot == nullptr) return false;
  bool present = false;
  ReadHolder(*slot, id.value, out, &present);
  return present;
}

std::string_view PublicIndex::AgencyName(std::string_view prefix) const {
  const int p = PrefixIndex(prefix);
  if (p < 0) return {};
  const char* blob = agency_names_[p].load(std::memory_order_acquire);
  if (blob == nullptr) return {};
  uint32_t len;
  std::memcpy(&len, blob, sizeof(len));
  return std::string_view(blob + sizeof(len), len);
}

std::vector<PublicHolder> PublicIndex::FindByName(std::string_view name,
                                                  size_t limit) const {
  std::vector<PublicHolder> out;
  if (name.empty()) return out;
  const NameTable* table = names_.load(std::memory_order_acquire);
  const uint64_t h = std::hash<std::string_view>{}(name);
  for (const NameNode* node =
           table->buckets[h & table->mask].load(std::memory_order_acquire);
       node != nullptr; node = node->next.load(std::memory_order_acquire)) {
    if (node->hash != h) continue;
    PublicHolder holder;
    bool present = false;
    ReadHolder(*node->player, node->id, &holder, &present);
    // A node stays after a rename: only the current names count.
    if (!present || (holder.name != name && holder.latin_name != name))
      continue;
    const bool seen =
        std::any_of(out.begin(), out.end(),
                    [&](const PublicHolder& x) { return x.id == holder.id; });
    if (!seen) out.push_back(holder);
  }
  std::sort(
      out.begin(), out.end(),
      [](const PublicHolder& a, const PublicHolder& b) { return a.id < b.id; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::vector<PublicCertificate> PublicIndex::CertificatesOf(
    registry::PlayerId id) const {
  std::vector<PublicCertificate> out;
  const PlayerSlot* player = PlayerAt(id.value);
  if (player == nullptr) return out;
  for (const CertSlot* slot = player->certs.load(std::memory_order_acquire);
       slot != nullptr;
       slot = slot->next_of_player.load(std::memory_order_acquire)) {
    uint32_t key;
    int64_t holder, notice, revoked;
    uint64_t packed;
    SeqRead(slot->seq, [&] {
      key = slot->key.load(std::memory_order_relaxed);
      holder = slot->player_id.load(std::memory_order_relaxed);
      notice = slot->notice_until.load(std::memory_order_relaxed);
      revoked = slot->revoked.load(std::memory_order_relaxed);
      packed = slot->packed.load(std::memory_order_relaxed);
    });
    if ((packed & kPresent) == 0) continue;
    out.emplace_back();
    DecodeCert(key, holder, notice, revoked, packed, &out.back());
  }
  std::sort(out.begin(), out.end(),
            [](const PublicCertificate& a, const PublicCertificate& b) {
              return a.number < b.number;
            });
  return out;
}

absl::Status PublicIndex::RefreshCertificate(
    const CertificateNumber& n, const Certificate* known,
    const std::function<absl::StatusOr<Certificate>()>& reload) {
  std::lock_guard<std::mutex> lock(cert_stripes_[n.serial % kStripes]);
  PublicCertificate existing;
  if (known != nullptr && !FindCertificate(n, &existing)) {
    StoreCertificate(*known);
    return absl::OkStatus();
  }
  absl::StatusOr<Certificate> now = reload();
  if (absl::IsNotFound(now.status())) return absl::OkStatus();
  if (!now.ok()) return now.status();
  StoreCertificate(*now);
  return absl::OkStatus();
}

absl::Status PublicIndex::RefreshPlayer(
    registry::PlayerId id, const registry::Player* known,
    const std::function<absl::StatusOr<registry::Player>()>& reload) {
  std::lock_guard<std::mutex> lock(player_stripes_[id.value % kStripes]);
  PublicHolder existing;
  if (known != nullptr && !FindHolder(id, &existing)) {
    registry::Player p = *known;
    p.id = id;
    StorePlayer(p);
    return absl::OkStatus();
  }
  absl::StatusOr<registry::Player> now = reload();
  if (absl::IsNotFound(now.status())) return absl::OkStatus();
  if (!now.ok()) return now.status();
  StorePlayer(*now);
  return absl::OkStatus();
}

void PublicIndex::PutAgency(const registry::Agency& agency) {
  const int p = PrefixIndex(agency.prefix);
  if (p < 0) return;
  std::lock_guard<std::mutex> lock(alloc_mu_);
  const uint32_t len = static_cast<uint32_t>(agency.name.size());
  char* blob = Allocate(sizeof(len) + len);
  std::memcpy(blob, &len, sizeof(len));
  std::memcpy(blob + sizeof(len), agency.name.data(), len);
  agency_names_[p].store(blob, std::memory_order_release);
}

size_t PublicIndex::certificate_count() const {
  return certificates_.load(std::memory_order_relaxed);
}

size_t PublicIndex::player_count() const {
  return players_.load(std::memory_order_relaxed);
}

void PublicIndex::StoreCertificate(const Certificate& c) {
  const int p = PrefixIndex(c.number.prefix);
  if (p < 0 || c.number.yy < 0 || c.number.yy > 99 || c.number.serial < 1 ||
      c.number.serial > kMaxSerial) {
    return;  // not a number Parse accepts: no public read can ask for it
  }
  CertSlot* slot = CertSlotFor(c.number);
  const uint64_t packed =
      kPresent | (c.has_open_objection ? kObjection : 0) |
      (uint64_t{EncodeRank(c.grade)} << 32) |
      static_cast<uint32_t>(static_cast<int32_t>(
          c.issue_date.IsValid() ? c.issue_date.ToDays() : 0));
  const bool fresh =
      (slot->packed.load(std::memory_order_relaxed) & kPresent) == 0;
  SeqWrite(slot->seq, [&] {
    slot->key.store(static_cast<uint32_t>(p * 1000000 + c.number.yy * 10000 +
                                          c.number.serial),
                    std::memory_order_relaxed);
    slot->player_id.store(c.player_id.value, std::memory_order_relaxed);
    slot->notice_until.store(c.notice_until_unix, std::memory_order_relaxed);
    slot->revoked.store(c.revoked_unix, std::memory_order_relaxed);
    slot->packed.store(packed, std::memory_order_relaxed);
  });
  if (!fresh) return;  // a certificate keeps its holder
  certificates_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(alloc_mu_);
  PlayerSlot* holder = PlayerSlotFor(c.player_id.value);
  if (holder == nullptr) return;
  slot->next_of_player.store(holder->certs.load(std::memory_order_relaxed),
                             std::memory_order_relaxed);
  holder->certs.store(slot, std::memory_order_release);
}

void PublicIndex::StorePlayer(const registry::Player& p) {
  std::lock_guard<std::mutex> lock(alloc_mu_);
  PlayerSlot* slot = PlayerSlotFor(p.id.value);
  if (slot == nullptr) return;  // an id beyond 2^36: never asked for
  const char* old = slot->names.load(std::memory_order_relaxed);
  const bool same_names = old != nullptr && NamePart(old, 0) == p.name &&
                          NamePart(old, 1) == p.latin_name &&
                          NamePart(old, 2) == p.agency_prefix;
  const char* names = same_names ? old : NewNames(p);
  const uint32_t ranks = EncodeRank(p.rank) | EncodeRank(p.gomoku_rank) << 16;
  SeqWrite(slot->seq, [&] {
    slot->names.store(names, std::memory_order_relaxed);
    slot->ranks.store(ranks, std::memory_order_relaxed);
  });
  if (old == nullptr) players_.fetch_add(1, std::memory_order_relaxed);
  if (!same_names) {
    AddName(p.name, slot, p.id.value);
    AddName(p.latin_name, slot, p.id.value);
  }
}

PublicIndex::CertSlot* PublicIndex::CertSlotFor(const CertificateNumber& n) {
  std::lock_guard<std::mutex> lock(alloc_mu_);
  std::atomic<CertMid*>& top = cert_top_[PrefixIndex(n.prefix) * 100 + n.yy];
  CertMid* mid = top.load(std::memory_order_relaxed);
  if (mid == nullptr) {
    cert_mids_.push_back(std::make_unique<CertMid>());
    mid = cert_mids_.back().get();
    top.store(mid, std::memory_order_release);
  }
  std::atomic<CertLeaf*>& at = mid->leaves[n.serial >> kCertLeafBits];
  CertLeaf* leaf = at.load(std::memory_order_relaxed);
  if (leaf == nullptr) {
    cert_leaves_.push_back(std::make_unique<CertLeaf>());
    leaf = cert_leaves_.back().get();
    at.store(leaf, std::memory_order_release);
  }
  return &leaf->slots[n.serial & (kCertLeaf - 1)];
}

PublicIndex::PlayerSlot* PublicIndex::PlayerSlotFor(int64_t id) {
  if (id <= 0 || id >= kPlayerLimit) return nullptr;
  std::atomic<PlayerMid*>& top = player_top_[id >> (2 * kPlayerBits)];
  PlayerMid* mid = top.load(std::memory_order_relaxed);
  if (mid == nullptr) {
    player_mids_.push_back(std::make_unique<PlayerMid>());
    mid = player_mids_.back().get();
    top.store(mid, std::memory_order_release);
  }
  std::atomic<PlayerLeaf*>& at =
      mid->leaves[(id >> kPlayerBits) & (kPlayerFan - 1)];
  PlayerLeaf* leaf = at.load(std::memory_order_relaxed);
  if (leaf == nullptr) {
    player_leaves_.push_back(std::make_unique<PlayerLeaf>());
    leaf = player_leaves_.back().get();
    at.store(leaf, std::memory_order_release);
  }
  return &leaf->slots[id & (kPlayerFan - 1)];
}

const char* PublicIndex::NewNames(const registry::Player& p) {
  const uint32_t len[3] = {static_cast<uint32_t>(p.name.size()),
                           static_cast<uint32_t>(p.latin_name.size()),
                           static_cast<uint32_t>(p.agency_prefix.size())};
  char* blob = Allocate(kNamesHeader + len[0] + len[1] + len[2]);
  std::memcpy(blob, len, sizeof(len));
  char* at = blob + kNamesHeader;
  for (const std::string* s : {&p.name, &p.latin_name, &p.agency_prefix}) {
    std::memcpy(at, s->data(), s->size());
    at += s->size();
  }
  return blob;
}

char* PublicIndex::Allocate(size_t bytes) {
  bytes = (bytes + 7) & ~size_t{7};  // NameNode needs 8-byte alignment
  if (arena_.empty() || arena_used_ + bytes > arena_size_) {
    arena_size_ = std::max(kArenaChunk, bytes);
    arena_.emplace_back(new char[arena_size_]);
    arena_used_ = 0;
  }
  char* out = arena_.back().get() + arena_used_;
  arena_used_ += bytes;
  return out;
}

void PublicIndex::AddName(std::string_view name, PlayerSlot* player,
                          int64_t id) {
  if (name.empty()) return;
  NameTable* table = names_.load(std::memory_order_relaxed);
  const uint64_t h = std::hash<std::string_view>{}(name);
  std::atomic<NameNode*>& bucket = table->buckets[h & table->mask];
  for (NameNode* n = bucket.load(std::memory_order_relaxed); n != nullptr;
       n = n->next.load(std::memory_order_relaxed)) {
    if (n->hash == h && n->player == player) return;
  }
  NameNode* node = new (Allocate(sizeof(NameNode))) NameNode{h, player, id, {}};
  node->next.store(bucket.load(std::memory_order_relaxed),
                   std::memory_order_relaxed);
  bucket.store(node, std::memory_order_release);
  if (++name_nodes_ > 2 * (table->mask + 1)) GrowNames();
}

void PublicIndex::GrowNames() {
  const NameTable* old = names_.load(std::memory_order_relaxed);
  auto table = std::make_unique<NameTable>();
  table->mask = (old->mask + 1) * 4 - 1;
  table->buckets.reset(new std::atomic<NameNode*>[table->mask + 1]());
  for (size_t b = 0; b <= old->mask; ++b) {
    for (const NameNode* n = old->buckets[b].load(std::memory_order_relaxed);
         n != nullptr; n = n->next.load(std::memory_order_relaxed)) {
      std::atomic<NameNode*>& bucket = table->buckets[n->hash & table->mask];
      NameNode* copy = new (Allocate(sizeof(NameNode)))
          NameNode{n->hash, n->player, n->id, {}};
      copy->next.store(bucket.load(std::memory_order_relaxed),
                       std::memory_order_relaxed);
      bucket.store(copy, std::memory_order_relaxed);
    }
  }
  // Readers of the old table still find every node in it (nodes are never
  // freed before the index).
  names_.store(table.get(), std::memory_order_release);
  name_tables_.push_back(std::move(table));
}

}  // namespace gorank::certificates
