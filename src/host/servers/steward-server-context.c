/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-context"

#include "config.h"

#include "steward-server-context.h"

struct _StewardServerContext
{
  GObject                parent_instance;

  StewardConfig         *config;
  StewardSecrets        *secrets;
  StewardRoots          *roots;
  StewardLogStore       *log_store;
  StewardApprovals      *approvals;
  StewardSamplingBroker *broker;
};

G_DEFINE_FINAL_TYPE (StewardServerContext, steward_server_context, G_TYPE_OBJECT)

static void
steward_server_context_dispose (GObject *object)
{
  StewardServerContext *self = STEWARD_SERVER_CONTEXT (object);

  g_clear_object (&self->config);
  g_clear_object (&self->secrets);
  g_clear_object (&self->roots);
  g_clear_object (&self->log_store);
  g_clear_object (&self->approvals);
  g_clear_object (&self->broker);

  G_OBJECT_CLASS (steward_server_context_parent_class)->dispose (object);
}

static void
steward_server_context_class_init (StewardServerContextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_server_context_dispose;
}

static void
steward_server_context_init (StewardServerContext *self)
{
}

StewardServerContext *
steward_server_context_new (StewardConfig         *config,
                            StewardSecrets        *secrets,
                            StewardRoots          *roots,
                            StewardLogStore       *log_store,
                            StewardApprovals      *approvals,
                            StewardSamplingBroker *broker)
{
  StewardServerContext *self;

  g_return_val_if_fail (STEWARD_IS_CONFIG (config), NULL);
  g_return_val_if_fail (STEWARD_IS_SECRETS (secrets), NULL);
  g_return_val_if_fail (STEWARD_IS_ROOTS (roots), NULL);
  g_return_val_if_fail (STEWARD_IS_LOG_STORE (log_store), NULL);
  g_return_val_if_fail (STEWARD_IS_APPROVALS (approvals), NULL);
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (broker), NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_CONTEXT, NULL);
  self->config = g_object_ref (config);
  self->secrets = g_object_ref (secrets);
  self->roots = g_object_ref (roots);
  self->log_store = g_object_ref (log_store);
  self->approvals = g_object_ref (approvals);
  self->broker = g_object_ref (broker);

  return self;
}

/**
 * steward_server_context_get_config:
 *
 * Returns: (transfer none): the servers file and the consent a server
 *   records in it
 */
StewardConfig *
steward_server_context_get_config (StewardServerContext *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (self), NULL);

  return self->config;
}

/**
 * steward_server_context_get_secrets:
 *
 * Returns: (transfer none): the keyring the server's secrets come from
 */
StewardSecrets *
steward_server_context_get_secrets (StewardServerContext *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (self), NULL);

  return self->secrets;
}

/**
 * steward_server_context_get_roots:
 *
 * Returns: (transfer none): the folders shared with servers
 */
StewardRoots *
steward_server_context_get_roots (StewardServerContext *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (self), NULL);

  return self->roots;
}

/**
 * steward_server_context_get_log_store:
 *
 * Returns: (transfer none): where a server's log goes
 */
StewardLogStore *
steward_server_context_get_log_store (StewardServerContext *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (self), NULL);

  return self->log_store;
}

/**
 * steward_server_context_get_approvals:
 *
 * Returns: (transfer none): where consent and other questions are put to
 *   the person
 */
StewardApprovals *
steward_server_context_get_approvals (StewardServerContext *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (self), NULL);

  return self->approvals;
}

/**
 * steward_server_context_get_broker:
 *
 * Returns: (transfer none): where sampling and elicitation requests go
 */
StewardSamplingBroker *
steward_server_context_get_broker (StewardServerContext *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (self), NULL);

  return self->broker;
}
