/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-floor-http"
/* For memmem() and strcasestr(). */
#define _GNU_SOURCE

#include "config.h"

#include "bench-floor-common.h"

/*
 * The floor of the Streamable HTTP tools/call benchmark: what the round
 * trips cost with no client at all. One persistent HTTP/1.1 connection on a
 * plain blocking socket; the initialize exchange done by hand (the session
 * id the server hands out is sent back, with the protocol version, on every
 * later request); then fixed POSTs, one after the other, each written only
 * once the previous response has been read to its end. A response is read
 * as far as it takes to know that it is complete (its Content-Length, or
 * chunked encoding to the last chunk), whether it is JSON or an event
 * stream, and searched for the echo; nothing else is parsed. Whatever a
 * real client spends above this is the client's own cost.
 *
 *   bench-floor-http [--calls N] [--warmup N] URL
 *
 * URL is an http:// address such as http://127.0.0.1:3001/mcp.
 */

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The same text the other two clients send. */
#define MESSAGE "Hello from the Steward benchmark"
#define PROTOCOL_VERSION "2025-11-25"

#define DEFAULT_CALLS 10000
#define DEFAULT_WARMUP 2000

/* Far more than any header the server sends; a longer one is not ours to
 * read and the benchmark stops rather than guess. */
#define SESSION_ID_MAX 256

typedef struct {
  int     fd;
  /* What came off the socket and is not consumed yet: [start, len). */
  char   *data;
  size_t  start;
  size_t  len;
  size_t  cap;
  /* The current response's body, chunks joined, NUL terminated. */
  char   *body;
  size_t  body_len;
  size_t  body_cap;
  int     status;
  char    session[SESSION_ID_MAX];
} Connection;

static void
fail (const char *what)
{
  fprintf (stderr, "bench-floor-http: %s: %s\n", what, errno ? strerror (errno) : "failed");
  exit (EXIT_FAILURE);
}

static void
fail_with (const char *what)
{
  errno = 0;
  fail (what);
}

static void *
grow (void   *data,
      size_t *cap,
      size_t  wanted)
{
  size_t new_cap = *cap ? *cap : 4096;

  if (wanted <= *cap)
    return data;
  while (new_cap < wanted)
    new_cap *= 2;
  data = realloc (data, new_cap);
  if (data == NULL)
    fail ("growing a buffer");
  *cap = new_cap;
  return data;
}

static void
write_all (int         fd,
           const char *data,
           size_t      len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        fail ("writing to the server");
      data += n;
      len -= (size_t) n;
    }
}

/* Reads once, as much as the socket holds, after what is buffered. */
static void
fill (Connection *conn)
{
  ssize_t n;

  if (conn->start > 0)
    {
      memmove (conn->data, conn->data + conn->start, conn->len - conn->start);
      conn->len -= conn->start;
      conn->start = 0;
    }
  if (conn->len == conn->cap)
    conn->data = grow (conn->data, &conn->cap, conn->cap + 1);

  do
    n = read (conn->fd, conn->data + conn->len, conn->cap - conn->len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    fail ("reading from the server");
  if (n == 0)
    fail_with ("the server closed the connection");
  conn->len += (size_t) n;
}

/* Returns the next line ending in CRLF, without it and NUL terminated. */
static char *
read_line (Connection *conn)
{
  for (;;)
    {
      char *begin = conn->data + conn->start;
      char *end = memmem (begin, conn->len - conn->start, "\r\n", 2);

      if (end != NULL)
        {
          *end = '\0';
          conn->start += (size_t) (end - begin) + 2;
          return begin;
        }
      fill (conn);
    }
}

/* Moves the next @len bytes to the body. */
static void
read_body_bytes (Connection *conn,
                 size_t      len)
{
  while (conn->len - conn->start < len)
    fill (conn);
  conn->body = grow (conn->body, &conn->body_cap, conn->body_len + len + 1);
  memcpy (conn->body + conn->body_len, conn->data + conn->start, len);
  conn->body_len += len;
  conn->body[conn->body_len] = '\0';
  conn->start += len;
}

static bool
header_is (const char  *line,
           const char  *name,
           const char **value)
{
  size_t len = strlen (name);

  if (strncasecmp (line, name, len) != 0 || line[len] != ':')
    return false;
  *value = line + len + 1;
  *value += strspn (*value, " \t");
  return true;
}

/* Reads one whole response: its status, the session id if it names one,
 * and its body. */
static void
read_response (Connection *conn)
{
  const char *value;
  char *line;
  long long content_length = -1;
  bool chunked = false;

  conn->body_len = 0;
  conn->body = grow (conn->body, &conn->body_cap, 1);
  conn->body[0] = '\0';

  line = read_line (conn);
  if (sscanf (line, "HTTP/1.%*d %d", &conn->status) != 1)
    fail_with ("the server did not answer in HTTP/1.x");

  while (*(line = read_line (conn)) != '\0')
    {
      if (header_is (line, "content-length", &value))
        content_length = strtoll (value, NULL, 10);
      else if (header_is (line, "transfer-encoding", &value))
        chunked = strcasestr (value, "chunked") != NULL;
      else if (header_is (line, "mcp-session-id", &value))
        {
          if (strlen (value) >= sizeof conn->session)
            fail_with ("the session id is too long");
          strcpy (conn->session, value);
        }
    }

  if (chunked)
    {
      for (;;)
        {
          unsigned long size = strtoul (read_line (conn), NULL, 16);

          if (size == 0)
            break;
          read_body_bytes (conn, size);
          if (*read_line (conn) != '\0')
            fail_with ("a chunk did not end where its size said");
        }
      /* Trailers, if any, up to the empty line that ends the response. */
      while (*read_line (conn) != '\0')
        ;
    }
  else if (content_length > 0)
    read_body_bytes (conn, (size_t) content_length);
  else if (content_length < 0 && conn->status >= 200 && conn->status != 204 &&
           conn->status != 304)
    fail_with ("a response had neither Content-Length nor chunked encoding");
}

static void
post (Connection *conn,
      const char *host,
      const char *path,
      const char *body,
      size_t      body_len)
{
  char request[1024];
  int len;

  len = snprintf (request, sizeof request,
                  "POST %s HTTP/1.1\r\n"
                  "Host: %s\r\n"
                  "Content-Type: application/json\r\n"
                  "Accept: application/json, text/event-stream\r\n"
                  "%s%s%s"
                  "Content-Length: %zu\r\n"
                  "\r\n"
                  "%s",
                  path, host,
                  conn->session[0] ? "Mcp-Session-Id: " : "",
                  conn->session[0] ? conn->session : "",
                  conn->session[0] ? "\r\nMCP-Protocol-Version: " PROTOCOL_VERSION "\r\n" : "",
                  body_len, body);
  if (len < 0 || (size_t) len >= sizeof request)
    fail_with ("a request did not fit its buffer");
  write_all (conn->fd, request, (size_t) len);
}

/* Ends the session politely, so that the server drops what it kept for
 * it; not timed. */
static void
delete_session (Connection *conn,
                const char *host,
                const char *path)
{
  char request[1024];
  int len;

  len = snprintf (request, sizeof request,
                  "DELETE %s HTTP/1.1\r\n"
                  "Host: %s\r\n"
                  "Mcp-Session-Id: %s\r\n"
                  "MCP-Protocol-Version: " PROTOCOL_VERSION "\r\n"
                  "Content-Length: 0\r\n"
                  "\r\n",
                  path, host, conn->session);
  if (len < 0 || (size_t) len >= sizeof request)
    fail_with ("a request did not fit its buffer");
  write_all (conn->fd, request, (size_t) len);
  read_response (conn);
}

/* Splits http://HOST[:PORT]/PATH and connects to it. @host_out gets
 * HOST[:PORT] for the Host header, @path_out the path. */
static int
connect_to (const char  *url,
            char       **host_out,
            char       **path_out)
{
  const char *authority;
  const char *slash;
  char *host;
  char *port;
  struct addrinfo hints = { 0 };
  struct addrinfo *addresses;
  struct addrinfo *address;
  int fd = -1;
  int one = 1;
  int status;

  if (strncmp (url, "http://", strlen ("http://")) != 0)
    fail_with ("the URL must start with http://");
  authority = url + strlen ("http://");
  slash = strchr (authority, '/');
  *host_out = slash ? strndup (authority, (size_t) (slash - authority)) : strdup (authority);
  *path_out = strdup (slash ? slash : "/");
  if (*host_out == NULL || *path_out == NULL)
    fail ("copying the URL");

  host = strdup (*host_out);
  if (host == NULL)
    fail ("copying the URL");
  port = strrchr (host, ':');
  if (port != NULL)
    *port++ = '\0';

  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  status = getaddrinfo (host, port ? port : "80", &hints, &addresses);
  if (status != 0)
    {
      fprintf (stderr, "bench-floor-http: %s: %s\n", host, gai_strerror (status));
      exit (EXIT_FAILURE);
    }

  for (address = addresses; address != NULL; address = address->ai_next)
    {
      fd = socket (address->ai_family, address->ai_socktype, address->ai_protocol);
      if (fd < 0)
        continue;
      if (connect (fd, address->ai_addr, address->ai_addrlen) == 0)
        break;
      close (fd);
      fd = -1;
    }
  freeaddrinfo (addresses);
  free (host);
  if (fd < 0)
    fail ("connecting to the server");

  /* Every request is written in one piece, and its answer waited for:
   * nothing is gained by letting the kernel hold a segment back. */
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static void
expect_status (Connection *conn,
               int         wanted,
               const char *what)
{
  if (conn->status != wanted)
    {
      fprintf (stderr, "bench-floor-http: %s: status %d instead of %d: %.200s\n",
               what, conn->status, wanted, conn->body);
      exit (EXIT_FAILURE);
    }
}

int
main (int    argc,
      char **argv)
{
  static const char initialize[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
    "{\"protocolVersion\":\"" PROTOCOL_VERSION "\",\"capabilities\":{},"
    "\"clientInfo\":{\"name\":\"steward-bench-floor\",\"version\":\"" PACKAGE_VERSION "\"}}}";
  static const char initialized[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  static const char list_tools[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
  unsigned long calls = DEFAULT_CALLS;
  unsigned long warmup = DEFAULT_WARMUP;
  Connection conn = { 0 };
  char *host;
  char *path;
  char request[256];
  double start = 0;
  double cpu_start = 0;
  double seconds;
  double cpu;
  int i;

  for (i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--calls") == 0 && i + 1 < argc)
        calls = parse_count ("bench-floor-http", argv[++i], "--calls");
      else if (strcmp (argv[i], "--warmup") == 0 && i + 1 < argc)
        warmup = parse_count ("bench-floor-http", argv[++i], "--warmup");
      else
        break;
    }
  if (i != argc - 1 || calls == 0)
    {
      fprintf (stderr, "usage: bench-floor-http [--calls N] [--warmup N] URL\n");
      return EXIT_FAILURE;
    }

  conn.fd = connect_to (argv[i], &host, &path);

  post (&conn, host, path, initialize, sizeof initialize - 1);
  read_response (&conn);
  expect_status (&conn, 200, "initialize");
  if (strstr (conn.body, "\"protocolVersion\"") == NULL)
    fail_with ("the server did not initialize");
  if (conn.session[0] == '\0')
    fail_with ("the server named no session");

  post (&conn, host, path, initialized, sizeof initialized - 1);
  read_response (&conn);
  expect_status (&conn, 202, "notifications/initialized");

  post (&conn, host, path, list_tools, sizeof list_tools - 1);
  read_response (&conn);
  expect_status (&conn, 200, "tools/list");

  for (unsigned long n = 0; n < warmup + calls; n++)
    {
      int len = snprintf (request, sizeof request,
                          "{\"jsonrpc\":\"2.0\",\"id\":%lu,\"method\":\"tools/call\","
                          "\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\""
                          MESSAGE "\"}}}",
                          n + 2);

      if (n == warmup)
        {
          start = now_seconds ();
          cpu_start = cpu_seconds ();
        }
      post (&conn, host, path, request, (size_t) len);
      read_response (&conn);
      /* A fast wrong answer must not pass for a fast round trip. */
      if (conn.status != 200 || strstr (conn.body, "Echo: " MESSAGE) == NULL)
        {
          fprintf (stderr, "bench-floor-http: call %lu answered status %d: %.200s\n",
                   n + 1, conn.status, conn.body);
          return EXIT_FAILURE;
        }
    }
  seconds = now_seconds () - start;
  cpu = cpu_seconds () - cpu_start;

  delete_session (&conn, host, path);
  close (conn.fd);
  free (conn.data);
  free (conn.body);
  free (host);
  free (path);

  printf ("{\"client\":\"floor\",\"calls\":%lu,\"seconds\":%.6f,\"us_per_call\":%.3f,"
          "\"peak_rss_kib\":%ld,\"cpu_us_per_call\":%.3f}\n",
          calls, seconds, seconds * 1e6 / (double) calls, peak_rss_kib (),
          cpu * 1e6 / (double) calls);
  return EXIT_SUCCESS;
}
