/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-json-indent.h"
#include "steward-redactor.h"
#include "steward-scratch.h"

#include "steward-log-entry.h"

/*
 * How far past a cut the redaction still looks. A secret that starts
 * before the cut is recognised from its first bytes, and this margin lets
 * the rules that want a minimum length see enough of it; the rest of the
 * input is never copied.
 */
#define REDACT_MARGIN 4096

/* A store holds 100,000 of these, so every byte counts: the two texts
 * share one allocation of their exact size, the names are shared,
 * interned strings, and the instance fits in 64 bytes. */
struct _StewardLogEntry
{
  GObject  parent_instance;

  gint64   time_us;
  char    *server;         /* GRefString, interned; NULL for the host */
  char    *logger;         /* GRefString, interned, or NULL */
  char    *strings;        /* text, NUL, then detail and NUL when there is one */
  guint32  size;           /* saturated; payloads are capped far below */
  guint8   source;
  guint8   level;
  guint8   direction;
  guint8   detail;         /* DetailFlags */
};

typedef enum {
  DETAIL_PRESENT = 1 << 0,
  /* The detail is a protocol message as compact JSON, already redacted,
   * indented only when it is first read (indented_detail()). */
  DETAIL_COMPACT = 1 << 1,
  /* The message was longer than what is kept: the indented text ends
   * with a marker that says how large it was. */
  DETAIL_FOLDED  = 1 << 2,
  /* The texts are as they came: redacted when they are first read
   * (entry_strings()). Only short ones are, so that what redaction adds
   * never needs a cut. */
  DETAIL_UNREDACTED = 1 << 3,
} DetailFlags;

/* What indenting may write, leaving room for the fold marker within what
 * an entry keeps. */
#define INDENTED_MAX (STEWARD_LOG_ENTRY_MAX_DETAIL - 256)

/* A protocol message whose summary and compact text are within these is
 * redacted when first read rather than when it arrives: most are never
 * read. Redaction can make a text longer ("[redacted]" for a shorter
 * secret), by less than the text's own length, so half of each limit
 * leaves room for it. */
#define LAZY_TEXT_MAX (STEWARD_LOG_ENTRY_MAX_TEXT_CHARS / 2)
#define LAZY_DETAIL_MAX (INDENTED_MAX / 2)

enum {
  PROP_0,
  PROP_TIME,
  PROP_SERVER,
  PROP_SOURCE,
  PROP_LEVEL,
  PROP_DIRECTION,
  PROP_LOGGER,
  PROP_TEXT,
  PROP_DETAIL,
  PROP_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
/* Where the indented detail is kept once made (indented_detail()). */
static GQuark indented_quark;
/* Where the redacted texts are kept once made (entry_strings()). */
static GQuark redacted_quark;

G_DEFINE_FINAL_TYPE (StewardLogEntry, steward_log_entry, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StewardLogSource, steward_log_source,
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_SOURCE_STDERR, "stderr"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_SOURCE_SERVER, "server"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_SOURCE_TRACE, "protocol"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_SOURCE_HOST, "host"))

G_DEFINE_ENUM_TYPE (StewardLogLevel, steward_log_level,
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_DEBUG, "debug"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_INFO, "info"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_NOTICE, "notice"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_WARNING, "warning"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_ERROR, "error"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_CRITICAL, "critical"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_ALERT, "alert"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_LEVEL_EMERGENCY, "emergency"))

G_DEFINE_ENUM_TYPE (StewardLogDirection, steward_log_direction,
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_DIRECTION_NONE, "none"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_DIRECTION_IN, "in"),
  G_DEFINE_ENUM_VALUE (STEWARD_LOG_DIRECTION_OUT, "out"))

/* Indexed by the enums; the names are those of MCP's logging levels. */
static const char * const level_names[] = {
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
};
/* What the window calls them: a protocol message is "protocol". */
static const char * const source_names[] = {
  "stderr", "server", "protocol", "host",
};

static const char * const source_labels[] = {
  [STEWARD_LOG_SOURCE_STDERR] = N_("Stderr"),
  [STEWARD_LOG_SOURCE_SERVER] = N_("Server log"),
  /* Translators: where a log entry comes from: here, a protocol message in or out. */
  [STEWARD_LOG_SOURCE_TRACE] = N_("Protocol"),
  [STEWARD_LOG_SOURCE_HOST] = N_("Steward"),
};

static const char * const level_labels[] = {
  /* Translators: the log levels of the Model Context Protocol (syslog's). */
  [STEWARD_LOG_LEVEL_DEBUG] = N_("debug"),
  [STEWARD_LOG_LEVEL_INFO] = N_("info"),
  [STEWARD_LOG_LEVEL_NOTICE] = N_("notice"),
  [STEWARD_LOG_LEVEL_WARNING] = N_("warning"),
  [STEWARD_LOG_LEVEL_ERROR] = N_("error"),
  [STEWARD_LOG_LEVEL_CRITICAL] = N_("critical"),
  [STEWARD_LOG_LEVEL_ALERT] = N_("alert"),
  [STEWARD_LOG_LEVEL_EMERGENCY] = N_("emergency"),
};
static const char * const direction_names[] = {
  "none", "in", "out",
};

static gboolean
lookup_name (const char * const *names,
             guint               n_names,
             const char         *string,
             guint              *value)
{
  if (string == NULL)
    return FALSE;

  for (guint i = 0; i < n_names; i++)
    {
      if (g_ascii_strcasecmp (names[i], string) == 0)
        {
          *value = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* Whether @text is valid UTF-8 without NUL, as g_utf8_validate_len()
 * says, with ASCII passed over eight bytes at a time: nearly every logged
 * byte is ASCII (a summary's quotation marks are not), and GLib goes a
 * byte at a time. UTF-8 is valid sequence by sequence, so each other
 * sequence is handed to GLib on its own. */
static gboolean
is_valid_utf8 (const char *text,
               gsize       length)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  gsize i = 0;

  while (i < length)
    {
      guchar c;
      gsize n;

      for (; i + 8 <= length; i += 8)
        {
          guint64 v;

          memcpy (&v, text + i, sizeof v);
          /* A high bit set, or a zero byte (which borrows into its high bit). */
          if ((v | ((v - ones) & ~v)) & highs)
            break;
        }

      while (i < length && (guchar) (text[i] - 1) < 0x7f)
        i++;
      if (i == length)
        break;

      c = (guchar) text[i];
      n = g_utf8_skip[c];
      if (c == 0 || n > length - i || !g_utf8_validate_len (text + i, n, NULL))
        return FALSE;
      i += n;
    }

  return TRUE;
}

/*
 * At most @window bytes of @input (of @length bytes), valid UTF-8 and
 * redacted. The window is cut on a character boundary so that a
 * multi-byte character is not turned into a replacement character.
 *
 * Most text is valid and holds no secret: then @input itself is returned
 * and nothing is copied; otherwise the copy is returned in @owned too.
 */
static const char *
prepare (const char  *input,
         gsize        length,
         gsize        window,
         gsize       *out_length,
         char       **owned)
{
  g_autofree char *made_valid = NULL;
  const char *valid = input;
  char *redacted;
  gsize n = MIN (length, window);

  /* Back off over a partial character only, never over a long run of
   * stray continuation bytes. */
  for (guint i = 0; i < 3 && n > 0 && n < length && ((guchar) input[n] & 0xC0) == 0x80; i++)
    n--;

  if (!is_valid_utf8 (input, n))
    {
      made_valid = g_utf8_make_valid (input, n);
      valid = made_valid;
      n = strlen (made_valid);
    }

  redacted = steward_redact_if_needed (valid, n);
  if (redacted != NULL)
    {
      *out_length = strlen (redacted);
      return *owned = redacted;
    }

  *out_length = n;
  if (made_valid != NULL)
    return *owned = g_steal_pointer (&made_valid);

  *owned = NULL;
  return input;
}

/* The byte offset at which @text (valid UTF-8) holds @max_bytes or fewer. */
static gsize
utf8_cut (const char *text,
          gsize       length,
          gsize       max_bytes)
{
  const char *cut;

  if (length <= max_bytes)
    return length;

  cut = text + max_bytes;
  while (cut > text && ((guchar) *cut & 0xC0) == 0x80)
    cut--;

  return cut - text;
}

/* One line: line breaks, tabs and other control characters become spaces,
 * the ends are trimmed, and long text is cut with an ellipsis. */
static void
append_one_line (GString    *out,
                 const char *text,
                 gsize       length,
                 gboolean    input_cut)
{
  gsize start = out->len;
  gsize lead = 0;
  const char *p;
  guint n_chars = 0;

  /* Written in place at the end of @out, with no copy of its own. */
  g_string_append_len (out, text, length);
  {
    char *c;

    /* Characters are counted by their first bytes on the way, so that a
     * short line with nothing to trim, which most are, is done here. */
    for (c = out->str + start; *c != '\0'; c++)
      {
        if ((guchar) *c < 0x20 || *c == 0x7f)
          *c = ' ';
        n_chars += ((guchar) *c & 0xC0) != 0x80;
      }

    if (c == out->str + out->len && n_chars <= STEWARD_LOG_ENTRY_MAX_TEXT_CHARS &&
        !input_cut && (out->len == start ||
                       (out->str[start] != ' ' && out->str[out->len - 1] != ' ')))
      return;
    n_chars = 0;
  }

  /* Control characters are spaces now, so spaces are all there is to trim. */
  while (out->len > start && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  while (start + lead < out->len && out->str[start + lead] == ' ')
    lead++;
  g_string_erase (out, start, lead);

  for (p = out->str + start; *p != '\0' && n_chars < STEWARD_LOG_ENTRY_MAX_TEXT_CHARS;
       p = g_utf8_next_char (p))
    n_chars++;

  if (*p != '\0' || input_cut)
    {
      g_string_truncate (out, p - out->str);
      /* Trim again so that the ellipsis follows a word, not a space. */
      while (out->len > start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append (out, "…");
    }
}

static void
append_detail (GString    *out,
               const char *detail,
               gsize       length,
               gsize       folded_input)
{
  gsize keep = utf8_cut (detail, length, STEWARD_LOG_ENTRY_MAX_DETAIL);
  gsize folded = (length - keep) + folded_input;

  g_string_append_len (out, detail, keep);

  if (folded > 0)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GSIZE_FORMAT, folded);

      if (keep > 0 && detail[keep - 1] != '\n')
        g_string_append_c (out, '\n');
      /* Translators: the end of a log entry's text that was too long to
       * keep; %s is a number of bytes. */
      g_string_append_printf (out, ngettext ("… (%s byte folded)", "… (%s bytes folded)",
                                             folded),
                              count);
    }
}

static inline char
ascii_lower (char c)
{
  return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static gboolean
ascii_contains_nocase (const char *haystack,
                       const char *needle,
                       gsize       needle_len)
{
  char first[3];

  if (haystack == NULL)
    return FALSE;

  /* Skip to each place the first character stands, in either case, with
   * the C library's fast span; compare the rest there. */
  first[0] = ascii_lower (needle[0]);
  first[1] = g_ascii_toupper (needle[0]);
  first[2] = '\0';

  for (const char *h = haystack + strcspn (haystack, first);
       *h != '\0';
       h += 1 + strcspn (h + 1, first))
    {
      gsize i;

      for (i = 1; i < needle_len; i++)
        {
          if (h[i] == '\0' || ascii_lower (h[i]) != ascii_lower (needle[i]))
            break;
        }

      if (i == needle_len)
        return TRUE;
    }

  return FALSE;
}

static gboolean
utf8_contains_folded (const char *haystack,
                      const char *folded_needle)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;

  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, folded_needle) != NULL;
}

static void
steward_log_entry_finalize (GObject *object)
{
  StewardLogEntry *self = STEWARD_LOG_ENTRY (object);

  g_clear_pointer (&self->server, g_ref_string_release);
  g_clear_pointer (&self->logger, g_ref_string_release);
  g_clear_pointer (&self->strings, g_free);

  G_OBJECT_CLASS (steward_log_entry_parent_class)->finalize (object);
}

static void
steward_log_entry_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardLogEntry *self = STEWARD_LOG_ENTRY (object);

  switch (prop_id)
    {
    case PROP_TIME:
      g_value_set_int64 (value, self->time_us);
      break;

    case PROP_SERVER:
      g_value_set_string (value, self->server);
      break;

    case PROP_SOURCE:
      g_value_set_enum (value, self->source);
      break;

    case PROP_LEVEL:
      g_value_set_enum (value, self->level);
      break;

    case PROP_DIRECTION:
      g_value_set_enum (value, self->direction);
      break;

    case PROP_LOGGER:
      g_value_set_string (value, self->logger);
      break;

    case PROP_TEXT:
      g_value_set_string (value, steward_log_entry_get_text (self));
      break;

    case PROP_DETAIL:
      g_value_set_string (value, steward_log_entry_get_detail (self));
      break;

    case PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_log_entry_class_init (StewardLogEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = steward_log_entry_finalize;
  object_class->get_property = steward_log_entry_get_property;

  indented_quark = g_quark_from_static_string ("steward-log-entry-indented");
  redacted_quark = g_quark_from_static_string ("steward-log-entry-redacted");

  /* Read-only, so that list views can bind to them; entries never change. */
  properties[PROP_TIME] =
    g_param_spec_int64 ("time", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_SERVER] =
    g_param_spec_string ("server", NULL, NULL, NULL, flags);
  properties[PROP_SOURCE] =
    g_param_spec_enum ("source", NULL, NULL,
                       STEWARD_TYPE_LOG_SOURCE, STEWARD_LOG_SOURCE_HOST, flags);
  properties[PROP_LEVEL] =
    g_param_spec_enum ("level", NULL, NULL,
                       STEWARD_TYPE_LOG_LEVEL, STEWARD_LOG_LEVEL_INFO, flags);
  properties[PROP_DIRECTION] =
    g_param_spec_enum ("direction", NULL, NULL,
                       STEWARD_TYPE_LOG_DIRECTION, STEWARD_LOG_DIRECTION_NONE, flags);
  properties[PROP_LOGGER] =
    g_param_spec_string ("logger", NULL, NULL, NULL, flags);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL, flags);
  properties[PROP_DETAIL] =
    g_param_spec_string ("detail", NULL, NULL, NULL, flags);
  properties[PROP_SIZE] =
    g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_log_entry_init (StewardLogEntry *self)
{
}

/* The last server name interned on this thread: entries come a server at
 * a time, and interning looks the name up in GLib's table under a lock. */
static _Thread_local char *last_server;

/* The GPrivate owns the name, and releases it when the thread ends;
 * last_server is the same pointer, read without a library call. */
static void
last_server_free (gpointer data)
{
  last_server = NULL;
  g_ref_string_release (data);
}

static GPrivate last_server_key = G_PRIVATE_INIT (last_server_free);

/**
 * steward_log_entry_intern_server:
 * @server: a server's name
 *
 * The name as entries keep it: one shared copy for every entry of the
 * server (the last one asked for is found without a lookup).
 *
 * Returns: (transfer full) (nullable): a #GRefString reference, or %NULL
 *   when @server is not valid UTF-8
 */
char *
steward_log_entry_intern_server (const char *server)
{
  char *last = last_server;

  if (last != NULL && strcmp (last, server) == 0)
    return g_ref_string_acquire (last);

  /* Names come from servers too; only valid UTF-8 is kept. */
  if (!g_utf8_validate (server, -1, NULL))
    return NULL;

  last = g_ref_string_new_intern (server);
  g_private_replace (&last_server_key, last);
  last_server = last;
  return g_ref_string_acquire (last);
}

static StewardLogEntry *
entry_new (gint64               time_us,
           const char          *server,
           StewardLogSource     source,
           StewardLogLevel      level,
           StewardLogDirection  direction,
           const char          *logger,
           gsize                size)
{
  /* No properties are set at construction: this skips g_object_new()'s
   * walk of an empty list of name-value pairs, for every entry. */
  StewardLogEntry *self = (StewardLogEntry *) g_object_new_with_properties (STEWARD_TYPE_LOG_ENTRY,
                                                                            0, NULL, NULL);

  self->time_us = time_us;
  self->source = source;
  self->level = level;
  self->direction = direction;
  self->size = MIN (size, G_MAXUINT32);

  if (server != NULL)
    self->server = steward_log_entry_intern_server (server);
  /* Names come from servers too; only valid UTF-8 is kept. */
  if (logger != NULL && *logger != '\0' && g_utf8_validate (logger, -1, NULL))
    self->logger = g_ref_string_new_intern (logger);

  return self;
}

/**
 * steward_log_entry_new:
 * @time_us: wall-clock time in microseconds since the epoch
 * @server: (nullable): the server's name, %NULL for the host itself
 * @logger: (nullable): the logger named in notifications/message
 * @text: (nullable): the summary; only its first line's worth is kept
 * @detail: (nullable): the full text, %NULL or empty when there is none
 * @size: the size of the original payload in bytes
 *
 * Returns: (transfer full): a new entry
 */
StewardLogEntry *
steward_log_entry_new (gint64               time_us,
                       const char          *server,
                       StewardLogSource     source,
                       StewardLogLevel      level,
                       StewardLogDirection  direction,
                       const char          *logger,
                       const char          *text,
                       const char          *detail,
                       gsize                size)
{
  StewardLogEntry *self;
  g_autoptr(GString) strings = NULL;
  g_autofree char *text_owned = NULL;
  g_autofree char *detail_owned = NULL;
  const char *text_kept;
  const char *detail_kept = NULL;
  gsize text_window = STEWARD_LOG_ENTRY_MAX_TEXT_CHARS * 4 + REDACT_MARGIN;
  gsize detail_window = STEWARD_LOG_ENTRY_MAX_DETAIL + REDACT_MARGIN;
  gsize text_length;
  gsize text_kept_length;
  gsize detail_length = 0;
  gsize detail_kept_length = 0;

  g_return_val_if_fail (source <= STEWARD_LOG_SOURCE_HOST, NULL);
  g_return_val_if_fail (level <= STEWARD_LOG_LEVEL_EMERGENCY, NULL);
  g_return_val_if_fail (direction <= STEWARD_LOG_DIRECTION_OUT, NULL);

  self = entry_new (time_us, server, source, level, direction, logger, size);

  /* Redaction runs on what is given, before anything is kept. */
  if (text == NULL)
    text = "";
  text_length = strnlen (text, text_window + 1);
  text_kept = prepare (text, text_length, text_window, &text_kept_length, &text_owned);

  if (detail != NULL && *detail != '\0')
    {
      detail_length = strnlen (detail, detail_window);
      if (detail_length == detail_window)
        detail_length += strlen (detail + detail_window);
      detail_kept = prepare (detail, detail_length, detail_window, &detail_kept_length,
                             &detail_owned);
    }

  /* Room for both and a fold marker, so that the buffer is not grown. */
  strings = g_string_sized_new (text_kept_length + detail_kept_length + 128);
  append_one_line (strings, text_kept, text_kept_length, text_length > text_window);

  if (detail_kept != NULL)
    {
      g_string_append_c (strings, '\0');
      append_detail (strings, detail_kept, detail_kept_length,
                     detail_length > detail_window ? detail_length - detail_window : 0);
      self->detail = DETAIL_PRESENT;
    }

  /* A GString holds up to twice what it needs; keep the exact size. */
  self->strings = g_memdup2 (strings->str, strings->len + 1);

  return self;
}

/**
 * steward_log_entry_new_message:
 * @time_us: wall-clock time in microseconds since the epoch
 * @server: (nullable): the server's name
 * @direction: which way the message went
 * @text: the summary, one line
 * @json: the message as compact JSON, as Steward writes it
 * @json_length: the length of @json in bytes
 * @json_cut: whether @json stops short of the whole message
 * @size: the size of the whole message in bytes
 *
 * A protocol message's entry, whose detail is @json indented. Both texts
 * are redacted in one pass, and the compact text is what is redacted:
 * the same names, quotes and values as in the indented one, in fewer
 * bytes. Indenting comes after, so it never sees a secret.
 *
 * Returns: (transfer full): a new entry
 */
StewardLogEntry *
steward_log_entry_new_message (gint64               time_us,
                               const char          *server,
                               StewardLogDirection  direction,
                               const char          *text,
                               const char          *json,
                               gsize                json_length,
                               gboolean             json_cut,
                               gsize                size)
{
  StewardLogEntry *self;
  GString *both;
  GString *strings;
  g_autofree char *made_valid = NULL;
  g_autofree char *redacted = NULL;
  gsize text_window = STEWARD_LOG_ENTRY_MAX_TEXT_CHARS * 4 + REDACT_MARGIN;
  gsize window = STEWARD_LOG_ENTRY_MAX_DETAIL + REDACT_MARGIN;
  gsize text_length;
  gsize n = MIN (json_length, window);
  const char *scanned;
  gsize scanned_length;
  const char *separator;
  const char *compact;
  gsize compact_length;
  gsize kept;

  g_return_val_if_fail (direction <= STEWARD_LOG_DIRECTION_OUT, NULL);
  g_return_val_if_fail (json != NULL || json_length == 0, NULL);

  if (text == NULL)
    text = "";
  text_length = strnlen (text, text_window + 1);

  /* Most messages are short, and most entries are never read: such an
   * entry keeps its texts as they came, redacted when first read. */
  if (!json_cut && json_length <= LAZY_DETAIL_MAX && text_length <= LAZY_TEXT_MAX &&
      is_valid_utf8 (text, text_length) && is_valid_utf8 (json, json_length))
    {
      strings = steward_scratch_take (STEWARD_SCRATCH_ENTRY_STRINGS);
      append_one_line (strings, text, text_length, FALSE);

      self = entry_new (time_us, server, STEWARD_LOG_SOURCE_TRACE, STEWARD_LOG_LEVEL_DEBUG,
                        direction, NULL, size);
      self->detail = DETAIL_PRESENT | DETAIL_COMPACT | DETAIL_UNREDACTED;
      self->strings = g_malloc (strings->len + 1 + json_length + 1);
      memcpy (self->strings, strings->str, strings->len + 1);
      memcpy (self->strings + strings->len + 1, json, json_length);
      self->strings[strings->len + 1 + json_length] = '\0';

      steward_scratch_release (STEWARD_SCRATCH_ENTRY_STRINGS);
      return self;
    }

  /* Back off over a partial character only, as prepare() does. */
  for (guint i = 0; i < 3 && n > 0 && n < json_length && ((guchar) json[n] & 0xC0) == 0x80; i++)
    n--;

  /* The summary and the message, a line break between them, so that the
   * redactor goes over both at once: none of its rules reaches across a
   * line break, which the summary cannot hold. */
  both = steward_scratch_take (STEWARD_SCRATCH_ENTRY_SCANNED);
  g_string_append_len (both, text, MIN (text_length, text_window));
  for (char *c = both->str; *c != '\0'; c++)
    {
      if (*c == '\n' || *c == '\r')
        *c = ' ';
    }
  g_string_append_c (both, '\n');
  g_string_append_len (both, json, n);

  scanned = both->str;
  scanned_length = both->len;
  if (!is_valid_utf8 (scanned, scanned_length))
    {
      made_valid = g_utf8_make_valid (scanned, scanned_length);
      scanned = made_valid;
      scanned_length = strlen (made_valid);
    }

  redacted = steward_redact_if_needed (scanned, scanned_length);
  if (redacted != NULL)
    {
      scanned = redacted;
      scanned_length = strlen (redacted);
    }

  separator = memchr (scanned, '\n', scanned_length);
  if (separator == NULL)
    {
      g_autofree char *whole = g_strndup (json, json_length);

      /* A remembered secret that holds a line break took it: redact the
       * two apart, as any entry is. */
      return steward_log_entry_new (time_us, server, STEWARD_LOG_SOURCE_TRACE,
                                    STEWARD_LOG_LEVEL_DEBUG, direction, NULL, text, whole,
                                    size);
    }

  self = entry_new (time_us, server, STEWARD_LOG_SOURCE_TRACE, STEWARD_LOG_LEVEL_DEBUG,
                    direction, NULL, size);

  strings = steward_scratch_take (STEWARD_SCRATCH_ENTRY_STRINGS);
  append_one_line (strings, scanned, separator - scanned, text_length > text_window);
  g_string_append_c (strings, '\0');

  /* Indenting costs as much as redacting and most entries are never
   * looked at, so the compact text is kept, redacted already, and indented
   * when it is first read. Indenting only adds bytes, so what lies past
   * what the indented text could keep is not kept either. */
  compact = separator + 1;
  compact_length = scanned_length - (separator + 1 - scanned);
  kept = utf8_cut (compact, compact_length, INDENTED_MAX);

  self->detail = DETAIL_PRESENT | DETAIL_COMPACT;
  if (kept < compact_length || json_cut || json_length > n)
    self->detail |= DETAIL_FOLDED;

  /* The entry's block is written once: the line from the scratch buffer,
   * the compact text straight from where it was redacted. */
  self->strings = g_malloc (strings->len + kept + 1);
  memcpy (self->strings, strings->str, strings->len);
  memcpy (self->strings + strings->len, compact, kept);
  self->strings[strings->len + kept] = '\0';

  steward_scratch_release (STEWARD_SCRATCH_ENTRY_SCANNED);
  steward_scratch_release (STEWARD_SCRATCH_ENTRY_STRINGS);
  return self;
}

gint64
steward_log_entry_get_time (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), 0);

  return self->time_us;
}

/**
 * steward_log_entry_get_server:
 *
 * Returns: (nullable): the server's name, %NULL for the host itself
 */
const char *
steward_log_entry_get_server (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), NULL);

  return self->server;
}

StewardLogSource
steward_log_entry_get_source (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), STEWARD_LOG_SOURCE_HOST);

  return self->source;
}

StewardLogLevel
steward_log_entry_get_level (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), STEWARD_LOG_LEVEL_INFO);

  return self->level;
}

StewardLogDirection
steward_log_entry_get_direction (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), STEWARD_LOG_DIRECTION_NONE);

  return self->direction;
}

/**
 * steward_log_entry_get_logger:
 *
 * Returns: (nullable): the logger named in notifications/message
 */
const char *
steward_log_entry_get_logger (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), NULL);

  return self->logger;
}

/* The texts of an entry made with DETAIL_UNREDACTED, redacted as
 * steward_log_entry_new_message() redacts: the summary and the compact
 * text in one pass, a line break between them. */
static char *
redact_strings (const char *strings)
{
  gsize text_length = strlen (strings);
  const char *compact = strings + text_length + 1;
  gsize compact_length = strlen (compact);
  g_autofree char *both = g_malloc (text_length + 1 + compact_length + 1);
  g_autofree char *redacted = NULL;
  g_autofree char *text = NULL;
  g_autofree char *detail = NULL;
  const char *separator;
  GString *out;

  memcpy (both, strings, text_length);
  both[text_length] = '\n';
  memcpy (both + text_length + 1, compact, compact_length + 1);

  redacted = steward_redact_if_needed (both, text_length + 1 + compact_length);
  if (redacted == NULL)
    return NULL;

  separator = strchr (redacted, '\n');
  if (separator != NULL)
    {
      text = g_strndup (redacted, separator - redacted);
      detail = g_strdup (separator + 1);
    }
  else
    {
      /* A remembered secret that holds a line break took it: the two are
       * redacted apart. */
      text = steward_redact (strings);
      detail = steward_redact (compact);
    }

  out = g_string_sized_new (strlen (text) + strlen (detail) + 2);
  append_one_line (out, text, strlen (text), FALSE);
  g_string_append_c (out, '\0');
  g_string_append_len (out, detail, strlen (detail));

  return g_string_free (out, FALSE);
}

/* The entry's texts, the summary, a NUL, and the detail when there is
 * one, redacted. Entries are read from the export's worker thread too:
 * the first redacted copy stored wins. */
static const char *
entry_strings (StewardLogEntry *self)
{
  const char *strings;
  char *redacted;

  if (!(self->detail & DETAIL_UNREDACTED))
    return self->strings;

  strings = g_object_get_qdata (G_OBJECT (self), redacted_quark);
  if (strings != NULL)
    return strings;

  /* Nothing to hide, which is nearly always: the texts stand as they are. */
  redacted = redact_strings (self->strings);
  if (redacted == NULL)
    {
      g_object_replace_qdata (G_OBJECT (self), redacted_quark, NULL, self->strings, NULL, NULL);
      return g_object_get_qdata (G_OBJECT (self), redacted_quark);
    }

  if (!g_object_replace_qdata (G_OBJECT (self), redacted_quark, NULL, redacted, g_free, NULL))
    g_free (redacted);

  return g_object_get_qdata (G_OBJECT (self), redacted_quark);
}

/**
 * steward_log_entry_get_text:
 *
 * Returns: the one-line summary, never %NULL
 */
const char *
steward_log_entry_get_text (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), NULL);

  return entry_strings (self);
}

/* The indented text of a compact detail, made on first use and kept with
 * the entry. Entries are read from the export's worker thread too: the
 * first text stored wins and another one made at the same time is
 * dropped. */
static const char *
indented_detail (StewardLogEntry *self,
                 const char      *compact)
{
  GQuark quark = indented_quark;
  GString *out;
  char *indented;
  gboolean cut;

  indented = g_object_get_qdata (G_OBJECT (self), quark);
  if (indented != NULL)
    return indented;

  out = g_string_sized_new (2 * strlen (compact) + 128);
  cut = steward_json_indent_append (out, compact, strlen (compact), INDENTED_MAX);
  if (cut || (self->detail & DETAIL_FOLDED))
    {
      g_autofree char *whole = g_format_size (self->size);

      /* Translators: shown after the part of a long message the log keeps;
       * %s is a size such as "2.1 MB". */
      g_string_append_printf (out, _("\n… folded here; the whole is %s"), whole);
    }

  /* A GString holds up to twice what it needs; keep the exact size. */
  indented = g_memdup2 (out->str, out->len + 1);
  g_string_free (out, TRUE);

  if (!g_object_replace_qdata (G_OBJECT (self), quark, NULL, indented, g_free, NULL))
    {
      g_free (indented);
      indented = g_object_get_qdata (G_OBJECT (self), quark);
    }

  return indented;
}

/**
 * steward_log_entry_get_detail:
 *
 * Returns: (nullable): the full text, or %NULL when there is none
 */
const char *
steward_log_entry_get_detail (StewardLogEntry *self)
{
  const char *strings;
  const char *stored;

  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), NULL);

  if (!(self->detail & DETAIL_PRESENT))
    return NULL;

  /* The text is one short line, so finding its end costs little. */
  strings = entry_strings (self);
  stored = strings + strlen (strings) + 1;
  if (self->detail & DETAIL_COMPACT)
    return indented_detail (self, stored);

  return stored;
}

/**
 * steward_log_entry_get_kept_bytes:
 *
 * Returns: how many bytes of text the entry holds as it was made, which
 *   reading its detail does not change
 */
gsize
steward_log_entry_get_kept_bytes (StewardLogEntry *self)
{
  gsize text_length;

  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), 0);

  text_length = strlen (self->strings) + 1;
  if (!(self->detail & DETAIL_PRESENT))
    return text_length;

  return text_length + strlen (self->strings + text_length) + 1;
}

gsize
steward_log_entry_get_size (StewardLogEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), 0);

  return self->size;
}

gboolean
steward_log_entry_matches_text (StewardLogEntry *self,
                                const char      *needle)
{
  g_autofree char *folded_needle = NULL;
  gsize needle_len;
  gboolean ascii = TRUE;

  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (self), FALSE);

  if (needle == NULL || *needle == '\0')
    return TRUE;

  /* A filter runs this over the whole store on every key press, so the
   * common ASCII needle is matched without allocating. */
  needle_len = strlen (needle);
  for (gsize i = 0; i < needle_len; i++)
    {
      if ((guchar) needle[i] >= 0x80)
        {
          ascii = FALSE;
          break;
        }
    }

  if (ascii)
    return ascii_contains_nocase (steward_log_entry_get_text (self), needle, needle_len) ||
           ascii_contains_nocase (steward_log_entry_get_detail (self), needle, needle_len) ||
           ascii_contains_nocase (self->logger, needle, needle_len);

  folded_needle = g_utf8_casefold (needle, -1);
  return utf8_contains_folded (steward_log_entry_get_text (self), folded_needle) ||
         utf8_contains_folded (steward_log_entry_get_detail (self), folded_needle) ||
         utf8_contains_folded (self->logger, folded_needle);
}

/**
 * steward_log_level_to_string:
 *
 * Returns: the level's name in MCP ("debug" … "emergency")
 */
const char *
steward_log_level_to_string (StewardLogLevel level)
{
  g_return_val_if_fail (level < G_N_ELEMENTS (level_names), NULL);

  return level_names[level];
}

/**
 * steward_log_level_from_string:
 * @string: (nullable): a level's name in MCP, in any case
 * @level: (out): where to store the level
 *
 * Returns: whether @string names a level
 */
gboolean
steward_log_level_from_string (const char      *string,
                               StewardLogLevel *level)
{
  guint value;

  g_return_val_if_fail (level != NULL, FALSE);

  if (!lookup_name (level_names, G_N_ELEMENTS (level_names), string, &value))
    return FALSE;

  *level = value;
  return TRUE;
}

const char *
steward_log_source_to_string (StewardLogSource source)
{
  g_return_val_if_fail (source < G_N_ELEMENTS (source_names), NULL);

  return source_names[source];
}

gboolean
steward_log_source_from_string (const char       *string,
                                StewardLogSource *source)
{
  guint value;

  g_return_val_if_fail (source != NULL, FALSE);

  /* Exports and settings written before the source was called
   * "protocol" said "trace". */
  if (g_strcmp0 (string, "trace") == 0)
    value = STEWARD_LOG_SOURCE_TRACE;
  else if (!lookup_name (source_names, G_N_ELEMENTS (source_names), string, &value))
    return FALSE;

  *source = value;
  return TRUE;
}

const char *
steward_log_direction_to_string (StewardLogDirection direction)
{
  g_return_val_if_fail (direction < G_N_ELEMENTS (direction_names), NULL);

  return direction_names[direction];
}

gboolean
steward_log_direction_from_string (const char          *string,
                                   StewardLogDirection *direction)
{
  guint value;

  g_return_val_if_fail (direction != NULL, FALSE);

  if (!lookup_name (direction_names, G_N_ELEMENTS (direction_names), string, &value))
    return FALSE;

  *direction = value;
  return TRUE;
}

/**
 * steward_log_source_get_label:
 *
 * Returns: the source as the log viewer names it, translated
 */
const char *
steward_log_source_get_label (StewardLogSource source)
{
  if ((guint) source >= G_N_ELEMENTS (source_labels))
    return "";

  return _(source_labels[source]);
}

/**
 * steward_log_level_get_label:
 *
 * Returns: the level as the log viewer names it, translated
 */
const char *
steward_log_level_get_label (StewardLogLevel level)
{
  if ((guint) level >= G_N_ELEMENTS (level_labels))
    return "";

  return _(level_labels[level]);
}

const char *
steward_log_direction_get_arrow (StewardLogDirection direction)
{
  switch (direction)
    {
    case STEWARD_LOG_DIRECTION_OUT:
      return "→";
    case STEWARD_LOG_DIRECTION_IN:
      return "←";
    case STEWARD_LOG_DIRECTION_NONE:
    default:
      return "";
    }
}

void
steward_log_format_size (gsize size,
                         char  buffer[STEWARD_LOG_SIZE_LEN])
{
  if (size < 1024)
    g_snprintf (buffer, STEWARD_LOG_SIZE_LEN, "%u B", (guint) size);
  else if (size < 1024 * 1024)
    g_snprintf (buffer, STEWARD_LOG_SIZE_LEN, "%.1f KB", size / 1024.0);
  else
    g_snprintf (buffer, STEWARD_LOG_SIZE_LEN, "%.1f MB", size / (1024.0 * 1024.0));
}
