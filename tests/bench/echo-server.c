/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "echo-server"

#include "config.h"

/*
 * A minimal MCP server over stdio with one tool, `echo`, written for speed
 * so that the benchmark measures the clients and not the server. It uses
 * nothing but libc: a buffered reader on stdin, a small JSON scanner that
 * validates each line and finds the few members it needs, and one write per
 * batch of answers.
 *
 * It speaks the stateful revisions (initialize, then requests) and answers
 * initialize, ping, tools/list and tools/call; other methods get -32601.
 * Notifications and responses from the client are read and ignored.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The revision we answer when the client asks for one we do not know. */
#define LATEST_REVISION "2025-11-25"

/* Deeper documents are refused rather than scanned, as the clients do. */
#define MAX_DEPTH 64

/* A line longer than this is answered with a parse error and skipped. */
#define MAX_LINE_SIZE (64 * 1024 * 1024)

#define READ_CHUNK (64 * 1024)

/* Method names, tool names and revisions are short; a longer one is
 * unknown anyway, so decoding stops there. */
#define MAX_NAME_SIZE 256

static const char * const supported_revisions[] = {
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  NULL,
};

typedef struct {
  const char *start;
  size_t      len;
} Span;

typedef struct {
  char   *data;
  size_t  len;
  size_t  cap;
} Buffer;

static Buffer out;

static void
die (const char *what)
{
  fprintf (stderr, "echo-server: %s: %s\n", what, strerror (errno));
  exit (EXIT_FAILURE);
}

static void
buffer_reserve (Buffer *buf,
                size_t  extra)
{
  if (buf->len + extra <= buf->cap)
    return;

  while (buf->len + extra > buf->cap)
    buf->cap = buf->cap ? buf->cap * 2 : READ_CHUNK;
  buf->data = realloc (buf->data, buf->cap);
  if (buf->data == NULL)
    die ("out of memory");
}

static void
append (const char *data,
        size_t      len)
{
  buffer_reserve (&out, len);
  memcpy (out.data + out.len, data, len);
  out.len += len;
}

static void
append_str (const char *str)
{
  append (str, strlen (str));
}

static void
flush_out (void)
{
  size_t done = 0;

  while (done < out.len)
    {
      ssize_t n = write (STDOUT_FILENO, out.data + done, out.len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        die ("writing to stdout");
      done += (size_t) n;
    }
  out.len = 0;
}

/* Scanning. Every function takes the cursor and the end, returns the cursor
 * after what it scanned, or NULL when the text is not JSON. */

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p;
}

static bool
is_hex (char c)
{
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const char *
scan_string (const char *p,
             const char *end)
{
  if (p >= end || *p != '"')
    return NULL;

  for (p++; p < end; p++)
    {
      unsigned char c = (unsigned char) *p;

      if (c == '"')
        return p + 1;
      if (c < 0x20)
        return NULL;
      if (c != '\\')
        continue;

      if (++p >= end)
        return NULL;
      switch (*p)
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          break;
        case 'u':
          if (end - p < 5 || !is_hex (p[1]) || !is_hex (p[2]) || !is_hex (p[3]) || !is_hex (p[4]))
            return NULL;
          p += 4;
          break;
        default:
          return NULL;
        }
    }

  return NULL;
}

static const char *
scan_digits (const char *p,
             const char *end)
{
  const char *start = p;

  while (p < end && *p >= '0' && *p <= '9')
    p++;
  return p > start ? p : NULL;
}

static const char *
scan_number (const char *p,
             const char *end)
{
  if (p < end && *p == '-')
    p++;
  if (p < end && *p == '0')
    p++;
  else if ((p = scan_digits (p, end)) == NULL)
    return NULL;

  if (p < end && *p == '.' && (p = scan_digits (p + 1, end)) == NULL)
    return NULL;

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if ((p = scan_digits (p, end)) == NULL)
        return NULL;
    }

  return p;
}

static const char *
scan_literal (const char *p,
              const char *end,
              const char *word)
{
  size_t len = strlen (word);

  if ((size_t) (end - p) < len || memcmp (p, word, len) != 0)
    return NULL;
  return p + len;
}

static const char *scan_value (const char *p, const char *end, int depth);

static const char *
scan_container (const char *p,
                const char *end,
                int         depth)
{
  char close = *p == '{' ? '}' : ']';
  bool is_object = *p == '{';

  if (depth >= MAX_DEPTH)
    return NULL;

  p = skip_space (p + 1, end);
  if (p < end && *p == close)
    return p + 1;

  for (;;)
    {
      if (is_object)
        {
          if ((p = scan_string (p, end)) == NULL)
            return NULL;
          p = skip_space (p, end);
          if (p >= end || *p != ':')
            return NULL;
          p = skip_space (p + 1, end);
        }

      if ((p = scan_value (p, end, depth + 1)) == NULL)
        return NULL;
      p = skip_space (p, end);

      if (p < end && *p == ',')
        p = skip_space (p + 1, end);
      else if (p < end && *p == close)
        return p + 1;
      else
        return NULL;
    }
}

static const char *
scan_value (const char *p,
            const char *end,
            int         depth)
{
  if (p >= end)
    return NULL;

  switch (*p)
    {
    case '"':
      return scan_string (p, end);
    case '{':
    case '[':
      return scan_container (p, end, depth);
    case 't':
      return scan_literal (p, end, "true");
    case 'f':
      return scan_literal (p, end, "false");
    case 'n':
      return scan_literal (p, end, "null");
    default:
      return scan_number (p, end);
    }
}

static unsigned
hex_value (const char *p)
{
  unsigned value = 0;

  for (int i = 0; i < 4; i++)
    {
      char c = p[i];

      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= (unsigned) (c - '0');
      else if (c >= 'a' && c <= 'f')
        value |= (unsigned) (c - 'a' + 10);
      else
        value |= (unsigned) (c - 'A' + 10);
    }
  return value;
}

static size_t
put_utf8 (char     *dest,
          unsigned  cp)
{
  if (cp < 0x80)
    {
      dest[0] = (char) cp;
      return 1;
    }
  if (cp < 0x800)
    {
      dest[0] = (char) (0xc0 | (cp >> 6));
      dest[1] = (char) (0x80 | (cp & 0x3f));
      return 2;
    }
  if (cp < 0x10000)
    {
      dest[0] = (char) (0xe0 | (cp >> 12));
      dest[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
      dest[2] = (char) (0x80 | (cp & 0x3f));
      return 3;
    }
  dest[0] = (char) (0xf0 | (cp >> 18));
  dest[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
  dest[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
  dest[3] = (char) (0x80 | (cp & 0x3f));
  return 4;
}

/* Decodes a scanned string token (quotes included) into @dest, NUL
 * terminated. Returns false when it does not fit; names that long are
 * never ones we know. */
static bool
decode_string (Span  token,
               char *dest,
               size_t cap)
{
  const char *p = token.start + 1;
  const char *end = token.start + token.len - 1;
  size_t len = 0;

  while (p < end)
    {
      char tmp[4];
      size_t n;

      if (*p != '\\')
        {
          tmp[0] = *p++;
          n = 1;
        }
      else
        {
          char e = p[1];

          p += 2;
          switch (e)
            {
            case 'b': tmp[0] = '\b'; n = 1; break;
            case 'f': tmp[0] = '\f'; n = 1; break;
            case 'n': tmp[0] = '\n'; n = 1; break;
            case 'r': tmp[0] = '\r'; n = 1; break;
            case 't': tmp[0] = '\t'; n = 1; break;
            case 'u':
              {
                unsigned cp = hex_value (p);

                p += 4;
                /* A high surrogate joins the low one after it; a lone one
                 * becomes U+FFFD, as decoders that replace do. */
                if (cp >= 0xd800 && cp < 0xdc00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u')
                  {
                    unsigned low = hex_value (p + 2);

                    if (low >= 0xdc00 && low < 0xe000)
                      {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                        p += 6;
                      }
                  }
                if (cp >= 0xd800 && cp < 0xe000)
                  cp = 0xfffd;
                n = put_utf8 (tmp, cp);
              }
              break;
            default:
              tmp[0] = e;
              n = 1;
              break;
            }
        }

      if (len + n >= cap)
        return false;
      memcpy (dest + len, tmp, n);
      len += n;
    }

  dest[len] = '\0';
  return true;
}

static bool
string_equals (Span        token,
               const char *expected)
{
  char decoded[MAX_NAME_SIZE];

  return token.start != NULL && *token.start == '"' &&
         decode_string (token, decoded, sizeof decoded) &&
         strcmp (decoded, expected) == 0;
}

/* Finds member @key of the object token @object (already validated). */
static bool
find_member (Span        object,
             const char *key,
             Span       *value)
{
  const char *end = object.start + object.len;
  const char *p;

  if (object.start == NULL || *object.start != '{')
    return false;

  p = skip_space (object.start + 1, end);
  while (p < end && *p == '"')
    {
      Span name = { p, 0 };
      const char *value_start;

      p = scan_string (p, end);
      name.len = (size_t) (p - name.start);
      p = skip_space (p, end);
      value_start = skip_space (p + 1, end);
      p = scan_value (value_start, end, 0);

      if (string_equals (name, key))
        {
          value->start = value_start;
          value->len = (size_t) (p - value_start);
          return true;
        }

      p = skip_space (p, end);
      if (*p == ',')
        p = skip_space (p + 1, end);
    }

  return false;
}

/* Answers */

static void
begin_answer (Span id)
{
  append_str ("{\"jsonrpc\":\"2.0\",\"id\":");
  if (id.start != NULL)
    append (id.start, id.len);
  else
    append_str ("null");
}

static void
answer_result (Span        id,
               const char *result)
{
  begin_answer (id);
  append_str (",\"result\":");
  append_str (result);
  append_str ("}\n");
}

static void
answer_error (Span        id,
              int         code,
              const char *message)
{
  char code_text[16];

  snprintf (code_text, sizeof code_text, "%d", code);
  begin_answer (id);
  append_str (",\"error\":{\"code\":");
  append_str (code_text);
  append_str (",\"message\":\"");
  append_str (message);
  append_str ("\"}}\n");
}

static void
answer_initialize (Span id,
                   Span params)
{
  const char *revision = LATEST_REVISION;
  Span requested;
  char name[MAX_NAME_SIZE];

  /* The client's revision when we speak it, else our newest: the client
   * then decides whether it can go on. */
  if (find_member (params, "protocolVersion", &requested) && *requested.start == '"' &&
      decode_string (requested, name, sizeof name))
    {
      for (int i = 0; supported_revisions[i] != NULL; i++)
        if (strcmp (name, supported_revisions[i]) == 0)
          revision = supported_revisions[i];
    }

  begin_answer (id);
  append_str (",\"result\":{\"protocolVersion\":\"");
  append_str (revision);
  append_str ("\",\"capabilities\":{\"tools\":{}},"
              "\"serverInfo\":{\"name\":\"steward-bench-echo\","
              "\"version\":\"" PACKAGE_VERSION "\"}}}\n");
}

static void
answer_tools_call (Span id,
                   Span params)
{
  Span name;
  Span arguments;
  Span message;

  if (!find_member (params, "name", &name) || !string_equals (name, "echo"))
    {
      answer_error (id, -32602, "Unknown tool");
      return;
    }

  /* Bad arguments are a tool error, not a protocol one, so that a model
   * reading the result can correct itself. */
  if (!find_member (params, "arguments", &arguments) ||
      !find_member (arguments, "message", &message) || *message.start != '"')
    {
      answer_result (id, "{\"content\":[{\"type\":\"text\","
                         "\"text\":\"The argument message must be a string\"}],"
                         "\"isError\":true}");
      return;
    }

  /* The token is valid JSON string text, escapes and all, so it goes out
   * as it came in: decoding and encoding again would give the same text. */
  begin_answer (id);
  append_str (",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Echo: ");
  append (message.start + 1, message.len - 2);
  append_str ("\"}]}}\n");
}

static void
handle_line (const char *line,
             size_t      len)
{
  static const Span no_id = { NULL, 0 };
  const char *end = line + len;
  const char *p = skip_space (line, end);
  Span message;
  Span method;
  Span id = no_id;
  Span params = no_id;

  if (p == end)
    return;

  message.start = p;
  p = scan_value (p, end, 0);
  if (p == NULL || skip_space (p, end) != end)
    {
      answer_error (no_id, -32700, "Parse error");
      return;
    }
  message.len = (size_t) (p - message.start);

  if (*message.start != '{')
    {
      answer_error (no_id, -32600, "Invalid Request: expected one JSON-RPC object");
      return;
    }

  /* Without a method it is a response to a request of ours; we send none,
   * so there is nothing to match it with. Without an id it is a
   * notification, which needs no answer. */
  if (!find_member (message, "method", &method) || !find_member (message, "id", &id))
    return;

  if (*id.start != '"' && *id.start != '-' && (*id.start < '0' || *id.start > '9'))
    {
      answer_error (no_id, -32600, "Invalid Request: the id must be a string or a number");
      return;
    }

  if (*method.start != '"')
    {
      answer_error (id, -32600, "Invalid Request: the method must be a string");
      return;
    }

  find_member (message, "params", &params);

  if (string_equals (method, "tools/call"))
    answer_tools_call (id, params);
  else if (string_equals (method, "ping"))
    answer_result (id, "{}");
  else if (string_equals (method, "tools/list"))
    answer_result (id, "{\"tools\":[{\"name\":\"echo\","
                       "\"description\":\"Echoes the message back\","
                       "\"inputSchema\":{\"type\":\"object\","
                       "\"properties\":{\"message\":{\"type\":\"string\","
                       "\"description\":\"The text to echo\"}},"
                       "\"required\":[\"message\"]}}]}");
  else if (string_equals (method, "initialize"))
    answer_initialize (id, params);
  else
    answer_error (id, -32601, "Method not found");
}

int
main (void)
{
  Buffer in = { NULL, 0, 0 };
  size_t scanned = 0;
  bool skipping = false;

  for (;;)
    {
      ssize_t n;
      char *newline;
      size_t start = 0;

      buffer_reserve (&in, READ_CHUNK);
      n = read (STDIN_FILENO, in.data + in.len, in.cap - in.len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        die ("reading stdin");
      if (n == 0)
        break;
      in.len += (size_t) n;

      /* Every complete line in the buffer is answered before one write,
       * so a burst of requests costs one system call back. */
      while ((newline = memchr (in.data + scanned, '\n', in.len - scanned)) != NULL)
        {
          size_t line_len = (size_t) (newline - (in.data + start));

          if (!skipping)
            handle_line (in.data + start, line_len);
          skipping = false;
          start += line_len + 1;
          scanned = start;
        }
      if (in.len - start > MAX_LINE_SIZE && !skipping)
        {
          answer_error ((Span) { NULL, 0 }, -32700, "Parse error: message too large");
          skipping = true;
        }
      if (skipping)
        start = in.len;

      memmove (in.data, in.data + start, in.len - start);
      in.len -= start;
      scanned = in.len;

      flush_out ();
    }

  /* A last line without a newline is still a message. */
  if (in.len > 0 && !skipping)
    handle_line (in.data, in.len);
  flush_out ();

  free (in.data);
  free (out.data);
  return EXIT_SUCCESS;
}
