/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-overdue"

#include "config.h"

#include "steward-overdue.h"

struct _StewardOverdue
{
  GObject       parent_instance;

  GWeakRef      client;
  gint64        request_id;
  char         *server_name;
  char         *tool;
  guint         waited_ms;
  GCancellable *call;
  gboolean      open;
};

enum {
  PROP_0,
  PROP_OPEN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardOverdue, steward_overdue, G_TYPE_OBJECT)

static void
close_question (StewardOverdue *self)
{
  if (!self->open)
    return;
  self->open = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPEN]);
}

static void
steward_overdue_finalize (GObject *object)
{
  StewardOverdue *self = STEWARD_OVERDUE (object);

  g_weak_ref_clear (&self->client);
  g_clear_object (&self->call);
  g_free (self->server_name);
  g_free (self->tool);

  G_OBJECT_CLASS (steward_overdue_parent_class)->finalize (object);
}

static void
steward_overdue_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StewardOverdue *self = STEWARD_OVERDUE (object);

  switch (prop_id)
    {
    case PROP_OPEN:
      g_value_set_boolean (value, self->open);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_overdue_class_init (StewardOverdueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_overdue_finalize;
  object_class->get_property = steward_overdue_get_property;

  properties[PROP_OPEN] =
    g_param_spec_boolean ("open", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_overdue_init (StewardOverdue *self)
{
  g_weak_ref_init (&self->client, NULL);
  self->open = TRUE;
}

/**
 * steward_overdue_new:
 * @client: the client the request runs on
 * @request_id: the id #McpClient::request-overdue gave
 * @waited_ms: how long the request has run
 * @call: (nullable): the cancellable the call was given, which names it
 */
StewardOverdue *
steward_overdue_new (McpClient    *client,
                     gint64        request_id,
                     const char   *server_name,
                     const char   *tool,
                     guint         waited_ms,
                     GCancellable *call)
{
  StewardOverdue *self;

  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (tool != NULL, NULL);
  g_return_val_if_fail (call == NULL || G_IS_CANCELLABLE (call), NULL);

  self = g_object_new (STEWARD_TYPE_OVERDUE, NULL);
  g_weak_ref_set (&self->client, client);
  self->request_id = request_id;
  self->server_name = g_strdup (server_name);
  self->tool = g_strdup (tool);
  self->waited_ms = waited_ms;
  self->call = call != NULL ? g_object_ref (call) : NULL;
  return self;
}

const char *
steward_overdue_get_server_name (StewardOverdue *self)
{
  g_return_val_if_fail (STEWARD_IS_OVERDUE (self), NULL);
  return self->server_name;
}

const char *
steward_overdue_get_tool (StewardOverdue *self)
{
  g_return_val_if_fail (STEWARD_IS_OVERDUE (self), NULL);
  return self->tool;
}

gint64
steward_overdue_get_request_id (StewardOverdue *self)
{
  g_return_val_if_fail (STEWARD_IS_OVERDUE (self), 0);
  return self->request_id;
}

/* Returns: the seconds the call had run when the question came */
guint
steward_overdue_get_waited (StewardOverdue *self)
{
  g_return_val_if_fail (STEWARD_IS_OVERDUE (self), 0);
  return self->waited_ms / 1000;
}

/* Returns: (transfer none) (nullable): the cancellable that names the call */
GCancellable *
steward_overdue_get_call (StewardOverdue *self)
{
  g_return_val_if_fail (STEWARD_IS_OVERDUE (self), NULL);
  return self->call;
}

gboolean
steward_overdue_get_open (StewardOverdue *self)
{
  g_return_val_if_fail (STEWARD_IS_OVERDUE (self), FALSE);
  return self->open;
}

/**
 * steward_overdue_answer:
 * @keep_waiting: %TRUE to wait another timeout, %FALSE to stop the call
 *
 * Answers the question once; a later answer, or one after the call ended,
 * does nothing.
 */
void
steward_overdue_answer (StewardOverdue *self,
                        gboolean        keep_waiting)
{
  g_autoptr(McpClient) client = NULL;

  g_return_if_fail (STEWARD_IS_OVERDUE (self));

  if (!self->open)
    return;

  /* Closed first: stopping completes the call, which withdraws it. */
  close_question (self);
  client = g_weak_ref_get (&self->client);
  if (client != NULL)
    mcp_client_answer_overdue (client, self->request_id, keep_waiting);
}

/* The call ended (answered late, cancelled, or its server went away):
 * whoever shows the question takes it away. */
void
steward_overdue_withdraw (StewardOverdue *self)
{
  g_return_if_fail (STEWARD_IS_OVERDUE (self));

  close_question (self);
}
