/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-parser"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-line-framer.h"
#include "mcp-sse-parser.h"

/* Buffers that grew past this are given back after use rather than kept for
 * the next event, so one large event does not pin its memory for good. */
#define KEEP_ALLOCATION (64 * 1024)

/* The longest field name with a meaning ("event", "retry"); longer names are
 * unknown fields and only counted, never stored. */
#define MAX_FIELD_NAME 5

typedef enum {
  FIELD_IGNORED,  /* a comment or an unknown field */
  FIELD_DATA,
  FIELD_EVENT,
  FIELD_ID,
  FIELD_RETRY,
} Field;

typedef enum {
  LINE_NAME,   /* before the colon */
  LINE_SPACE,  /* just after the colon, where one space is dropped */
  LINE_VALUE,
} LineState;

/* A byte buffer that is always nul-terminated and never allocates more than
 * the parser's cap plus the terminator, so memory follows what is held. */
typedef struct {
  char  *str;
  gsize  len;
  gsize  alloc;
} Buffer;

struct _McpSseParser
{
  gsize      max;
  GError    *failure;      /* set once, then every push returns a copy */

  /* Per stream */
  guint      bom_matched;  /* bytes of a leading BOM seen so far */
  gboolean   bom_done;
  gboolean   skip_lf;      /* the last chunk ended with a CR */

  /* Per line */
  LineState  state;
  Field      field;
  char       name[MAX_FIELD_NAME];
  gsize      name_len;     /* all of it, also past what is stored */
  gsize      line_len;
  gboolean   id_has_nul;
  guint64    retry_value;
  gboolean   retry_digits; /* at least one digit came */
  gboolean   retry_valid;  /* nothing but digits, and no overflow, so far */

  /* Per event */
  Buffer     data;
  Buffer     type;
  gboolean   has_data;     /* a data field was seen: the next one adds "\n" */

  /* The last event id: the value of the line in progress, the buffer the
   * algorithm keeps (only while it differs from the committed one) and the
   * string committed when an event ends, which a reconnection sends. */
  Buffer     pending_id;
  Buffer     id_buffer;
  gboolean   id_dirty;
  Buffer     last_id;
  gboolean   has_last_id;

  gint64     retry;
};

static const char bom[] = "\xef\xbb\xbf";

static void
buffer_append (Buffer     *buf,
               const char *bytes,
               gsize       length,
               gsize       max)
{
  gsize needed = buf->len + length + 1;

  if (needed > buf->alloc)
    {
      /* Doubling keeps appends linear; the cap bounds the doubling so a
       * buffer near the cap does not reserve twice what it may hold. */
      gsize alloc = MAX (MAX (buf->alloc * 2, 64), needed);

      buf->alloc = MIN (alloc, max + 1);
      buf->str = g_realloc (buf->str, buf->alloc);
    }

  memcpy (buf->str + buf->len, bytes, length);
  buf->len += length;
  buf->str[buf->len] = '\0';
}

static void
buffer_reset (Buffer *buf)
{
  if (buf->alloc > KEEP_ALLOCATION)
    {
      g_clear_pointer (&buf->str, g_free);
      buf->alloc = 0;
    }
  else if (buf->str != NULL)
    buf->str[0] = '\0';

  buf->len = 0;
}

static void
buffer_clear (Buffer *buf)
{
  g_clear_pointer (&buf->str, g_free);
  buf->len = 0;
  buf->alloc = 0;
}

static void
buffer_swap (Buffer *a,
             Buffer *b)
{
  Buffer tmp = *a;

  *a = *b;
  *b = tmp;
}

static const char *
buffer_cstr (const Buffer *buf)
{
  return buf->str != NULL ? buf->str : "";
}

/* The bytes held for the event in progress: its data, its type and an id
 * it set that is not committed yet. */
static gsize
in_progress (McpSseParser *self)
{
  return self->data.len + self->type.len + self->pending_id.len +
         (self->id_dirty ? self->id_buffer.len : 0);
}

/* The bytes that count against the cap: everything an event carries, the
 * last event id it goes out with included. Field names and BOM bytes are
 * not counted: they never exceed a few bytes. */
static gsize
held (McpSseParser *self)
{
  return in_progress (self) + self->last_id.len;
}

static char *
format_cap (gsize cap)
{
  if (cap % (1024 * 1024) == 0)
    return g_strdup_printf ("%" G_GSIZE_FORMAT " MiB", cap / (1024 * 1024));
  if (cap % 1024 == 0)
    return g_strdup_printf ("%" G_GSIZE_FORMAT " KiB", cap / 1024);
  return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", cap);
}

static gboolean
fail (McpSseParser  *self,
      gboolean       whole_event,
      GError       **error)
{
  g_autofree char *cap = format_cap (self->max);

  if (whole_event)
    self->failure = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                 "the server sent an event larger than the limit of %s", cap);
  else
    self->failure = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                 "the server sent an event-stream line longer than the limit of %s",
                                 cap);

  /* Nothing more will be parsed: give the memory back now. */
  buffer_clear (&self->data);
  buffer_clear (&self->type);
  buffer_clear (&self->pending_id);
  buffer_clear (&self->id_buffer);
  self->id_dirty = FALSE;

  g_propagate_error (error, g_error_copy (self->failure));
  return FALSE;
}

/* Appends to one of the buffers that count against the cap, failing before
 * the cap would be passed. */
static gboolean
append_held (McpSseParser  *self,
             Buffer        *buf,
             const char    *bytes,
             gsize          length,
             GError       **error)
{
  if (length > self->max - held (self))
    return fail (self, TRUE, error);

  buffer_append (buf, bytes, length, self->max);
  return TRUE;
}

/* Lines of a data field are bounded by the event cap alone; every other line
 * is stored in part or not at all, so it is capped on its own length, or a
 * comment could go on forever. */
static gboolean
line_may_be_data (McpSseParser *self)
{
  if (self->state == LINE_NAME)
    return self->name_len <= 4 && memcmp (self->name, "data", self->name_len) == 0;

  return self->field == FIELD_DATA;
}

static gboolean
check_line (McpSseParser  *self,
            GError       **error)
{
  if (self->line_len > self->max && !line_may_be_data (self))
    return fail (self, FALSE, error);

  return TRUE;
}

static Field
field_from_name (McpSseParser *self)
{
  static const struct {
    const char *name;
    Field       field;
  } fields[] = {
    { "data", FIELD_DATA },
    { "event", FIELD_EVENT },
    { "id", FIELD_ID },
    { "retry", FIELD_RETRY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      gsize len = strlen (fields[i].name);

      if (self->name_len == len && memcmp (self->name, fields[i].name, len) == 0)
        return fields[i].field;
    }

  return FIELD_IGNORED;
}

static gboolean
start_field (McpSseParser  *self,
             GError       **error)
{
  self->field = field_from_name (self);

  switch (self->field)
    {
    case FIELD_DATA:
      /* Data lines are joined with "\n" as they come, rather than each
       * getting one that is taken off again, so the buffer holds exactly
       * the event's data and an event at the cap fits. */
      if (self->has_data && !append_held (self, &self->data, "\n", 1, error))
        return FALSE;
      self->has_data = TRUE;
      break;

    case FIELD_EVENT:
      buffer_reset (&self->type);
      break;

    case FIELD_ID:
      buffer_reset (&self->pending_id);
      self->id_has_nul = FALSE;
      break;

    case FIELD_RETRY:
      self->retry_value = 0;
      self->retry_digits = FALSE;
      self->retry_valid = TRUE;
      break;

    case FIELD_IGNORED:
    default:
      break;
    }

  return TRUE;
}

static gboolean
take_value (McpSseParser  *self,
            const char    *p,
            gsize          n,
            GError       **error)
{
  switch (self->field)
    {
    case FIELD_DATA:
      return append_held (self, &self->data, p, n, error);

    case FIELD_EVENT:
      return append_held (self, &self->type, p, n, error);

    case FIELD_ID:
      {
        const char *nul;

        /* An id with a NUL is ignored whatever follows, so stop keeping it.
         * The bytes before the NUL are taken first, as they would be if the
         * NUL came in a later chunk, so the cap gives way at the same byte
         * however the stream is cut. */
        if (self->id_has_nul)
          return TRUE;
        nul = memchr (p, '\0', n);
        if (!append_held (self, &self->pending_id, p, nul != NULL ? (gsize) (nul - p) : n, error))
          return FALSE;
        if (nul != NULL)
          {
            self->id_has_nul = TRUE;
            buffer_reset (&self->pending_id);
          }
        return TRUE;
      }

    case FIELD_RETRY:
      for (gsize i = 0; i < n && self->retry_valid; i++)
        {
          guint digit = (guchar) p[i] - '0';

          if (digit > 9 || self->retry_value > ((guint64) G_MAXINT64 - digit) / 10)
            self->retry_valid = FALSE;
          else
            {
              self->retry_value = self->retry_value * 10 + digit;
              self->retry_digits = TRUE;
            }
        }
      return TRUE;

    case FIELD_IGNORED:
    default:
      return TRUE;
    }
}

/* Takes the part of the current line that is in this chunk: @n bytes that
 * hold no CR or LF. */
static gboolean
take_line_part (McpSseParser  *self,
                const char    *p,
                gsize          n,
                GError       **error)
{
  while (n > 0)
    {
      if (self->state == LINE_NAME)
        {
          const char *colon = memchr (p, ':', n);
          gsize k = colon != NULL ? (gsize) (colon - p) : n;

          if (self->name_len < MAX_FIELD_NAME)
            memcpy (self->name + self->name_len, p, MIN (k, MAX_FIELD_NAME - self->name_len));
          self->name_len += k;
          self->line_len += k;

          if (colon == NULL)
            return check_line (self, error);

          self->line_len++;
          p += k + 1;
          n -= k + 1;
          if (!start_field (self, error))
            return FALSE;
          self->state = LINE_SPACE;
          if (!check_line (self, error))
            return FALSE;
        }
      else if (self->state == LINE_SPACE)
        {
          if (*p == ' ')
            {
              self->line_len++;
              p++;
              n--;
            }
          self->state = LINE_VALUE;
        }
      else
        {
          self->line_len += n;
          if (!check_line (self, error))
            return FALSE;
          return take_value (self, p, n, error);
        }
    }

  return check_line (self, error);
}

static void
dispatch (McpSseParser    *self,
          McpSseEventFunc  func,
          gpointer         user_data)
{
  /* The event source's last event id follows the buffer at every blank
   * line, whether or not an event goes out. */
  if (self->id_dirty)
    {
      buffer_swap (&self->last_id, &self->id_buffer);
      buffer_reset (&self->id_buffer);
      self->id_dirty = FALSE;
      self->has_last_id = TRUE;
    }

  /* WHATWG would dispatch an event whose data is the empty string. MCP's
   * priming event (an id and an empty data line) carries no message, so an
   * event without data is not dispatched at all. */
  if (self->data.len > 0)
    {
      McpSseEvent event = {
        .type = self->type.len > 0 ? self->type.str : "message",
        .data = self->data.str,
        .data_length = self->data.len,
        .id = self->has_last_id ? buffer_cstr (&self->last_id) : NULL,
      };

      func (&event, user_data);
    }

  buffer_reset (&self->data);
  buffer_reset (&self->type);
  self->has_data = FALSE;
}

static gboolean
end_line (McpSseParser     *self,
          McpSseEventFunc   func,
          gpointer          user_data,
          GError          **error)
{
  if (self->state == LINE_NAME)
    {
      if (self->name_len == 0)
        {
          dispatch (self, func, user_data);
          return TRUE;
        }

      /* A line without a colon is a field with an empty value. */
      if (!start_field (self, error))
        return FALSE;
      self->state = LINE_VALUE;
      if (!check_line (self, error))
        return FALSE;
    }

  switch (self->field)
    {
    case FIELD_ID:
      if (!self->id_has_nul)
        {
          buffer_swap (&self->id_buffer, &self->pending_id);
          self->id_dirty = TRUE;
        }
      buffer_reset (&self->pending_id);
      break;

    case FIELD_RETRY:
      if (self->retry_valid && self->retry_digits)
        self->retry = (gint64) self->retry_value;
      break;

    case FIELD_DATA:
    case FIELD_EVENT:
    case FIELD_IGNORED:
    default:
      break;
    }

  self->state = LINE_NAME;
  self->field = FIELD_IGNORED;
  self->name_len = 0;
  self->line_len = 0;

  return TRUE;
}

/* Where the line ends: the first CR or LF from @p, or @end. Both searches are
 * remembered across calls within one chunk, so a chunk of many short lines is
 * still scanned only once. */
static const char *
find_line_end (const char  *p,
               const char  *end,
               const char **cr,
               const char **lf)
{
  if (*cr == NULL || *cr < p)
    {
      *cr = memchr (p, '\r', end - p);
      if (*cr == NULL)
        *cr = end;
    }
  if (*lf == NULL || *lf < p)
    {
      *lf = memchr (p, '\n', end - p);
      if (*lf == NULL)
        *lf = end;
    }

  return MIN (*cr, *lf);
}

static gboolean
feed (McpSseParser     *self,
      const char       *p,
      const char       *end,
      McpSseEventFunc   func,
      gpointer          user_data,
      GError          **error)
{
  const char *cr = NULL;
  const char *lf = NULL;

  /* A CR that ended the last chunk and this LF are one line end. */
  if (self->skip_lf && p < end)
    {
      if (*p == '\n')
        p++;
      self->skip_lf = FALSE;
    }

  while (p < end)
    {
      const char *eol = find_line_end (p, end, &cr, &lf);

      if (!take_line_part (self, p, eol - p, error))
        return FALSE;
      if (eol == end)
        break;
      if (!end_line (self, func, user_data, error))
        return FALSE;

      p = eol + 1;
      if (*eol == '\r')
        {
          if (p == end)
            self->skip_lf = TRUE;
          else if (*p == '\n')
            p++;
        }
    }

  return TRUE;
}

static void
reset_stream (McpSseParser *self)
{
  self->bom_matched = 0;
  self->bom_done = FALSE;
  self->skip_lf = FALSE;

  self->state = LINE_NAME;
  self->field = FIELD_IGNORED;
  self->name_len = 0;
  self->line_len = 0;

  buffer_reset (&self->data);
  buffer_reset (&self->type);
  buffer_reset (&self->pending_id);
  self->has_data = FALSE;

  /* An id line whose event never ended is not committed: a reconnection
   * resumes after the last event that did end. */
  buffer_reset (&self->id_buffer);
  self->id_dirty = FALSE;
}

/**
 * mcp_sse_parser_new:
 * @max_event_size: the cap on the bytes held for one event, or 0 for
 *   %MCP_DEFAULT_MAX_MESSAGE_SIZE
 *
 * Returns: (transfer full): a parser at the start of a stream
 */
McpSseParser *
mcp_sse_parser_new (gsize max_event_size)
{
  McpSseParser *self = g_new0 (McpSseParser, 1);

  self->max = max_event_size > 0 ? max_event_size : MCP_DEFAULT_MAX_MESSAGE_SIZE;
  self->retry = -1;
  reset_stream (self);

  return self;
}

void
mcp_sse_parser_free (McpSseParser *self)
{
  if (self == NULL)
    return;

  buffer_clear (&self->data);
  buffer_clear (&self->type);
  buffer_clear (&self->pending_id);
  buffer_clear (&self->id_buffer);
  buffer_clear (&self->last_id);
  g_clear_error (&self->failure);
  g_free (self);
}

/**
 * mcp_sse_parser_push:
 * @self: a parser
 * @data: the next bytes of the stream, cut anywhere
 * @length: their length
 * @func: called once for each event that ends in @data
 * @user_data: for @func
 * @error: where to put the failure
 *
 * Parses @data as the continuation of the stream, following the WHATWG
 * event-stream rules, except that an event whose data is empty is not
 * dispatched. @func must not push to or free the parser.
 *
 * The cap covers every byte the parser holds for an event: its data, its
 * type and its last event id. The push that would take them past the cap
 * fails, before buffering anything more, and so does a line of any field
 * other than `data` (a comment, say) that is longer than the cap. Once
 * failed, the parser stays failed.
 *
 * Returns: %FALSE with %MCP_ERROR_MESSAGE_TOO_LARGE once the cap is passed
 */
gboolean
mcp_sse_parser_push (McpSseParser     *self,
                     const char       *data,
                     gsize             length,
                     McpSseEventFunc   func,
                     gpointer          user_data,
                     GError          **error)
{
  const char *p = data;
  const char *end = data + length;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  if (self->failure != NULL)
    {
      g_propagate_error (error, g_error_copy (self->failure));
      return FALSE;
    }

  if (length == 0)
    return TRUE;

  /* A BOM is skipped once, at the very start; its first bytes wait until
   * it is clear whether they are one, and are parsed as text if not. */
  if (!self->bom_done)
    {
      while (p < end && self->bom_matched < 3 && *p == bom[self->bom_matched])
        {
          self->bom_matched++;
          p++;
        }

      if (self->bom_matched == 3)
        self->bom_done = TRUE;
      else if (p < end)
        {
          self->bom_done = TRUE;
          if (!feed (self, bom, bom + self->bom_matched, func, user_data, error))
            return FALSE;
        }
    }

  return feed (self, p, end, func, user_data, error);
}

/**
 * mcp_sse_parser_finish:
 * @self: a parser
 *
 * Ends the stream. An event that has not ended is discarded, as is a line
 * without its line end. The last event id and the retry time are kept, and
 * the parser is ready for the stream of a reconnection, where a BOM is
 * skipped again.
 */
void
mcp_sse_parser_finish (McpSseParser *self)
{
  g_return_if_fail (self != NULL);

  reset_stream (self);
}

/**
 * mcp_sse_parser_get_last_id:
 * @self: a parser
 *
 * The last event id as of the last event that ended (with or without data
 * to dispatch): what a reconnection sends in `Last-Event-ID`. An `id` line
 * of an event that has not ended yet does not count, so that event is not
 * skipped when the stream is resumed.
 *
 * Returns: (nullable): the id, "" after an empty `id` field, or %NULL if the
 *   stream never set one
 */
const char *
mcp_sse_parser_get_last_id (McpSseParser *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->has_last_id ? buffer_cstr (&self->last_id) : NULL;
}

/**
 * mcp_sse_parser_get_retry:
 * @self: a parser
 *
 * Returns: the last valid `retry` value in milliseconds, or -1 if none came
 */
gint64
mcp_sse_parser_get_retry (McpSseParser *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->retry;
}

/**
 * mcp_sse_parser_get_buffered:
 * @self: a parser
 *
 * The bytes held for the event in progress: its data, its type, an id it
 * set, and a field name or the start of a BOM not yet known for what they
 * are. It is 0 between events, also once the stream has set an id: the
 * committed last event id is kept for good and not counted here, though it
 * counts against the cap. It never exceeds the cap by more than
 * %MCP_SSE_PARSER_SLACK bytes.
 *
 * Returns: the number of bytes
 */
gsize
mcp_sse_parser_get_buffered (McpSseParser *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return in_progress (self) +
         (self->state == LINE_NAME ? MIN (self->name_len, MAX_FIELD_NAME) : 0) +
         (self->bom_done ? 0 : self->bom_matched);
}
