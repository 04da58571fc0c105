/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-transport.h"

G_BEGIN_DECLS

#define MCP_TYPE_SCRIPTED_TRANSPORT (mcp_scripted_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpScriptedTransport, mcp_scripted_transport,
                      MCP, SCRIPTED_TRANSPORT, GObject)

/**
 * McpScriptedTransport:
 *
 * An in-process transport for tests: what the client sends is recorded,
 * and the test plays the server by injecting messages.
 */
McpScriptedTransport *mcp_scripted_transport_new            (void);
void                  mcp_scripted_transport_receive        (McpScriptedTransport *self,
                                                             const char           *json);
void                  mcp_scripted_transport_receivef       (McpScriptedTransport *self,
                                                             const char           *format,
                                                             ...) G_GNUC_PRINTF (2, 3);
GPtrArray            *mcp_scripted_transport_get_sent       (McpScriptedTransport *self);
McpMessage           *mcp_scripted_transport_wait_sent      (McpScriptedTransport *self,
                                                             const char           *method);
McpMessage           *mcp_scripted_transport_find_sent      (McpScriptedTransport *self,
                                                             const char           *method);
McpMessage           *mcp_scripted_transport_wait_response  (McpScriptedTransport *self,
                                                             const char           *id_key);
void                  mcp_scripted_transport_fail           (McpScriptedTransport *self,
                                                             const char           *reason);
gboolean              mcp_scripted_transport_get_closed     (McpScriptedTransport *self);
const char           *mcp_scripted_transport_get_protocol_version (McpScriptedTransport *self);

/* Runs the main context until @condition holds, failing the test after
 * a while; a ticking source makes sure the deadline is looked at even when
 * nothing else happens. */
#define wait_for(condition)                                                    \
  G_STMT_START {                                                              \
    gint64 wait_deadline_ = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;     \
    guint wait_tick_ = g_timeout_add (100, test_wait_tick_cb, NULL);           \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= wait_deadline_)                        \
          g_error ("timed out waiting for: %s", #condition);                   \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
    g_source_remove (wait_tick_);                                             \
  } G_STMT_END

static inline gboolean
test_wait_tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

G_END_DECLS
