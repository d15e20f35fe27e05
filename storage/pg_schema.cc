#include "storage/pg_schema.h"

#include <regex>
#include <vector>

#include "services/common/status_macros.h"
#include "storage/row_digest.h"

namespace gorank::storage {
namespace {

// One string per statement: PostgreSQL functions and triggers. The written
// row's key is read through to_jsonb so one function serves every table
// (its key columns are the trigger's arguments).
constexpr char kFunctions[] = R"sql(
CREATE OR REPLACE FUNCTION json_valid(t text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  PERFORM t::json;
  RETURN true;
EXCEPTION WHEN others THEN
  RETURN false;
END $f$;

CREATE OR REPLACE FUNCTION rankd_append_only() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $f$;

CREATE OR REPLACE FUNCTION rankd_note_written() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE
  r jsonb;
  k text[] := '{}';
  c text;
BEGIN
  IF to_regclass('pg_temp.rankd_written') IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
  FOREACH c IN ARRAY TG_ARGV LOOP
    k := k || (r ->> c);
  END LOOP;
  INSERT INTO pg_temp.rankd_written(tbl, key) VALUES (TG_TABLE_NAME, k);
  RETURN NULL;
END $f$;

CREATE OR REPLACE FUNCTION rankd_notify_change() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM pg_notify('rankd_changes', TG_TABLE_SCHEMA);
  RETURN NULL;
END $f$;

CREATE OR REPLACE FUNCTION rankd_next_id() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE
  col text := TG_ARGV[0];
  v bigint;
BEGIN
  v := (to_jsonb(NEW) ->> col)::bigint;
  IF v IS NULL THEN
    EXECUTE format('SELECT coalesce(max(%I), 0) + 1 FROM %I.%I', col, TG_TABLE_SCHEMA,
                   TG_TABLE_NAME) INTO v;
    NEW := jsonb_populate_record(NEW, jsonb_build_object(col, v));
  END IF;
  PERFORM set_config('rankd.last_id', v::text, true);
  RETURN NEW;
END $f$;
)sql";

constexpr char kIntegerKey[] =
    "SELECT data_type FROM information_schema.columns WHERE table_schema = "
    "current_schema() "
    "AND table_name = ?1 AND column_name = ?2";

std::string SqlString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace

std::string ToPostgresDdl(const std::string& sqlite_ddl) {
  std::string s = std::regex_replace(
      sqlite_ddl, std::regex(R"(CREATE TRIGGER[\s\S]*?\bEND;)"), std::string());
  s = std::regex_replace(s, std::regex(R"(\)\s*STRICT;)"), ");");
  s = std::regex_replace(s, std::regex(R"(\bINTEGER\b)"), "BIGINT");
  s = std::regex_replace(s, std::regex(R"(\bBLOB\b)"), "BYTEA");
  // Text compares and sorts byte by byte, as in SQLite, whatever the
  // database's locale (name ranges, ORDER BY).
  s = std::regex_replace(s, std::regex(R"(\bTEXT\b)"), "TEXT COLLATE \"C\"");
  // Checked at statement end as SQLite does, or at commit when a
  // transaction defers them (CopyDatabase).
  s = std::regex_replace(s, std::regex(R"(REFERENCES \w+\(\w+\))"),
                         "$& DEFERRABLE");
  return s;
}

absl::Status InstallPostgresTriggers(Connection& conn) {
  GORANK_RETURN_IF_ERROR(conn.Exec(kFunctions));
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> tables, conn.ListTables());
  for (const std::string& table : tables) {
    const std::string quoted = QuoteIdentifier(table);
    if (table == "audit_log") {
      GORANK_RETURN_IF_ERROR(conn.Exec(
          "CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR "
          "DELETE ON " +
          quoted +
          " FOR EACH ROW EXECUTE FUNCTION rankd_append_only();"
          "CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE "
          "ON " +
          quoted +
          " FOR EACH STATEMENT EXECUTE FUNCTION rankd_append_only();"
          // The wake-up of the public index's followers in other instances
          // (pg_change_feed.h): sent at commit, once a transaction.
          "CREATE OR REPLACE TRIGGER audit_log_notify AFTER INSERT ON " +
          quoted +
          " FOR EACH STATEMENT EXECUTE FUNCTION rankd_notify_change();"));
    }
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> pk,
                            conn.PrimaryKeyColumns(table));
    if (pk.empty())
      return absl::InternalError("table " + table + " has no primary key");
    if (pk.size() == 1) {
      GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kIntegerKey));
      st->Bind(1, table).Bind(2, pk[0]);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (row && st->Text(0) == "bigint") {
        GORANK_RETURN_IF_ERROR(conn.Exec(
            "CREATE OR REPLACE TRIGGER rankd_next_id BEFORE INSERT ON " +
            quoted + " FOR EACH ROW EXECUTE FUNCTION rankd_next_id(" +
            SqlString(pk[0]) + ")"));
      }
    }
    if (table == "audit_log") continue;
    std::string args;
    for (const std::string& col : pk)
      args += (args.empty() ? "" : ", ") + SqlString(col);
    GORANK_RETURN_IF_ERROR(conn.Exec(
        "CREATE OR REPLACE TRIGGER rankd_note_written AFTER INSERT OR UPDATE "
        "OR DELETE ON " +
        quoted + " FOR EACH ROW EXECUTE FUNCTION rankd_note_written(" + args +
        ")"));
  }
  return absl::OkStatus();
}

}  // namespace gorank::storage
