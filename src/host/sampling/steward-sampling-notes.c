/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-notes"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-sampling-notes.h"

const char *
steward_sampling_describe_policy (StewardSamplingPolicy policy)
{
  switch (policy)
    {
    case STEWARD_SAMPLING_POLICY_DENY:
      return _("Sampling is turned off for this server");
    case STEWARD_SAMPLING_POLICY_ALLOW_SESSION:
      return _("Allowed without asking until Steward quits");
    case STEWARD_SAMPLING_POLICY_ALWAYS:
      return _("Always allowed without asking");
    case STEWARD_SAMPLING_POLICY_ASK:
    default:
      return _("Ask every time");
    }
}

/* Steward declares no sampling context and adds none; when the server
 * asks for some, the person reads that nothing more goes to the model. */
char *
steward_sampling_describe_include_context (JsonObject *params)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, "includeContext") : NULL;
  const char *context = NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    context = json_node_get_string (node);

  if (g_strcmp0 (context, "thisServer") == 0)
    return g_strdup (_("The server asked for context from this server as well. Steward shares "
                       "none: the model sees only the messages below."));

  if (g_strcmp0 (context, "allServers") == 0)
    return g_strdup (_("The server asked for context from every server as well. Steward shares "
                       "none: the model sees only the messages below."));

  return NULL;
}

JsonArray *
steward_sampling_model_choices_new (StewardModelCatalog *catalog,
                                    const char * const  *usable,
                                    gboolean             local_only)
{
  g_autoptr(JsonArray) choices = json_array_new ();

  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (catalog), NULL);

  for (guint i = 0; usable != NULL && usable[i] != NULL; i++)
    {
      StewardModel *model = steward_model_catalog_lookup (catalog, usable[i]);
      JsonObject *choice;

      if (model == NULL || (local_only && !steward_model_get_local (model)))
        continue;

      choice = json_object_new ();
      json_object_set_string_member (choice, "id", steward_model_get_id (model));
      json_object_set_string_member (choice, "name", steward_model_get_name (model));
      json_object_set_string_member (choice, "provider", steward_model_get_provider (model));
      json_object_set_boolean_member (choice, "local", steward_model_get_local (model));
      json_array_add_object_element (choices, choice);
    }

  return json_array_get_length (choices) > 0 ? g_steal_pointer (&choices) : NULL;
}

const char *
steward_sampling_picked_model (StewardApproval *approval,
                               const char      *current)
{
  const char *picked = steward_approval_get_model (approval);
  JsonArray *choices = steward_approval_get_model_choices (approval);

  if (picked == NULL || g_strcmp0 (picked, current) == 0 || choices == NULL)
    return NULL;

  /* Only a model the broker offered; the approval's model is anyone's to
   * set, the list is the broker's. */
  for (guint i = 0; i < json_array_get_length (choices); i++)
    {
      JsonObject *choice = json_array_get_object_element (choices, i);
      const char *id = NULL;

      if (choice != NULL)
        id = json_object_get_string_member_with_default (choice, "id", NULL);
      if (g_strcmp0 (id, picked) == 0)
        return picked;
    }

  return NULL;
}
