/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-client.h"

G_BEGIN_DECLS

/*
 * One tool call past its request timeout, put to whoever shows the call
 * (the Tools page, a chat): keep waiting, or stop it. The question belongs
 * to one request, by its id, and to the call that made it, by the
 * cancellable the call was given, never to the tool's name: two calls of
 * the same tool may be overdue at once. It is open until answered, or
 * until the call ends and withdraws it ("open" notifies either way).
 */

#define STEWARD_TYPE_OVERDUE (steward_overdue_get_type ())

G_DECLARE_FINAL_TYPE (StewardOverdue, steward_overdue, STEWARD, OVERDUE, GObject)

StewardOverdue *steward_overdue_new             (McpClient      *client,
                                                 gint64          request_id,
                                                 const char     *server_name,
                                                 const char     *tool,
                                                 guint           waited_ms,
                                                 GCancellable   *call);
const char     *steward_overdue_get_server_name (StewardOverdue *self);
const char     *steward_overdue_get_tool        (StewardOverdue *self);
gint64          steward_overdue_get_request_id  (StewardOverdue *self);
guint           steward_overdue_get_waited      (StewardOverdue *self);
GCancellable   *steward_overdue_get_call        (StewardOverdue *self);
gboolean        steward_overdue_get_open        (StewardOverdue *self);
void            steward_overdue_answer          (StewardOverdue *self,
                                                 gboolean        keep_waiting);
void            steward_overdue_withdraw        (StewardOverdue *self);

G_END_DECLS
