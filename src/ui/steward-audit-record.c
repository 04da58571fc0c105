/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-audit-record"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-audit-record.h"

struct _StewardAuditRecord
{
  GObject     parent_instance;

  JsonObject *object;
  char       *time_text;
  char       *server;
  char       *decision;
  char       *model;
  char       *tokens;
  char       *summary;
  /* Every column, casefolded, for the search. */
  char       *haystack;
};

G_DEFINE_FINAL_TYPE (StewardAuditRecord, steward_audit_record, G_TYPE_OBJECT)

/* The journal writes ISO 8601; numbers are read as seconds, milliseconds
 * or microseconds since the epoch by their size. */
static char *
format_time (JsonObject *object)
{
  const char *text = mcp_json_get_string (object, "time");
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;
  gint64 number;

  if (text != NULL)
    {
      g_autoptr(GTimeZone) tz = g_time_zone_new_utc ();

      utc = g_date_time_new_from_iso8601 (text, tz);
      if (utc == NULL)
        return g_strdup (text);
    }
  else if (mcp_json_get_int64 (object, "time", G_MININT64, G_MAXINT64, &number))
    {
      if (number > G_GINT64_CONSTANT (100000000000000))
        number /= G_USEC_PER_SEC;
      else if (number > G_GINT64_CONSTANT (100000000000))
        number /= 1000;

      utc = g_date_time_new_from_unix_utc (number);
    }

  if (utc == NULL)
    return g_strdup ("");

  local = g_date_time_to_local (utc);
  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
}

static char *
format_decision (const char *decision)
{
  if (decision == NULL)
    return g_strdup ("");
  /* Translators: decisions on sampling requests in the audit journal. */
  if (g_str_equal (decision, "sent"))
    return g_strdup (C_("sampling decision", "Sent"));
  if (g_str_equal (decision, "rejected"))
    return g_strdup (C_("sampling decision", "Rejected"));
  if (g_str_equal (decision, "denied"))
    return g_strdup (C_("sampling decision", "Denied"));
  if (g_str_equal (decision, "limited"))
    return g_strdup (C_("sampling decision", "Limited"));
  if (g_str_equal (decision, "failed"))
    return g_strdup (C_("sampling decision", "Failed"));
  if (g_str_equal (decision, "cancelled"))
    return g_strdup (C_("sampling decision", "Cancelled"));

  return g_strdup (decision);
}

static char *
format_tokens (JsonObject *object)
{
  gint64 input = 0;
  gint64 output = 0;
  gboolean has_input = mcp_json_get_int64 (object, "inputTokens", G_MININT64, G_MAXINT64,
                                           &input);
  gboolean has_output = mcp_json_get_int64 (object, "outputTokens", G_MININT64, G_MAXINT64,
                                            &output);

  if (!has_input && !has_output)
    return g_strdup ("");

  /* Translators: tokens sent to the model and tokens it answered with. */
  return g_strdup_printf (_("%lld in · %lld out"), (long long) input,
                          (long long) output);
}

static char *
format_summary (JsonObject *object,
                const char *decision)
{
  const char *summary = mcp_json_get_string (object, "summary");
  const char *reason = mcp_json_get_string (object, "reason");
  const char *cause = mcp_json_get_string (object, "cause");
  g_autoptr(GString) text = g_string_new (NULL);

  /* A refusal's reason says more than the prompt it refused. */
  if (reason != NULL && *reason != '\0' && g_strcmp0 (decision, "sent") != 0)
    g_string_append (text, reason);

  if (summary != NULL && *summary != '\0')
    {
      if (text->len > 0)
        g_string_append (text, " — ");
      g_string_append (text, summary);
    }
  else if (cause != NULL && *cause != '\0')
    {
      if (text->len > 0)
        g_string_append (text, " — ");
      g_string_append (text, cause);
    }

  /* The summary is one line in the list. */
  g_strdelimit (text->str, "\r\n\t", ' ');

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
steward_audit_record_finalize (GObject *object)
{
  StewardAuditRecord *self = STEWARD_AUDIT_RECORD (object);

  g_clear_pointer (&self->object, json_object_unref);
  g_free (self->time_text);
  g_free (self->server);
  g_free (self->decision);
  g_free (self->model);
  g_free (self->tokens);
  g_free (self->summary);
  g_free (self->haystack);

  G_OBJECT_CLASS (steward_audit_record_parent_class)->finalize (object);
}

static void
steward_audit_record_class_init (StewardAuditRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_audit_record_finalize;
}

static void
steward_audit_record_init (StewardAuditRecord *self)
{
}

StewardAuditRecord *
steward_audit_record_new (JsonObject *object)
{
  StewardAuditRecord *self;
  const char *decision;
  g_autofree char *joined = NULL;

  g_return_val_if_fail (object != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_AUDIT_RECORD, NULL);
  self->object = json_object_ref (object);

  decision = mcp_json_get_string (object, "decision");
  self->time_text = format_time (object);
  self->server = g_strdup (mcp_json_get_string (object, "server") ? mcp_json_get_string (object, "server") : "");
  self->decision = format_decision (decision);
  self->model = g_strdup (mcp_json_get_string (object, "model") ? mcp_json_get_string (object, "model") : "");
  self->tokens = format_tokens (object);
  self->summary = format_summary (object, decision);

  joined = g_strjoin ("\n", self->time_text, self->server, self->decision,
                      decision != NULL ? decision : "", self->model, self->summary, NULL);
  self->haystack = g_utf8_casefold (joined, -1);

  return self;
}

JsonObject *
steward_audit_record_get_object (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->object;
}

const char *
steward_audit_record_get_time_text (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->time_text;
}

const char *
steward_audit_record_get_server (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->server;
}

const char *
steward_audit_record_get_decision (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->decision;
}

const char *
steward_audit_record_get_model (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->model;
}

const char *
steward_audit_record_get_tokens (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->tokens;
}

const char *
steward_audit_record_get_summary (StewardAuditRecord *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), NULL);

  return self->summary;
}

gboolean
steward_audit_record_matches (StewardAuditRecord *self,
                              const char         *folded_needle)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_RECORD (self), FALSE);

  if (folded_needle == NULL || *folded_needle == '\0')
    return TRUE;

  return strstr (self->haystack, folded_needle) != NULL;
}
