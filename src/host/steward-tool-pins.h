/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-tool.h"

G_BEGIN_DECLS

/*
 * Tool-definition pinning (SECURITY.md): the SHA-256 of each tool's
 * canonical JSON (sorted keys, no whitespace) per server, kept with the
 * definition itself in pins.json in the config folder. A tool is pinned
 * when the person first approves it. Afterwards a changed definition, or a
 * new tool on a server that has pins, is disabled (not offered to models)
 * until the person approves it in a dialog that shows the difference.
 * "changed" (server) is emitted when a server's pins or pending changes
 * change.
 */

typedef enum {
  STEWARD_TOOL_PIN_UNPINNED,    /* never approved; the first call approval pins it */
  STEWARD_TOOL_PIN_OK,          /* matches the pin */
  STEWARD_TOOL_PIN_CHANGED,     /* differs from the pin: disabled */
  STEWARD_TOOL_PIN_NEW,         /* new on a server with pins: disabled */
} StewardToolPinState;

#define STEWARD_TYPE_TOOL_PINS (steward_tool_pins_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolPins, steward_tool_pins, STEWARD, TOOL_PINS, GObject)

StewardToolPins     *steward_tool_pins_new           (GFile            *file);
gboolean             steward_tool_pins_load          (StewardToolPins  *self,
                                                      GError          **error);
StewardToolPinState  steward_tool_pins_check         (StewardToolPins  *self,
                                                      const char       *server,
                                                      McpTool          *tool);
void                 steward_tool_pins_approve       (StewardToolPins  *self,
                                                      const char       *server,
                                                      McpTool          *tool);
/* The pinned definition as pretty JSON, for the difference view; NULL when
 * none. */
char                *steward_tool_pins_dup_pinned    (StewardToolPins  *self,
                                                      const char       *server,
                                                      const char       *tool);
/* Canonical JSON of a tool (sorted keys, no whitespace) and its hash. */
char                *steward_tool_canonical_json     (McpTool          *tool);
char                *steward_tool_hash               (McpTool          *tool);

G_END_DECLS
