/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-line-framer"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-line-framer.h"

struct _McpLineFramer
{
  GByteArray *partial;
  gsize       max_line;
  gboolean    failed;
  gboolean    pending_cr;  /* a CR after a line of exactly the cap */
};

McpLineFramer *
mcp_line_framer_new (gsize max_line)
{
  McpLineFramer *self = g_new0 (McpLineFramer, 1);

  self->partial = g_byte_array_new ();
  self->max_line = max_line > 0 ? max_line : MCP_DEFAULT_MAX_MESSAGE_SIZE;

  return self;
}

void
mcp_line_framer_free (McpLineFramer *self)
{
  if (self == NULL)
    return;

  g_byte_array_unref (self->partial);
  g_free (self);
}

static void
emit_line (const char  *line,
           gsize        length,
           McpLineFunc  func,
           gpointer     user_data)
{
  if (length > 0 && line[length - 1] == '\r')
    length--;

  if (length > 0)
    func (line, length, user_data);
}

static gboolean
too_large (McpLineFramer  *self,
           GError        **error)
{
  g_autofree char *cap = g_format_size_full (self->max_line, G_FORMAT_SIZE_IEC_UNITS);

  self->failed = TRUE;
  g_byte_array_set_size (self->partial, 0);
  g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
               "the server wrote a message larger than the limit of %s", cap);
  return FALSE;
}

/**
 * mcp_line_framer_push:
 *
 * Splits @data into lines and calls @func for each complete one. Whole lines
 * inside @data are passed without copying; only a trailing partial line is
 * kept. The framer fails, and stays failed, as soon as a line grows past the
 * cap, whether or not its newline has arrived, so that a peer cannot make us
 * buffer more than the cap.
 *
 * Returns: %FALSE with %MCP_ERROR_MESSAGE_TOO_LARGE once a line is too long
 */
gboolean
mcp_line_framer_push (McpLineFramer  *self,
                      const char     *data,
                      gsize           length,
                      McpLineFunc     func,
                      gpointer        user_data,
                      GError        **error)
{
  const char *end = data + length;
  const char *p = data;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  if (self->failed)
    return too_large (self, error);

  /* A line of exactly the cap was followed by a CR: it ends here with a
   * newline, or it is one byte too long. */
  if (self->pending_cr && p < end)
    {
      if (*p != '\n')
        return too_large (self, error);

      /* The CR was already taken off: the line is the buffer as it is. */
      self->pending_cr = FALSE;
      if (self->partial->len > 0)
        func ((const char *) self->partial->data, self->partial->len, user_data);
      g_byte_array_set_size (self->partial, 0);
      p++;
    }

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      gsize chunk = (nl ? nl : end) - p;
      gsize line_length = self->partial->len + chunk;

      if (line_length > self->max_line)
        {
          char last = chunk > 0 ? p[chunk - 1] : (char) self->partial->data[self->partial->len - 1];

          /* One byte over is allowed while it is a CR, which will not be
           * part of the line if a newline follows it. */
          if (line_length > self->max_line + 1 || last != '\r')
            return too_large (self, error);

          /* Without its newline yet, the CR is remembered, not buffered,
           * so the buffer never holds more than the cap. */
          if (nl == NULL)
            {
              g_byte_array_append (self->partial, (const guint8 *) p, chunk - 1);
              self->pending_cr = TRUE;
              break;
            }
        }

      if (nl == NULL)
        {
          g_byte_array_append (self->partial, (const guint8 *) p, chunk);
          break;
        }

      if (self->partial->len > 0)
        {
          g_byte_array_append (self->partial, (const guint8 *) p, chunk);
          emit_line ((const char *) self->partial->data, self->partial->len, func, user_data);
          /* Give a large line's memory back instead of keeping it for good. */
          if (self->partial->len > 1024 * 1024)
            {
              g_byte_array_unref (self->partial);
              self->partial = g_byte_array_new ();
            }
          else
            g_byte_array_set_size (self->partial, 0);
        }
      else
        emit_line (p, chunk, func, user_data);

      p = nl + 1;
    }

  return TRUE;
}

gsize
mcp_line_framer_get_buffered (McpLineFramer *self)
{
  return self->partial->len;
}

gsize
mcp_line_framer_get_max_line (McpLineFramer *self)
{
  return self->max_line;
}
