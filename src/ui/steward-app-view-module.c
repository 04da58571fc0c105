/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-view-module"

#include "config.h"

#include <gmodule.h>

#include "steward-app-view-module.h"

#define MODULE_NAME "steward-app-view"

static const StewardAppViewFuncs *registered;

void
steward_app_view_module_register (const StewardAppViewFuncs *funcs)
{
  g_return_if_fail (funcs != NULL);

  registered = funcs;
}

/* Beside the program first, so that the app run from the build tree finds
 * the module built with it; then where it is installed. */
static GModule *
open_module (GString *errors)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  const char *dirs[] = { exe_dir, STEWARD_MODULE_DIR };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = NULL;
      GModule *module;

      if (dirs[i] == NULL)
        continue;

      path = g_module_build_path (dirs[i], MODULE_NAME);
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_string_append_printf (errors, "%s%s is missing", errors->len > 0 ? "; " : "", path);
          continue;
        }

      module = g_module_open (path, G_MODULE_BIND_LOCAL);
      if (module != NULL)
        return module;
      g_string_append_printf (errors, "%s%s", errors->len > 0 ? "; " : "", g_module_error ());
    }

  return NULL;
}

static const StewardAppViewFuncs *
get_funcs (void)
{
  static gboolean tried;
  g_autoptr(GString) errors = NULL;
  GModule *module;

  if (registered != NULL || tried)
    return registered;

  tried = TRUE;
  errors = g_string_new (NULL);
  module = open_module (errors);
  if (module == NULL)
    {
      g_warning ("Cannot show the views of MCP Apps: %s. Reinstall Steward.", errors->str);
      return NULL;
    }

  /* Its types are registered with GObject for good. */
  g_module_make_resident (module);
  if (registered == NULL)
    g_warning ("Cannot show the views of MCP Apps: %s registered none",
               g_module_name (module));

  return registered;
}

gboolean
steward_app_view_tool_has_view (McpTool *tool)
{
  const char *uri;

  g_return_val_if_fail (MCP_IS_TOOL (tool), FALSE);

  uri = mcp_tool_get_ui_resource_uri (tool);

  return uri != NULL && g_str_has_prefix (uri, "ui://");
}

GtkWidget *
steward_app_view_module_new_view (StewardHost   *host,
                                  StewardServer *server,
                                  McpTool       *tool,
                                  JsonObject    *arguments)
{
  const StewardAppViewFuncs *funcs = get_funcs ();

  return funcs != NULL ? funcs->new_view (host, server, tool, arguments) : NULL;
}

void
steward_app_view_module_set_result (GtkWidget     *view,
                                    McpToolResult *result)
{
  /* A view exists only once the module is registered. */
  g_return_if_fail (registered != NULL);

  registered->set_result (view, result);
}

void
steward_app_view_module_set_cancelled (GtkWidget  *view,
                                       const char *reason)
{
  g_return_if_fail (registered != NULL);

  registered->set_cancelled (view, reason);
}
