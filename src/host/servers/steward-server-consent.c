/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"

#include "steward-approval.h"
#include "steward-approvals.h"
#include "steward-config.h"
#include "steward-log-entry.h"
#include "steward-log-store.h"
#include "steward-redactor.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-network-choice.h"
#include "steward-sandbox-launch.h"
#include "steward-sandbox.h"
#include "steward-secrets.h"

#include "steward-server-failure.h"
#include "steward-server-private.h"
#include "steward-server-watch.h"
#include "steward-trace-names.h"

/* Consent */

void
steward_server_withdraw_consent (StewardServer *self)
{
  g_autoptr(StewardApproval) consent = g_steal_pointer (&self->consent);

  if (consent == NULL)
    return;

  g_signal_handlers_disconnect_by_data (consent, self);
  if (!steward_approval_get_finished (consent))
    steward_approval_withdraw (consent);
}

static void
consent_responded_cb (StewardServer         *self,
                      StewardApprovalAction  action,
                      JsonObject            *data,
                      StewardApproval       *approval)
{
  g_autoptr(StewardServer) hold = g_object_ref (self);
  g_autoptr(StewardServerConfig) chosen = NULL;
  g_autoptr(GError) error = NULL;

  if (approval != self->consent)
    return;

  steward_server_withdraw_consent (self);

  if (action != STEWARD_APPROVAL_ACTION_ALLOW)
    {
      self->generation++;
      steward_server_set_status (self, STEWARD_SERVER_STATUS_FAILED,
                                 _("You did not allow this server to start"),
                                 _("Start it again to be asked again."));
      steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING, _("Permission to start refused"));
      return;
    }

  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Permission to start given"));
  chosen = steward_network_choice_from_consent (self->config, data);
  if (chosen != NULL)
    {
      /* Taken before it is written, so that the entry coming back from the
       * servers file changes nothing consent covers: no second question. */
      g_set_object (&self->config, chosen);
      g_object_notify (G_OBJECT (self), "config");
      steward_server_put_config (self, chosen);
    }
  if (!steward_config_can_remember_consent (self->config_store))
    steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING,
                               _("The keyring is not available, so this permission lasts only "
                                 "until Steward quits"));
  if (!steward_config_record_consent (self->config_store, self->config, &error))
    steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING,
                               _("The permission could not be remembered, so it will be asked "
                                 "again next time: %s"),
                               error->message);

  steward_server_launch (self);
}

static JsonArray *
sorted_names (GHashTable *table)
{
  g_autofree const char **keys = NULL;
  JsonArray *array = json_array_new ();
  guint n_keys = 0;

  if (table == NULL)
    return array;

  keys = (const char **) g_hash_table_get_keys_as_array (table, &n_keys);
  for (guint i = 1; i < n_keys; i++)
    for (guint j = i; j > 0 && strcmp (keys[j - 1], keys[j]) > 0; j--)
      {
        const char *swap = keys[j];

        keys[j] = keys[j - 1];
        keys[j - 1] = swap;
      }

  for (guint i = 0; i < n_keys; i++)
    json_array_add_string_element (array, keys[i]);

  return array;
}

/* What consent covers, as the person is shown it: never a value of the
 * environment or of a header, only their names. */
static JsonObject *
describe_for_consent (StewardServerConfig *config)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "transport",
                                 steward_server_transport_to_string (
                                   steward_server_config_get_transport (config)));

  if (steward_server_config_is_remote (config))
    {
      json_object_set_string_member (object, "url", steward_server_config_get_url (config));
      json_object_set_array_member (object, "headers",
                                    sorted_names (steward_server_config_get_headers (config)));
    }
  else
    {
      const char * const *args = steward_server_config_get_args (config);
      JsonArray *array = json_array_new ();

      for (guint i = 0; args != NULL && args[i] != NULL; i++)
        json_array_add_string_element (array, args[i]);

      json_object_set_string_member (object, "command",
                                     steward_server_config_get_command (config));
      json_object_set_array_member (object, "args", array);
      if (steward_server_config_get_cwd (config) != NULL)
        json_object_set_string_member (object, "cwd", steward_server_config_get_cwd (config));
      else
        json_object_set_null_member (object, "cwd");
      json_object_set_array_member (object, "env",
                                    sorted_names (steward_server_config_get_env (config)));
      json_object_set_object_member (object, "sandbox", steward_sandbox_launch_describe (config));
    }

  return object;
}

/* @program is the file the command was found as, shown so that the person
 * sees which program runs, not only the name it is called by. It is not
 * part of what consent covers: the PATH may find another one next time. */
static void
ask_consent (StewardServer *self,
             const char    *program)
{
  g_autoptr(JsonObject) request = describe_for_consent (self->config);
  g_autoptr(StewardServerConfig) previous = NULL;
  g_autofree char *target = steward_server_format_target (self->config);

  if (program != NULL)
    json_object_set_string_member (request, "program", program);

  previous = steward_config_get_consented (self->config_store, self->name);
  json_object_set_boolean_member (request, "changed", previous != NULL);
  json_object_set_boolean_member (request, "remembered",
                                  steward_config_can_remember_consent (self->config_store));
  if (previous != NULL)
    json_object_set_object_member (request, "previous", describe_for_consent (previous));

  steward_server_withdraw_consent (self);
  self->generation++;
  self->consent = steward_approval_new (STEWARD_APPROVAL_KIND_CONSENT, self->name, request);
  g_signal_connect_object (self->consent, "responded", G_CALLBACK (consent_responded_cb), self,
                           G_CONNECT_SWAPPED);

  steward_server_set_status (self, STEWARD_SERVER_STATUS_AWAITING_CONSENT,
                             _("Waiting for your permission to start"), NULL);
  if (previous != NULL)
    steward_server_host_event (self, STEWARD_LOG_LEVEL_NOTICE,
                               _("The command changed since it was allowed; asking again: %s"),
                               target);
  else
    steward_server_host_event (self, STEWARD_LOG_LEVEL_NOTICE,
                               _("Asking for permission to start: %s"), target);

  steward_approvals_add (self->approvals, self->consent);
}

/* Starts, asking for consent first when the command is new or changed.
 * A local server's command is looked for before the question: there is
 * nothing to allow when it is not there, and the question can then name
 * the program that would run. */
void
steward_server_begin (StewardServer *self)
{
  g_autofree char *found = NULL;

  steward_server_clear_retry (self);

  if (steward_config_has_consent (self->config_store, self->config))
    {
      steward_server_launch (self);
      return;
    }

  if (!steward_server_config_is_remote (self->config))
    {
      g_autofree char *reason = NULL;
      g_autofree char *detail = NULL;

      if (!steward_server_find_command (self, &found, &reason, &detail))
        {
          steward_server_withdraw_consent (self);
          steward_server_fail (self, reason, detail);
          return;
        }
    }

  ask_consent (self, found);
}
