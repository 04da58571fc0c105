/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_AUDIT_RECORD (steward_audit_record_get_type ())

G_DECLARE_FINAL_TYPE (StewardAuditRecord, steward_audit_record, STEWARD, AUDIT_RECORD, GObject)

/*
 * One line of the sampling audit journal as the audit dialog shows it:
 * the texts of its columns, worked out once, and a case-insensitive search
 * over them. Fields missing or of the wrong type read as empty.
 */
StewardAuditRecord *steward_audit_record_new           (JsonObject         *object);
JsonObject         *steward_audit_record_get_object    (StewardAuditRecord *self);
const char         *steward_audit_record_get_time_text (StewardAuditRecord *self);
const char         *steward_audit_record_get_server    (StewardAuditRecord *self);
const char         *steward_audit_record_get_decision  (StewardAuditRecord *self);
const char         *steward_audit_record_get_model     (StewardAuditRecord *self);
const char         *steward_audit_record_get_tokens    (StewardAuditRecord *self);
const char         *steward_audit_record_get_summary   (StewardAuditRecord *self);
/* @folded_needle: a needle already passed through g_utf8_casefold(). */
gboolean            steward_audit_record_matches       (StewardAuditRecord *self,
                                                        const char         *folded_needle);

G_END_DECLS
