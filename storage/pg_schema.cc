#include "storage/pg_schema.h"

#include <regex>
#include <vector>

#include "services/common/status_macros.h"
#include "storage/row_digest.h"

namespace gorank::storage {
namespace {

// The functions every table's triggers share; each table's own (row ids,
// written-row notes) are made by TableTriggerFunctions below.
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

CREATE OR REPLACE FUNCTION rankd_notify_change() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM pg_notify('rankd_changes', TG_TABLE_SCHEMA);
  RETURN NULL;
END $f$;
)sql";

constexpr char kIntegerKey[] =
    "SELECT data_type FROM information_schema.columns WHERE table_schema = "
    "current_schema() "
    "AND table_name = ?1 AND column_name = ?2";
constexpr char kCurrentSchema[] = "SELECT current_schema()";

std::string SqlString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// A column's value as text, as `to_jsonb(row) ->> column` gives it (what
// the one generic note function of schema versions before 13 noted): a
// plain cast for text and integer columns, the JSON route for any other
// type.
std::string KeyText(const std::string& row, const std::string& column,
                    const std::string& data_type) {
  if (data_type == "text" || data_type == "bigint" || data_type == "integer" ||
      data_type == "smallint" || data_type == "character varying") {
    return row + "." + QuoteIdentifier(column) + "::text";
  }
  return "(to_jsonb(" + row + ") ->> " + SqlString(column) + ")";
}

// `table`'s own trigger functions, with static SQL (PL/pgSQL plans it once
// a session) where the generic functions of schema versions before 13
// built the row's JSON or ran an EXECUTE at every row (they may linger in
// such a database, unused): rankd_note_written_<table>
// with its key columns `pk` (their data types in `types`), and, with
// `next_id` (the one bigint key column), rankd_next_id_<table>. Rows of the
// table in another schema than `schema` (a copy made later) take the
// generic way.
std::string TableTriggerFunctions(const std::string& schema,
                                  const std::string& table,
                                  const std::vector<std::string>& pk,
                                  const std::vector<std::string>& types,
                                  bool next_id) {
  const std::string qualified =
      QuoteIdentifier(schema) + "." + QuoteIdentifier(table);
  std::string out;
  if (next_id) {
    const std::string col = QuoteIdentifier(pk[0]);
    out +=
        "CREATE OR REPLACE FUNCTION " +
        QuoteIdentifier("rankd_next_id_" + table) +
        "() RETURNS trigger LANGUAGE plpgsql AS $f$\n"
        "BEGIN\n"
        "  IF TG_TABLE_SCHEMA <> " +
        SqlString(schema) +
        " THEN\n"
        "    IF NEW." +
        col +
        " IS NULL THEN\n"
        "      EXECUTE format('SELECT coalesce(max(%I), 0) + 1 FROM %I.%I', " +
        SqlString(pk[0]) + ", TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO NEW." + col +
        ";\n"
        "    END IF;\n"
        "  ELSIF NEW." +
        col +
        " IS NULL THEN\n"
        "    SELECT coalesce(max(" +
        col + "), 0) + 1 INTO NEW." + col + " FROM " + qualified +
        ";\n"
        "  END IF;\n"
        "  PERFORM set_config('rankd.last_id', NEW." +
        col +
        "::text, true);\n"
        "  RETURN NEW;\n"
        "END $f$;\n";
  }
  std::string new_key, old_key;
  for (size_t i = 0; i < pk.size(); ++i) {
    new_key += (i ? ", " : "") + KeyText("NEW", pk[i], types[i]);
    old_key += (i ? ", " : "") + KeyText("OLD", pk[i], types[i]);
  }
  out += "CREATE OR REPLACE FUNCTION " +
         QuoteIdentifier("rankd_note_written_" + table) +
         "() RETURNS trigger LANGUAGE plpgsql AS $f$\n"
         "BEGIN\n"
         "  IF to_regclass('pg_temp.rankd_written') IS NULL THEN\n"
         "    RETURN NULL;\n"
         "  END IF;\n"
         "  IF TG_OP = 'DELETE' THEN\n"
         "    INSERT INTO pg_temp.rankd_written(tbl, key) VALUES "
         "(TG_TABLE_NAME, ARRAY[" +
         old_key +
         "]);\n"
         "  ELSE\n"
         "    INSERT INTO pg_temp.rankd_written(tbl, key) VALUES "
         "(TG_TABLE_NAME, ARRAY[" +
         new_key +
         "]);\n"
         "  END IF;\n"
         "  RETURN NULL;\n"
         "END $f$;\n";
  return out;
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
  std::string schema;
  {
    GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kCurrentSchema));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row || st->IsNull(0))
      return absl::InternalError("no current schema to install triggers in");
    schema = st->Text(0);
  }
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
    std::vector<std::string> types;
    for (const std::string& col : pk) {
      GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kIntegerKey));
      st->Bind(1, table).Bind(2, col);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      types.push_back(row ? st->Text(0) : "");
    }
    const bool next_id = pk.size() == 1 && types[0] == "bigint";
    GORANK_RETURN_IF_ERROR(
        conn.Exec(TableTriggerFunctions(schema, table, pk, types, next_id)));
    if (next_id) {
      GORANK_RETURN_IF_ERROR(conn.Exec(
          "CREATE OR REPLACE TRIGGER rankd_next_id BEFORE INSERT ON " + quoted +
          " FOR EACH ROW EXECUTE FUNCTION " +
          QuoteIdentifier("rankd_next_id_" + table) + "()"));
    }
    if (table == "audit_log") continue;
    GORANK_RETURN_IF_ERROR(conn.Exec(
        "CREATE OR REPLACE TRIGGER rankd_note_written AFTER INSERT OR UPDATE "
        "OR DELETE ON " +
        quoted + " FOR EACH ROW EXECUTE FUNCTION " +
        QuoteIdentifier("rankd_note_written_" + table) + "()"));
  }
  return absl::OkStatus();
}

}  // namespace gorank::storage
