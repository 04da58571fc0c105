/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-manual-provider"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-provider-private.h"

#include "steward-manual-provider.h"

/**
 * StewardManualProvider:
 *
 * Nothing leaves the computer and nothing is generated: the answer is
 * whatever the person writes. It keeps sampling and chat working before
 * any model is configured, and stays the default until one is.
 */
struct _StewardManualProvider
{
  GObject parent_instance;
};

static void steward_manual_provider_iface_init (StewardProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardManualProvider, steward_manual_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                      steward_manual_provider_iface_init))

static const char *
steward_manual_provider_get_id (StewardProvider *provider)
{
  return STEWARD_MANUAL_PROVIDER_ID;
}

static const char *
steward_manual_provider_get_display_name (StewardProvider *provider)
{
  return _("Manual (you write the answer)");
}

static gboolean
steward_manual_provider_is_local (StewardProvider *provider)
{
  return TRUE;
}

static void
steward_manual_provider_list_models_async (StewardProvider     *provider,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (provider, cancellable, callback, user_data);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  g_task_set_source_tag (task, steward_manual_provider_list_models_async);
  g_ptr_array_add (names, g_strdup (STEWARD_MANUAL_PROVIDER_ID));
  g_task_return_pointer (task, names, (GDestroyNotify) g_ptr_array_unref);
}

static GPtrArray *
steward_manual_provider_list_models_finish (StewardProvider  *provider,
                                            GAsyncResult     *result,
                                            GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_manual_provider_list_models_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_manual_provider_chat_async (StewardProvider          *provider,
                                    JsonObject               *request,
                                    StewardProviderEventFunc  event_func,
                                    gpointer                  event_data,
                                    GDestroyNotify            event_destroy,
                                    GCancellable             *cancellable,
                                    GAsyncReadyCallback       callback,
                                    gpointer                  user_data)
{
  g_autoptr(GTask) task = g_task_new (provider, cancellable, callback, user_data);
  g_autoptr(JsonArray) content = json_array_new ();
  JsonObject *answer;

  g_task_set_source_tag (task, steward_manual_provider_chat_async);

  /* No event ever comes. */
  if (event_destroy != NULL)
    event_destroy (event_data);

  /* An empty answer, so that a turn sent here ends as any other does. */
  json_array_add_object_element (content, steward_provider_text_block (""));
  answer = steward_provider_answer_new (content, STEWARD_MANUAL_PROVIDER_ID, "endTurn", -1, -1);
  g_task_return_pointer (task, answer, (GDestroyNotify) json_object_unref);
}

static JsonObject *
steward_manual_provider_chat_finish (StewardProvider  *provider,
                                     GAsyncResult     *result,
                                     GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_manual_provider_chat_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_manual_provider_iface_init (StewardProviderInterface *iface)
{
  iface->get_id = steward_manual_provider_get_id;
  iface->get_display_name = steward_manual_provider_get_display_name;
  iface->is_local = steward_manual_provider_is_local;
  iface->list_models_async = steward_manual_provider_list_models_async;
  iface->list_models_finish = steward_manual_provider_list_models_finish;
  iface->chat_async = steward_manual_provider_chat_async;
  iface->chat_finish = steward_manual_provider_chat_finish;
}

static void
steward_manual_provider_class_init (StewardManualProviderClass *klass)
{
}

static void
steward_manual_provider_init (StewardManualProvider *self)
{
}

StewardManualProvider *
steward_manual_provider_new (void)
{
  return g_object_new (STEWARD_TYPE_MANUAL_PROVIDER, NULL);
}
