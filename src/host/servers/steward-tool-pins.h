/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-tool.h"

G_BEGIN_DECLS

/*
 * Tool-definition pinning (docs/SECURITY.md): the SHA-256 of each tool's
 * canonical JSON (sorted keys, no whitespace) per server, kept with the
 * definition itself in pins.json in the config folder. A tool is pinned
 * when the person has seen it: in the review of a server's tools (each
 * tool with its description, switched on or off there), or in the approval
 * of one call, which pins that tool and no other. Only pinned tools that
 * are switched on are offered to models (steward_tool_pins_is_offered()):
 * a tool never reviewed, a changed definition, or a new tool on a server
 * waits until the person approves it (a changed one in a dialog that
 * shows the difference).
 * "changed" (server) is emitted when a server's pins or pending changes
 * change.
 *
 * The file also keeps the person's policy for calling tools from a chat,
 * per server and per tool: {"servers": {"NAME": {"policy": "ask"|"allow",
 * "tools": {"TOOL": {"hash", "definition", "policy"}}}}}. "ask" is the
 * default. A server's "allow" covers its tools except the destructive and
 * open-world ones (by their annotations, whose defaults say both), which
 * ask unless the person allowed that very tool.
 *
 * A damaged pins.json is moved aside as pins.json.damaged (or
 * .damaged-N) by the load, which then fails with G_IO_ERROR_INVALID_DATA
 * naming both files; the pins start empty.
 */

typedef enum {
  STEWARD_TOOL_PIN_UNPINNED,    /* never reviewed: not offered until the person has seen it */
  STEWARD_TOOL_PIN_OK,          /* matches the pin */
  STEWARD_TOOL_PIN_CHANGED,     /* differs from the pin: disabled */
  STEWARD_TOOL_PIN_NEW,         /* new on a server with pins: disabled */
} StewardToolPinState;

typedef enum {
  STEWARD_TOOL_POLICY_ASK,
  STEWARD_TOOL_POLICY_ALLOW,
} StewardToolPolicy;

#define STEWARD_TYPE_TOOL_PIN_STATE (steward_tool_pin_state_get_type ())
#define STEWARD_TYPE_TOOL_POLICY    (steward_tool_policy_get_type ())

GType steward_tool_pin_state_get_type (void) G_GNUC_CONST;
GType steward_tool_policy_get_type    (void) G_GNUC_CONST;

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
/* A tool switched off in the review is never offered ("enabled": false
 * in the file); TRUE when the person did not say. */
void                 steward_tool_pins_set_enabled   (StewardToolPins  *self,
                                                      const char       *server,
                                                      const char       *tool,
                                                      gboolean          enabled);
gboolean             steward_tool_pins_get_enabled   (StewardToolPins  *self,
                                                      const char       *server,
                                                      const char       *tool);
/* Pinned as it is now and switched on: what the chat may offer. */
gboolean             steward_tool_pins_is_offered    (StewardToolPins  *self,
                                                      const char       *server,
                                                      McpTool          *tool);
/* The pinned definition as pretty JSON, for the difference view; NULL when
 * none. */
char                *steward_tool_pins_dup_pinned    (StewardToolPins  *self,
                                                      const char       *server,
                                                      const char       *tool);
GFile               *steward_tool_pins_get_file      (StewardToolPins  *self);
void                 steward_tool_pins_load_async    (StewardToolPins     *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean             steward_tool_pins_load_finish   (StewardToolPins     *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
/* Changes are saved by themselves (atomically, soon after); save_async
 * finishes once the file holds every change made before the call. */
void                 steward_tool_pins_save_async    (StewardToolPins     *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean             steward_tool_pins_save_finish   (StewardToolPins     *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
/* Hashes @tools (McpTool) on a worker, so that checking them afterwards
 * costs nothing on the main thread; a tool list can be long. */
void                 steward_tool_pins_prepare_async  (StewardToolPins     *self,
                                                       GPtrArray           *tools,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean             steward_tool_pins_prepare_finish (StewardToolPins     *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* Whether @server has any pin (then a tool never seen is NEW). */
gboolean             steward_tool_pins_has_pins      (StewardToolPins  *self,
                                                      const char       *server);

/* The policy the person set for one tool; FALSE when none. */
gboolean             steward_tool_pins_get_tool_policy   (StewardToolPins   *self,
                                                          const char        *server,
                                                          const char        *tool,
                                                          StewardToolPolicy *policy);
void                 steward_tool_pins_set_tool_policy   (StewardToolPins   *self,
                                                          const char        *server,
                                                          const char        *tool,
                                                          StewardToolPolicy  policy);
void                 steward_tool_pins_unset_tool_policy (StewardToolPins   *self,
                                                          const char        *server,
                                                          const char        *tool);
StewardToolPolicy    steward_tool_pins_get_server_policy (StewardToolPins   *self,
                                                          const char        *server);
void                 steward_tool_pins_set_server_policy (StewardToolPins   *self,
                                                          const char        *server,
                                                          StewardToolPolicy  policy);
/* What applies to a call of @tool: its own policy, else ASK for a
 * destructive or open-world tool, else the server's policy. */
StewardToolPolicy    steward_tool_pins_decide        (StewardToolPins  *self,
                                                      const char       *server,
                                                      McpTool          *tool);

/* Canonical JSON of a tool (sorted keys, no whitespace) and its hash. */
char                *steward_tool_canonical_json     (McpTool          *tool);
char                *steward_tool_hash               (McpTool          *tool);
/* The tool's definition with sorted keys, indented, as
 * steward_tool_pins_dup_pinned() writes the pinned one: the two sides of
 * the difference view. */
char                *steward_tool_pretty_json        (McpTool          *tool);

const char          *steward_tool_pin_state_to_string (StewardToolPinState state);

G_END_DECLS
