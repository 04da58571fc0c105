/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-provider"

#include "config.h"

#include "steward-provider.h"

/**
 * StewardProvider:
 *
 * An LLM back end. The wrappers below only check their arguments and
 * dispatch, so that every implementation is called the same way and a
 * caller's mistake is caught here rather than deep in one back end.
 */

G_DEFINE_INTERFACE (StewardProvider, steward_provider, G_TYPE_OBJECT)

G_DEFINE_QUARK (steward-provider-error-quark, steward_provider_error)

static void
steward_provider_default_init (StewardProviderInterface *iface)
{
}

const char *
steward_provider_get_id (StewardProvider *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER (self), NULL);

  return STEWARD_PROVIDER_GET_IFACE (self)->get_id (self);
}

const char *
steward_provider_get_display_name (StewardProvider *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER (self), NULL);

  return STEWARD_PROVIDER_GET_IFACE (self)->get_display_name (self);
}

gboolean
steward_provider_is_local (StewardProvider *self)
{
  StewardProviderInterface *iface;

  g_return_val_if_fail (STEWARD_IS_PROVIDER (self), FALSE);

  iface = STEWARD_PROVIDER_GET_IFACE (self);
  return iface->is_local != NULL && iface->is_local (self);
}

void
steward_provider_list_models_async (StewardProvider     *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (STEWARD_IS_PROVIDER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  STEWARD_PROVIDER_GET_IFACE (self)->list_models_async (self, cancellable, callback, user_data);
}

/**
 * steward_provider_list_models_finish:
 *
 * Returns: (transfer full) (element-type utf8): the model names
 */
GPtrArray *
steward_provider_list_models_finish (StewardProvider  *self,
                                     GAsyncResult     *result,
                                     GError          **error)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return STEWARD_PROVIDER_GET_IFACE (self)->list_models_finish (self, result, error);
}

/**
 * steward_provider_chat_async:
 * @request: the request in the neutral shape (steward-provider.h); it is
 *   read at once and may be changed or freed as soon as this returns
 * @event_func: (nullable): called on the main context with text deltas,
 *   complete tool calls and usage while the answer streams, never after
 *   the callback ran
 * @event_destroy: (nullable): frees @event_data once no event can come
 *
 * Streams one answer.
 */
void
steward_provider_chat_async (StewardProvider          *self,
                             JsonObject               *request,
                             StewardProviderEventFunc  event_func,
                             gpointer                  event_data,
                             GDestroyNotify            event_destroy,
                             GCancellable             *cancellable,
                             GAsyncReadyCallback       callback,
                             gpointer                  user_data)
{
  g_return_if_fail (STEWARD_IS_PROVIDER (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  STEWARD_PROVIDER_GET_IFACE (self)->chat_async (self, request, event_func, event_data,
                                                 event_destroy, cancellable, callback,
                                                 user_data);
}

/**
 * steward_provider_chat_finish:
 *
 * Returns: (transfer full): the answer in the neutral shape
 */
JsonObject *
steward_provider_chat_finish (StewardProvider  *self,
                              GAsyncResult     *result,
                              GError          **error)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return STEWARD_PROVIDER_GET_IFACE (self)->chat_finish (self, result, error);
}
