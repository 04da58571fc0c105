/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/*
 * Why a server stopped or could not start, in terms a person can act on:
 * the kind of failure (a URL nothing answers at, a 404, a missing module,
 * an exit), its cause in a few words, and one sentence naming the cause and
 * the fix. The most useful line the server wrote on stderr (an error line,
 * not a stack frame or a runtime's version trailer) serves as the cause of
 * an exit.
 *
 * It describes; the server decides what to do: a start that fails before
 * the server ever answered is a matter of configuration and is not retried
 * by itself.
 */

typedef enum {
  STEWARD_SERVER_FAILURE_OTHER,
  STEWARD_SERVER_FAILURE_SPAWN,           /* the command could not be run */
  STEWARD_SERVER_FAILURE_MODULE_MISSING,  /* the runtime found no such module */
  STEWARD_SERVER_FAILURE_EXITED,          /* a local server exited */
  STEWARD_SERVER_FAILURE_TIMEOUT,         /* it did not answer in time */
  STEWARD_SERVER_FAILURE_UNREACHABLE,     /* nothing answers at the URL */
  STEWARD_SERVER_FAILURE_TLS,             /* the secure connection failed */
  STEWARD_SERVER_FAILURE_NOT_FOUND,       /* HTTP 404 */
  STEWARD_SERVER_FAILURE_UNAUTHORIZED,    /* HTTP 401 or 403 */
  STEWARD_SERVER_FAILURE_HTTP_STATUS,     /* another HTTP status */
} StewardServerFailureKind;

#define STEWARD_TYPE_SERVER_FAILURE (steward_server_failure_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerFailure, steward_server_failure, STEWARD, SERVER_FAILURE,
                      GObject)

/* @url is the remote server's address, or NULL for a local one;
 * @stderr_lines what it last wrote on stderr, oldest first, or NULL. */
StewardServerFailure     *steward_server_failure_new         (const GError          *error,
                                                              const char            *url,
                                                              const char * const    *stderr_lines);
StewardServerFailureKind  steward_server_failure_get_kind    (StewardServerFailure  *self);
/* The cause in a few words: "Error: Cannot find module '/srv/x.js'",
 * "connection refused at 127.0.0.1:3001". */
const char               *steward_server_failure_get_cause   (StewardServerFailure  *self);
/* One sentence, starting in lower case to follow "Failed: ", that names
 * the cause and the fix. */
const char               *steward_server_failure_get_summary (StewardServerFailure  *self);

/* The most useful of @lines (oldest first): the last that reads as an
 * error, else the last that is neither blank nor a stack frame, a source
 * excerpt or a version trailer; NULL when there is none. */
char                     *steward_server_failure_pick_line   (const char * const    *lines);

G_END_DECLS
