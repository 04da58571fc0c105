/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-network-choice"

#include "config.h"

#include "steward-network-choice.h"
#include "steward-sandbox-profile.h"
#include "steward-server-private.h"

/**
 * steward_network_choice_apply:
 * @config: a local server's entry
 * @network: whether it may use the network
 *
 * Returns: (transfer full): the entry with that network
 */
StewardServerConfig *
steward_network_choice_apply (StewardServerConfig *config,
                              gboolean             network)
{
  g_autoptr(StewardSandboxProfile) profile = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), NULL);

  profile = steward_sandbox_profile_new (config, NULL);
  if (steward_server_config_is_remote (config) ||
      steward_sandbox_profile_get_full_access (profile) ||
      steward_sandbox_profile_get_network (profile) == !!network)
    return g_object_ref (config);

  /* Written out even where it matches the command's default later: the
   * person chose it, and the entry keeps what they chose. */
  return steward_server_config_with_permissions (config, !!network,
                                                 steward_server_config_get_display (config),
                                                 steward_server_config_get_run_on_host (config),
                                                 steward_server_config_get_readable (config));
}

/**
 * steward_network_choice_from_consent:
 * @config: the entry the consent was asked for
 * @data: (nullable): the consent's answer
 *
 * Returns: (transfer full) (nullable): the entry to start with, when the
 *   answer changes its network
 */
StewardServerConfig *
steward_network_choice_from_consent (StewardServerConfig *config,
                                     JsonObject          *data)
{
  g_autoptr(StewardServerConfig) chosen = NULL;
  JsonNode *node;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), NULL);

  node = data != NULL ? json_object_get_member (data, "network") : NULL;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return NULL;

  chosen = steward_network_choice_apply (config, json_node_get_boolean (node));

  return chosen != config ? g_steal_pointer (&chosen) : NULL;
}

/**
 * steward_server_set_network:
 * @server: a local server
 * @network: whether it may use the network
 *
 * Writes the network into the server's entry. What consent covers changes
 * with it, so a server that runs stops and asks before it starts again.
 */
void
steward_server_set_network (StewardServer *server,
                            gboolean       network)
{
  g_autoptr(StewardServerConfig) chosen = NULL;

  g_return_if_fail (STEWARD_IS_SERVER (server));

  chosen = steward_network_choice_apply (steward_server_get_config (server), network);
  if (chosen != steward_server_get_config (server))
    steward_server_put_config (server, chosen);
}
