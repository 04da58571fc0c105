/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-server.h"

G_BEGIN_DECLS

/*
 * A local server's network, as the person decides it: in the consent
 * dialog before it starts (the consent's answer carries {"network": bool})
 * or with the switch on its page. Either way the choice is written into
 * its entry in the servers file, where the sandbox profile reads it; as
 * the network is part of what consent covers, a change on the page is
 * asked about again before the next start.
 */

/* @config with the network on or off and its other permissions kept; a
 * new reference to @config when its profile gives that already. */
StewardServerConfig *steward_network_choice_apply        (StewardServerConfig *config,
                                                          gboolean             network);

/* The entry to start with after a consent answered with @data: NULL when
 * @data holds no network or the one @config gives already. */
StewardServerConfig *steward_network_choice_from_consent (StewardServerConfig *config,
                                                          JsonObject          *data);

/* Writes the network into @server's entry (the servers file is saved in
 * the background); a running server asks for consent again before it
 * starts with it. */
void                 steward_server_set_network          (StewardServer       *server,
                                                          gboolean             network);

G_END_DECLS
