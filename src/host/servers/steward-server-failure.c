/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-failure"

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-error.h"

#include "steward-server-failure.h"

/* The stdio transport appends what the server last wrote on stderr to its
 * exit error after this marker; the cause keeps only what comes before,
 * since the picked line says it better. */
#define STDERR_MARKER "; last stderr: "
/* How that error says the process ended, followed by the number. */
#define EXIT_STATUS "server exited with status "
#define EXIT_SIGNAL "server was killed by signal "

struct _StewardServerFailure
{
  GObject                   parent_instance;

  StewardServerFailureKind  kind;
  char                     *cause;
  char                     *summary;
};

G_DEFINE_FINAL_TYPE (StewardServerFailure, steward_server_failure, G_TYPE_OBJECT)

/* Picking the line */

static GRegex *
error_line_regex (void)
{
  static gsize initialized;
  static GRegex *regex;

  /* "Error: …", "Error [ERR_X]: …", "ModuleNotFoundError: …",
   * "java.io.IOException: …", "error: …", "fatal: …", "panic: …",
   * "[ERROR] …", "npm ERR! …". */
  if (g_once_init_enter (&initialized))
    {
      regex = g_regex_new ("^\\s*(([\\w.$]*(Error|Exception))(\\s*\\[[^]]*\\])?:"
                           "|(?i:error|fatal|panic|critical)(\\[[^]]*\\])?:"
                           "|\\[(?i:error|fatal|critical)\\]"
                           "|npm (ERR!|error))",
                           G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&initialized, 1);
    }

  return regex;
}

static gboolean
is_error_line (const char *line)
{
  return g_regex_match (error_line_regex (), line, 0, NULL);
}

/* Lines that say where, not what: stack frames, source excerpts and their
 * carets, the members of a printed error object, Node's "Require stack"
 * and version trailer, Python's traceback header. */
static gboolean
is_noise_line (const char *line)
{
  const char *p = line;

  /* Indented lines are frames, excerpts or members of an object. */
  if (g_ascii_isspace (*p))
    return TRUE;

  if (*p == '\0' || strspn (p, "^~{}[](),;: ") == strlen (p))
    return TRUE;

  return g_str_has_prefix (p, "Node.js v") ||
         g_str_has_prefix (p, "node:internal/") ||
         g_str_has_prefix (p, "Require stack:") ||
         g_str_has_prefix (p, "- /") ||
         g_str_has_prefix (p, "Traceback (most recent call last)") ||
         g_str_has_prefix (p, "During handling of the above exception") ||
         g_str_has_prefix (p, "The above exception was the direct cause");
}

/* The module a runtime could not find: Node's CommonJS and ES module
 * loaders, and Python's import. */
static char *
find_missing_module (const char * const *lines)
{
  static const char *patterns[] = {
    "Cannot find module '",
    "Cannot find package '",
    "No module named '",
  };

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    for (guint j = 0; j < G_N_ELEMENTS (patterns); j++)
      {
        const char *start = strstr (lines[i], patterns[j]);
        const char *end;

        if (start == NULL)
          continue;

        start += strlen (patterns[j]);
        end = strchr (start, '\'');
        if (end != NULL && end > start)
          return g_strndup (start, end - start);
      }

  return NULL;
}

/* Classifying */

static guint
http_status (const GError *error)
{
  JsonNode *data = mcp_error_get_data (error);
  JsonNode *status;

  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
    return 0;

  status = json_object_get_member (json_node_get_object (data), "status");
  if (status == NULL || !JSON_NODE_HOLDS_VALUE (status))
    return 0;

  return (guint) CLAMP (json_node_get_int (status), 0, 999);
}

/* "127.0.0.1:3001" of "http://127.0.0.1:3001/mcp", or the URL itself when
 * it does not parse. */
static char *
describe_origin (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return g_strdup (url);

  if (g_uri_get_port (uri) > 0)
    return g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));

  return g_strdup (g_uri_get_host (uri));
}

/* What the system said last, after the transport's own words:
 * "Connection refused" of "could not reach the server at …: Connection
 * refused". */
static const char *
last_clause (const char *message)
{
  const char *colon = g_strrstr (message, ": ");

  return colon != NULL && colon[2] != '\0' ? colon + 2 : message;
}

static StewardServerFailureKind
classify (const GError       *error,
          const char         *url,
          const char * const *lines)
{
  g_autofree char *module = NULL;
  guint status;

  if (error->domain != MCP_ERROR)
    return STEWARD_SERVER_FAILURE_OTHER;

  switch (error->code)
    {
    case MCP_ERROR_SPAWN_FAILED:
      return STEWARD_SERVER_FAILURE_SPAWN;

    case MCP_ERROR_UNREACHABLE:
      return STEWARD_SERVER_FAILURE_UNREACHABLE;

    case MCP_ERROR_TLS:
      return STEWARD_SERVER_FAILURE_TLS;

    case MCP_ERROR_TIMEOUT:
      return STEWARD_SERVER_FAILURE_TIMEOUT;

    case MCP_ERROR_HTTP_STATUS:
      status = http_status (error);
      if (status == 404)
        return STEWARD_SERVER_FAILURE_NOT_FOUND;
      if (status == 401 || status == 403)
        return STEWARD_SERVER_FAILURE_UNAUTHORIZED;
      return STEWARD_SERVER_FAILURE_HTTP_STATUS;

    case MCP_ERROR_EXITED:
    case MCP_ERROR_CLOSED:
      if (url != NULL)
        return STEWARD_SERVER_FAILURE_OTHER;
      module = find_missing_module (lines);
      return module != NULL ? STEWARD_SERVER_FAILURE_MODULE_MISSING
                            : STEWARD_SERVER_FAILURE_EXITED;

    default:
      return STEWARD_SERVER_FAILURE_OTHER;
    }
}

static void
describe (StewardServerFailure *self,
          const GError         *error,
          const char           *url,
          const char * const   *lines)
{
  g_autofree char *origin = url != NULL ? describe_origin (url) : NULL;
  g_autofree char *line = steward_server_failure_pick_line (lines);
  const char *marker = strstr (error->message, STDERR_MARKER);
  g_autofree char *message = marker != NULL
                             ? g_strndup (error->message, marker - error->message)
                             : g_strdup (error->message);
  const char *how;

  switch (self->kind)
    {
    case STEWARD_SERVER_FAILURE_SPAWN:
      self->cause = g_strdup (message);
      /* Translators: %s says why a command could not be run. */
      self->summary = g_strdup_printf (_("%s; check the server’s command"), message);
      break;

    case STEWARD_SERVER_FAILURE_MODULE_MISSING:
      {
        g_autofree char *module = find_missing_module (lines);

        self->cause = line != NULL ? g_strdup (line) : g_strdup (message);
        /* Translators: %s is a module or script, such as /srv/server.js. */
        self->summary = g_strdup_printf (_("the module %s was not found; check the path in the "
                                           "server’s arguments, or install the package"),
                                         module);
      }
      break;

    case STEWARD_SERVER_FAILURE_EXITED:
      self->cause = line != NULL ? g_strdup (line) : g_strdup (message);
      if (line != NULL && (how = strstr (message, EXIT_STATUS)) != NULL)
        /* Translators: %d is an exit status, %s the error line the server
         * wrote on stderr. */
        self->summary = g_strdup_printf (_("it exited with status %d before answering, saying: "
                                           "%s; check its command, arguments and environment"),
                                         atoi (how + strlen (EXIT_STATUS)), line);
      else if (line != NULL && (how = strstr (message, EXIT_SIGNAL)) != NULL)
        /* Translators: %d is a signal number, %s the error line the server
         * wrote on stderr. */
        self->summary = g_strdup_printf (_("it was killed by signal %d before answering, saying: "
                                           "%s; check its command, arguments and environment"),
                                         atoi (how + strlen (EXIT_SIGNAL)), line);
      else if (line != NULL)
        /* Translators: %s is the error line the server wrote on stderr. */
        self->summary = g_strdup_printf (_("it exited before answering, saying: %s; check its "
                                           "command, arguments and environment"), line);
      else
        /* Translators: %s is how it ended, such as "server exited with
         * status 1". */
        self->summary = g_strdup_printf (_("it exited before answering (%s); check its command, "
                                           "arguments and environment"), message);
      break;

    case STEWARD_SERVER_FAILURE_TIMEOUT:
      self->cause = g_strdup (message);
      /* Translators: %s says what it did not answer, and how long it
       * was given. */
      self->summary = g_strdup_printf (_("it did not answer in time (%s); check that it is an "
                                         "MCP server and that it can start"), message);
      break;

    case STEWARD_SERVER_FAILURE_UNREACHABLE:
      self->cause = g_strdup_printf ("%s: %s", origin, last_clause (message));
      /* Translators: the first %s is an address such as 127.0.0.1:3001,
       * the second what the system said, such as "Connection refused". */
      self->summary = g_strdup_printf (_("nothing answers at %s (%s); start the server, or "
                                         "correct the URL"), origin, last_clause (message));
      break;

    case STEWARD_SERVER_FAILURE_TLS:
      self->cause = g_strdup_printf ("%s: %s", origin, last_clause (message));
      /* Translators: the first %s is an address such as example.com:443,
       * the second what the system said about the certificate. */
      self->summary = g_strdup_printf (_("the secure connection to %s failed (%s); check the URL "
                                         "and the server’s certificate"),
                                       origin, last_clause (message));
      break;

    case STEWARD_SERVER_FAILURE_NOT_FOUND:
      self->cause = g_strdup_printf ("HTTP 404 at %s", url);
      /* Translators: %s is a URL. */
      self->summary = g_strdup_printf (_("%s answered HTTP 404 Not Found; check the path in the "
                                         "URL"), url);
      break;

    case STEWARD_SERVER_FAILURE_UNAUTHORIZED:
      self->cause = g_strdup_printf ("HTTP %u at %s", http_status (error), url);
      /* Translators: %s is a URL, %u an HTTP status such as 401. */
      self->summary = g_strdup_printf (_("%s refused access (HTTP %u); check the token or the "
                                         "headers in the server’s settings"),
                                       url, http_status (error));
      break;

    case STEWARD_SERVER_FAILURE_HTTP_STATUS:
      self->cause = g_strdup_printf ("HTTP %u at %s", http_status (error), url);
      /* Translators: %s is a URL, %u an HTTP status such as 500. */
      self->summary = g_strdup_printf (_("%s answered HTTP %u; check the URL, and the server’s "
                                         "own log"), url, http_status (error));
      break;

    case STEWARD_SERVER_FAILURE_OTHER:
    default:
      /* The protocol's own complaint says more than the server's stderr. */
      self->cause = g_strdup (message);
      self->summary = g_strdup (message);
      break;
    }
}

static void
steward_server_failure_finalize (GObject *object)
{
  StewardServerFailure *self = STEWARD_SERVER_FAILURE (object);

  g_free (self->cause);
  g_free (self->summary);

  G_OBJECT_CLASS (steward_server_failure_parent_class)->finalize (object);
}

static void
steward_server_failure_class_init (StewardServerFailureClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = steward_server_failure_finalize;
}

static void
steward_server_failure_init (StewardServerFailure *self)
{
}

/**
 * steward_server_failure_new:
 * @error: what the connection or the launch failed with
 * @url: (nullable): the remote server's address; %NULL for a local one
 * @stderr_lines: (nullable) (array zero-terminated=1): what it last wrote
 *   on stderr, oldest first
 *
 * Returns: (transfer full): the failure, described
 */
StewardServerFailure *
steward_server_failure_new (const GError       *error,
                            const char         *url,
                            const char * const *stderr_lines)
{
  StewardServerFailure *self;

  g_return_val_if_fail (error != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_FAILURE, NULL);
  self->kind = classify (error, url, stderr_lines);
  describe (self, error, url, stderr_lines);

  return self;
}

StewardServerFailureKind
steward_server_failure_get_kind (StewardServerFailure *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_FAILURE (self), STEWARD_SERVER_FAILURE_OTHER);

  return self->kind;
}

const char *
steward_server_failure_get_cause (StewardServerFailure *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_FAILURE (self), NULL);

  return self->cause;
}

const char *
steward_server_failure_get_summary (StewardServerFailure *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_FAILURE (self), NULL);

  return self->summary;
}

char *
steward_server_failure_pick_line (const char * const *lines)
{
  const char *last_error = NULL;
  const char *last_plain = NULL;

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      if (is_error_line (lines[i]))
        last_error = lines[i];
      else if (!is_noise_line (lines[i]))
        last_plain = lines[i];
    }

  if (last_error != NULL)
    return g_strstrip (g_strdup (last_error));

  return g_strdup (last_plain);
}
