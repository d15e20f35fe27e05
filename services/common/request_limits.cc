#include "services/common/request_limits.h"

#include <cmath>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "google/protobuf/reflection.h"
#include "google/protobuf/stubs/common.h"

namespace gorank {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

FieldLimit Bytes(int64_t max_bytes, int64_t max_items = kDefaultMaxItems) {
  FieldLimit l;
  l.max_bytes = max_bytes;
  l.max_items = max_items;
  return l;
}

FieldLimit Items(int64_t max_items) {
  FieldLimit l;
  l.max_items = max_items;
  return l;
}

FieldLimit Range(int64_t min, int64_t max,
                 int64_t max_items = kDefaultMaxItems) {
  FieldLimit l;
  l.min = min;
  l.max = max;
  l.max_items = max_items;
  return l;
}

// The table. A key without a dot is a short field name and applies to every
// field of that name; a full name wins over it. Where a domain function has
// its own limit the entry repeats it (the domain check stays, as a second
// line), so a request is refused here first, with the field's path.
// Every integer range includes 0 (proto3's "not set").
const std::unordered_map<std::string_view, FieldLimit>& Table() {
  static const auto* table = new std::unordered_map<std::string_view,
                                                    FieldLimit>{
      // Names of people, agencies, teams, events and places.
      {"name", Bytes(120)},
      {"latin_name", Bytes(120)},
      {"name_en", Bytes(120)},
      {"name_prefix", Bytes(120)},
      {"holder_name", Bytes(120)},
      {"family_name", Bytes(120)},
      {"given_name", Bytes(120)},
      {"gorank.v1.Event.name", Bytes(200)},
      {"event_name", Bytes(200)},
      {"country", Bytes(120)},
      {"city", Bytes(120)},
      {"club", Bytes(120)},
      {"label", Bytes(200)},  // token labels (TokenManager: 200)
      // Identifiers, numbers and codes.
      {"agency_prefix", Bytes(16)},
      {"prefix", Bytes(16)},
      {"organiser_prefix", Bytes(16)},
      {"number", Bytes(32)},  // certificate numbers: nine digits
      {"request_id", Bytes(128)},
      {"page_token", Bytes(64)},
      {"resident_id", Bytes(32)},
      {"competition", Bytes(64)},
      {"group", Bytes(64)},
      {"egd_pin", Bytes(32)},
      {"notation", Bytes(64)},
      {"gorank.v1.ParseRankRequest.text", Bytes(64)},
      {"rule_ids", Bytes(64, 100)},
      {"record_id",
       Bytes(4096)},  // rankctl check sends the file's path (PATH_MAX)
      {"adjusted_minutes", Bytes(32)},
      {"system", Bytes(200)},
      {"sgf", Bytes(4 << 20)},  // BoardPoint.sgf below; game records: 4 MiB
      {"gorank.v1.BoardPoint.sgf", Bytes(16)},
      {"gorank.v1.BoardPoint.label", Bytes(16)},
      // Free text. Certification texts (reasons, notes, references) are
      // 500 bytes in the domain too; objections 4000; review findings 20000.
      {"reason", Bytes(500)},
      {"note", Bytes(500)},
      {"basis", Bytes(500)},
      {"basis_reference", Bytes(500)},
      {"correction_reason", Bytes(500)},
      {"initial_rank_basis", Bytes(500)},
      {"contact", Bytes(200)},
      {"gorank.v1.LodgeObjectionRequest.text", Bytes(4000)},
      {"findings", Bytes(20000)},
      // File contents (the SGF and Gomoku parsers refuse more than 1 MiB
      // themselves, with RESOURCE_EXHAUSTED).
      {"record", Bytes(4 << 20)},
      {"content", Bytes(4 << 20)},
      // Repeated fields of results.
      {"entrants", Items(10000)},
      {"teams", Items(1000)},
      {"games", Items(50000)},
      {"byes", Items(10000)},
      {"tie_decisions", Items(1000)},
      {"add_entrants", Items(10000)},  // EditResults: as many as a full save
      {"set_teams", Items(1000)},
      {"set_games", Items(50000)},
      {"remove_games", Items(50000)},
      {"set_byes", Items(10000)},
      {"withdrawals", Items(10000)},
      {"order", Range(0, 100000, 10000)},
      {"board_order", Range(0, 100000, 100)},
      {"player_ids", Range(0, kDefaultInt64Bound, 10000)},
      {"dead_stones", Items(625)},
      // Integers.
      {"year", Range(0, 9999)},
      {"month", Range(0, 12)},
      {"day", Range(0, 31)},
      {"level", Range(0, 99)},
      {"page_size", Range(0, 10000)},
      {"round", Range(0, 10000)},
      {"rounds", Range(0, 10000)},
      {"withdrawn_after_round", Range(0, 10000)},
      {"board", Range(0, 1000)},
      {"boards", Range(0, 1000)},
      {"cycles", Range(0, 100)},
      {"lives", Range(0, 100)},
      {"best_of", Range(0, 999)},
      {"komi_x2", Range(-2000, 2000)},
      {"komi_half_points", Range(-2000, 2000)},
      {"handicap", Range(0, 99)},
      {"handicap_reduction", Range(0, 99)},
      {"black_warnings", Range(0, 99)},
      {"white_warnings", Range(0, 99)},
      {"points", Range(0, 99)},
      {"place", Range(0, 100000)},
      {"quantity", Range(0, 100000)},
      // Player file rows: wide enough that the import itself refuses a
      // too-long field with its line and column.
      {"gorank.v1.RegisterPlayerRequest.external_id", Bytes(64)},
      {"gorank.v1.PlayerImportRow.line", Range(0, INT32_MAX)},
      {"gorank.v1.PlayerImportRow.name", Bytes(1024)},
      {"gorank.v1.PlayerImportRow.latin_name", Bytes(1024)},
      {"gorank.v1.PlayerImportRow.gender", Bytes(64)},
      {"gorank.v1.PlayerImportRow.birth_date", Bytes(64)},
      {"gorank.v1.PlayerImportRow.resident_id", Bytes(64)},
      {"gorank.v1.PlayerImportRow.agency", Bytes(64)},
      {"gorank.v1.PlayerImportRow.rank", Bytes(64)},
      {"gorank.v1.PlayerImportRow.rank_date", Bytes(64)},
      {"gorank.v1.PlayerImportRow.external_id", Bytes(1024)},
      {"gorank.v1.BoardPoint.col", Range(0, 99)},
      {"gorank.v1.BoardPoint.row", Range(0, 99)},
      // Identifiers are never negative.
      {"id", Range(0, kDefaultInt64Bound)},
      {"player_id", Range(0, kDefaultInt64Bound)},
      {"event_id", Range(0, kDefaultInt64Bound)},
      {"basis_event_id", Range(0, kDefaultInt64Bound)},
      {"token_id", Range(0, kDefaultInt64Bound)},
      {"objection_id", Range(0, kDefaultInt64Bound)},
      {"appraisal_id", Range(0, kDefaultInt64Bound)},
      {"proposal_id", Range(0, kDefaultInt64Bound)},
      {"entrant_id", Range(0, kDefaultInt32Bound)},
      {"team_id", Range(0, kDefaultInt32Bound)},
      {"black_entrant_id", Range(0, kDefaultInt32Bound)},
      {"white_entrant_id", Range(0, kDefaultInt32Bound)},
      // Audit log positions.
      {"begin", Range(0, kDefaultInt64Bound)},
      {"end", Range(0, kDefaultInt64Bound)},
      {"index", Range(0, kDefaultInt64Bound)},
      {"tree_size", Range(0, kDefaultInt64Bound)},
      {"old_size", Range(0, kDefaultInt64Bound)},
      {"new_size", Range(0, kDefaultInt64Bound)},
      {"checkpoint_size", Range(0, kDefaultInt64Bound)},
  };
  return *table;
}

std::string ItemPath(const std::string& path, int index) {
  return path + "[" + std::to_string(index) + "]";
}

class Checker {
 public:
  absl::Status Check(const Message& m, const std::string& prefix) {
    const Reflection* r = m.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    r->ListFields(m, &fields);  // set fields only: defaults are always within
    for (const FieldDescriptor* f : fields) {
      const std::string path =
          prefix.empty() ? f->name() : prefix + "." + f->name();
      const FieldLimit limit = LimitOf(*f);
      if (f->is_repeated()) {
        const int n = r->FieldSize(m, f);
        if (n > limit.max_items) {
          return absl::InvalidArgumentError(path + " has " + std::to_string(n) +
                                            " items; the limit is " +
                                            std::to_string(limit.max_items));
        }
        for (int i = 0; i < n; ++i) {
          absl::Status s = Element(m, r, f, i, limit, ItemPath(path, i));
          if (!s.ok()) return s;
        }
      } else {
        absl::Status s = Element(m, r, f, -1, limit, path);
        if (!s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

 private:
  // One value of `f` (element `i` of a repeated field, or the value when i <
  // 0).
  absl::Status Element(const Message& m, const Reflection* r,
                       const FieldDescriptor* f, int i, const FieldLimit& limit,
                       const std::string& path) {
    const bool rep = i >= 0;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_MESSAGE:
        return Check(rep ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f),
                     path);
      case FieldDescriptor::CPPTYPE_STRING: {
        std::string scratch;
        const std::string& v =
            rep ? r->GetRepeatedStringReference(m, f, i, &scratch)
                : r->GetStringReference(m, f, &scratch);
        if (static_cast<int64_t>(v.size()) > limit.max_bytes) {
          return absl::InvalidArgumentError(
              path + " is " + std::to_string(v.size()) +
              " bytes; the limit is " + std::to_string(limit.max_bytes) +
              " bytes");
        }
        if (f->type() == FieldDescriptor::TYPE_STRING &&
            !google::protobuf::internal::IsStructurallyValidUTF8(
                v.data(), static_cast<int>(v.size()))) {
          return absl::InvalidArgumentError(path + " is not valid UTF-8 text");
        }
        return absl::OkStatus();
      }
      case FieldDescriptor::CPPTYPE_ENUM: {
        const int v =
            rep ? r->GetRepeatedEnumValue(m, f, i) : r->GetEnumValue(m, f);
        if (f->enum_type()->FindValueByNumber(v) == nullptr) {
          return absl::InvalidArgumentError(path + " is " + std::to_string(v) +
                                            ", not a value of " +
                                            f->enum_type()->full_name());
        }
        return absl::OkStatus();
      }
      case FieldDescriptor::CPPTYPE_DOUBLE:
      case FieldDescriptor::CPPTYPE_FLOAT: {
        const double v =
            f->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE
                ? (rep ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f))
                : (rep ? r->GetRepeatedFloat(m, f, i) : r->GetFloat(m, f));
        if (!std::isfinite(v))
          return absl::InvalidArgumentError(path + " is not a finite number");
        return absl::OkStatus();
      }
      case FieldDescriptor::CPPTYPE_BOOL:
        return absl::OkStatus();
      default:
        break;
    }
    // Integers. Unsigned values above INT64_MAX are compared as INT64_MAX.
    int64_t v = 0;
    std::string shown;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        v = rep ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f);
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        v = rep ? r->GetRepeatedInt64(m, f, i) : r->GetInt64(m, f);
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        v = rep ? r->GetRepeatedUInt32(m, f, i) : r->GetUInt32(m, f);
        break;
      case FieldDescriptor::CPPTYPE_UINT64: {
        const uint64_t u =
            rep ? r->GetRepeatedUInt64(m, f, i) : r->GetUInt64(m, f);
        shown = std::to_string(u);
        v = u > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX
                                                 : static_cast<int64_t>(u);
        break;
      }
      default:
        return absl::OkStatus();
    }
    if (v < limit.min || v > limit.max) {
      return absl::InvalidArgumentError(
          path + " is " + (shown.empty() ? std::to_string(v) : shown) +
          "; the allowed range is " + std::to_string(limit.min) + ".." +
          std::to_string(limit.max));
    }
    return absl::OkStatus();
  }
};

}  // namespace

FieldLimit LimitOf(const FieldDescriptor& field) {
  const auto& table = Table();
  if (auto it = table.find(field.full_name()); it != table.end())
    return it->second;
  if (auto it = table.find(field.name()); it != table.end()) return it->second;
  FieldLimit l;
  if (field.cpp_type() == FieldDescriptor::CPPTYPE_INT64 ||
      field.cpp_type() == FieldDescriptor::CPPTYPE_UINT64) {
    l.min = field.cpp_type() == FieldDescriptor::CPPTYPE_UINT64
                ? 0
                : -kDefaultInt64Bound;
    l.max = kDefaultInt64Bound;
  } else if (field.cpp_type() == FieldDescriptor::CPPTYPE_UINT32) {
    l.min = 0;
  }
  return l;
}

absl::Status CheckRequestLimits(const Message& request) {
  return Checker().Check(request, "");
}

std::string DescribeLimit(const FieldDescriptor& field) {
  const FieldLimit l = LimitOf(field);
  std::string each;
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      each = "at most " + std::to_string(l.max_bytes) + " bytes";
      if (field.type() == FieldDescriptor::TYPE_STRING) each += " of UTF-8";
      break;
    case FieldDescriptor::CPPTYPE_ENUM:
      each = "a value of " + field.enum_type()->name();
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
    case FieldDescriptor::CPPTYPE_BOOL:
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT:
      each = "finite";
      break;
    default:
      each = std::to_string(l.min) + ".." + std::to_string(l.max);
  }
  if (!field.is_repeated()) return each;
  std::string out = "at most " + std::to_string(l.max_items) + " items";
  if (!each.empty()) out += ", each " + each;
  return out;
}

}  // namespace gorank
