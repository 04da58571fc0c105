/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  STEWARD_LOG_SOURCE_STDERR,      /* a line a local server wrote to stderr */
  STEWARD_LOG_SOURCE_SERVER,      /* notifications/message */
  STEWARD_LOG_SOURCE_TRACE,       /* a JSON-RPC message in or out */
  STEWARD_LOG_SOURCE_HOST,        /* consent, start, crash, restart, diagnostics */
} StewardLogSource;

/* The syslog levels MCP uses, in rising severity. */
typedef enum {
  STEWARD_LOG_LEVEL_DEBUG,
  STEWARD_LOG_LEVEL_INFO,
  STEWARD_LOG_LEVEL_NOTICE,
  STEWARD_LOG_LEVEL_WARNING,
  STEWARD_LOG_LEVEL_ERROR,
  STEWARD_LOG_LEVEL_CRITICAL,
  STEWARD_LOG_LEVEL_ALERT,
  STEWARD_LOG_LEVEL_EMERGENCY,
} StewardLogLevel;

typedef enum {
  STEWARD_LOG_DIRECTION_NONE,
  STEWARD_LOG_DIRECTION_IN,       /* server → Steward */
  STEWARD_LOG_DIRECTION_OUT,      /* Steward → server */
} StewardLogDirection;

/* The one-line text is cut after this many characters, with "…". */
#define STEWARD_LOG_ENTRY_MAX_TEXT_CHARS 200
/* The detail keeps at most this many bytes, then "… (N bytes folded)". */
#define STEWARD_LOG_ENTRY_MAX_DETAIL (64 * 1024)

#define STEWARD_TYPE_LOG_SOURCE (steward_log_source_get_type ())
#define STEWARD_TYPE_LOG_LEVEL (steward_log_level_get_type ())
#define STEWARD_TYPE_LOG_DIRECTION (steward_log_direction_get_type ())

GType steward_log_source_get_type    (void) G_GNUC_CONST;
GType steward_log_level_get_type     (void) G_GNUC_CONST;
GType steward_log_direction_get_type (void) G_GNUC_CONST;

#define STEWARD_TYPE_LOG_ENTRY (steward_log_entry_get_type ())

G_DECLARE_FINAL_TYPE (StewardLogEntry, steward_log_entry, STEWARD, LOG_ENTRY, GObject)

/*
 * One immutable entry. @text is the one-line summary shown in the list
 * (for a trace entry: method and id, or "result"/"error" and id); @detail is
 * the full text shown when the entry is unfolded (pretty JSON for trace and
 * notifications/message data), at most 64 KiB kept with a marker when
 * folded; @size is the size in bytes of the original payload.
 *
 * Both texts are redacted (steward_redact()) before they are cut, so that
 * no entry ever holds a secret and no cut leaves half of one readable;
 * invalid UTF-8 is replaced and the text is made one line. @server and
 * @logger are interned, as a flood repeats the same few names.
 */
StewardLogEntry     *steward_log_entry_new             (gint64               time_us,
                                                        const char          *server,
                                                        StewardLogSource     source,
                                                        StewardLogLevel      level,
                                                        StewardLogDirection  direction,
                                                        const char          *logger,
                                                        const char          *text,
                                                        const char          *detail,
                                                        gsize                size);
/* A protocol message: @json, its compact JSON (@json_cut when that is
 * only its start), becomes the detail, indented; see the .c file. */
StewardLogEntry     *steward_log_entry_new_message     (gint64               time_us,
                                                        const char          *server,
                                                        StewardLogDirection  direction,
                                                        const char          *text,
                                                        const char          *json,
                                                        gsize                json_length,
                                                        gboolean             json_cut,
                                                        gsize                size);

char                *steward_log_entry_intern_server   (const char          *server);

gint64               steward_log_entry_get_time        (StewardLogEntry     *self);
const char          *steward_log_entry_get_server      (StewardLogEntry     *self);
StewardLogSource     steward_log_entry_get_source      (StewardLogEntry     *self);
StewardLogLevel      steward_log_entry_get_level       (StewardLogEntry     *self);
StewardLogDirection  steward_log_entry_get_direction   (StewardLogEntry     *self);
const char          *steward_log_entry_get_logger      (StewardLogEntry     *self);
const char          *steward_log_entry_get_text        (StewardLogEntry     *self);
const char          *steward_log_entry_get_detail      (StewardLogEntry     *self);
gsize                steward_log_entry_get_size        (StewardLogEntry     *self);
gsize                steward_log_entry_get_kept_bytes  (StewardLogEntry     *self);

/* Case-insensitive match of @needle in text, detail and logger. */
gboolean             steward_log_entry_matches_text    (StewardLogEntry     *self,
                                                        const char          *needle);

const char          *steward_log_level_to_string       (StewardLogLevel      level);
gboolean             steward_log_level_from_string     (const char          *string,
                                                        StewardLogLevel     *level);
const char          *steward_log_source_to_string      (StewardLogSource     source);
gboolean             steward_log_source_from_string    (const char          *string,
                                                        StewardLogSource    *source);
/* The words and signs the log viewer shows, also in a text export. */
const char          *steward_log_source_get_label      (StewardLogSource     source);
const char          *steward_log_level_get_label       (StewardLogLevel      level);
/* "→" for out, "←" for in, "" for none. */
const char          *steward_log_direction_get_arrow   (StewardLogDirection  direction);
#define STEWARD_LOG_SIZE_LEN 16
/* "812 B", "1.2 KB", "4.6 MB". */
void                 steward_log_format_size           (gsize                size,
                                                        char                 buffer[STEWARD_LOG_SIZE_LEN]);
/* "none", "in" (server → Steward) or "out" (Steward → server). */
const char          *steward_log_direction_to_string   (StewardLogDirection  direction);
gboolean             steward_log_direction_from_string (const char          *string,
                                                        StewardLogDirection *direction);

G_END_DECLS
