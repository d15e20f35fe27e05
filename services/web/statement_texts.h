// The words of the certificate statement check (statement_page.h) in the
// portal's two languages: one table of fixed strings a language, some with
// %1.. placeholders that the page fills with escaped values. Immutable;
// thread-safe.
#ifndef GORANK_SERVICES_WEB_STATEMENT_TEXTS_H_
#define GORANK_SERVICES_WEB_STATEMENT_TEXTS_H_

#include "services/web/html.h"

namespace gorank::web {

// One language's words; a comment names what fills %1, %2, ... in order.
struct StatementTexts {
  const char* title;
  const char* sig_valid;
  const char* sig_invalid;
  const char* sig_wrong_key;
  const char* caption;
  const char* field;
  const char* value;
  const char* number;
  const char* grade;
  const char* discipline;
  const char* go;
  const char* gomoku;
  const char* issue_date;
  const char* agency;
  const char* key;
  const char* entry;
  const char* no_entry;
  const char* inclusion;
  const char* included;  // entry, size, root, time
  const char* not_included;
  const char* revocation;
  const char* revoked;      // date
  const char* not_revoked;  // size
  const char* state;
  const char* name_hint;
  const char* name_label;
  const char* check;
  const char* name_matches;
  const char* name_differs;
  const char* valid;
  const char* under_notice;
  const char* state_revoked;
  const char* not_valid;
  const char* malformed;
};

// The table for `lang` (Chinese unless English); static storage.
const StatementTexts& StatementTextsFor(Lang lang);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_STATEMENT_TEXTS_H_
