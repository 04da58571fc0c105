/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-host-context"

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "steward-app-host-context.h"

typedef struct
{
  const char *name;
  const char *light;
  const char *dark;
  const char *contrast_light;
  const char *contrast_dark;
} StyleVariable;

/* libadwaita's own palette (window, view and card backgrounds, its
 * accent, error, success and warning colours), so that a view looks like
 * the app around it. High contrast draws borders and text at full
 * strength, as libadwaita does. */
static const StyleVariable colour_variables[] = {
  { "--color-background-primary",   "#ffffff", "#1e1e1e", "#ffffff", "#000000" },
  { "--color-background-secondary", "#fafafa", "#242424", "#ffffff", "#000000" },
  { "--color-background-tertiary",  "#ebebeb", "#303030", "#ebebeb", "#1e1e1e" },
  { "--color-background-inverse",   "#1e1e1e", "#ffffff", "#000000", "#ffffff" },
  { "--color-background-info",      "#dbe8fb", "#1a3a5c", "#dbe8fb", "#1a3a5c" },
  { "--color-background-danger",    "#fbdcdc", "#5c1a1e", "#fbdcdc", "#5c1a1e" },
  { "--color-background-success",   "#dcf5e3", "#1a4a2a", "#dcf5e3", "#1a4a2a" },
  { "--color-background-warning",   "#fdf0d5", "#4a3a10", "#fdf0d5", "#4a3a10" },
  { "--color-background-disabled",  "#f0f0f0", "#2a2a2a", "#f0f0f0", "#2a2a2a" },
  { "--color-text-primary",         "#1e1e1e", "#ffffff", "#000000", "#ffffff" },
  { "--color-text-secondary",       "#5e5e5e", "#c0c0c0", "#000000", "#ffffff" },
  { "--color-text-tertiary",        "#7e7e7e", "#9a9a9a", "#1e1e1e", "#ebebeb" },
  { "--color-text-inverse",         "#ffffff", "#1e1e1e", "#ffffff", "#000000" },
  { "--color-text-info",            "#1c71d8", "#78aeed", "#0b4a9a", "#99c1f1" },
  { "--color-text-danger",          "#c01c28", "#ff7b63", "#8a0d16", "#ff9b8a" },
  { "--color-text-success",         "#1b8553", "#8ff0a4", "#0d5a35", "#a8f5b9" },
  { "--color-text-warning",         "#9c6e03", "#f8e45c", "#6a4a00", "#f9ec8a" },
  { "--color-text-disabled",        "#a0a0a0", "#6a6a6a", "#5e5e5e", "#a0a0a0" },
  { "--color-border-primary",       "#d4d4d4", "#3a3a3a", "#000000", "#ffffff" },
  { "--color-border-secondary",     "#e0e0e0", "#2e2e2e", "#5e5e5e", "#c0c0c0" },
  { "--color-border-info",          "#1c71d8", "#78aeed", "#0b4a9a", "#99c1f1" },
  { "--color-border-danger",        "#c01c28", "#ff7b63", "#8a0d16", "#ff9b8a" },
  { "--color-border-success",       "#1b8553", "#8ff0a4", "#0d5a35", "#a8f5b9" },
  { "--color-border-warning",       "#9c6e03", "#f8e45c", "#6a4a00", "#f9ec8a" },
  { "--color-ring-primary",         "#3584e4", "#78aeed", "#0b4a9a", "#99c1f1" },
};

/* What does not change with the style: Adwaita's fonts and shapes. */
static const char * const fixed_variables[][2] = {
  { "--font-sans", "Cantarell, \"Adwaita Sans\", system-ui, sans-serif" },
  { "--font-mono", "\"Adwaita Mono\", \"Source Code Pro\", monospace" },
  { "--font-weight-normal", "400" },
  { "--font-weight-semibold", "600" },
  { "--font-weight-bold", "700" },
  { "--font-text-sm-size", "0.8125rem" },
  { "--font-text-md-size", "1rem" },
  { "--font-text-lg-size", "1.125rem" },
  { "--font-heading-sm-size", "1rem" },
  { "--font-heading-md-size", "1.25rem" },
  { "--font-heading-lg-size", "1.5rem" },
  { "--border-radius-sm", "6px" },
  { "--border-radius-md", "9px" },
  { "--border-radius-lg", "12px" },
  { "--border-radius-full", "9999px" },
  { "--border-width-regular", "1px" },
};

/* "de_DE.UTF-8" → "de-DE"; "C" and "POSIX" are no language, so English. */
static char *
bcp47_locale (void)
{
  const char * const *names = g_get_language_names ();
  g_autofree char *name = NULL;
  char *cut;

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_strcmp0 (names[i], "C") != 0 && g_strcmp0 (names[i], "POSIX") != 0
          && strchr (names[i], '.') == NULL && strchr (names[i], '@') == NULL)
        {
          name = g_strdup (names[i]);
          break;
        }
    }

  if (name == NULL)
    return g_strdup ("en-US");

  cut = strchr (name, '_');
  if (cut != NULL)
    *cut = '-';

  return g_steal_pointer (&name);
}

JsonObject *
steward_app_host_context_new (const char *display_mode,
                              int         width,
                              int         max_height)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (style);
  gboolean contrast = adw_style_manager_get_high_contrast (style);
  g_autoptr(GTimeZone) zone = g_time_zone_new_local ();
  JsonObject *context = json_object_new ();
  JsonObject *styles = json_object_new ();
  JsonObject *variables = json_object_new ();
  JsonObject *dimensions = json_object_new ();
  JsonObject *device = json_object_new ();
  JsonArray *modes = json_array_new ();
  g_autofree char *locale = bcp47_locale ();

  for (guint i = 0; i < G_N_ELEMENTS (colour_variables); i++)
    {
      const StyleVariable *v = &colour_variables[i];
      const char *value = contrast ? (dark ? v->contrast_dark : v->contrast_light)
                                   : (dark ? v->dark : v->light);

      json_object_set_string_member (variables, v->name, value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (fixed_variables); i++)
    json_object_set_string_member (variables, fixed_variables[i][0], fixed_variables[i][1]);
  json_object_set_object_member (styles, "variables", variables);

  json_object_set_string_member (context, "theme", dark ? "dark" : "light");
  json_object_set_object_member (context, "styles", styles);
  json_object_set_string_member (context, "displayMode", display_mode);
  json_array_add_string_element (modes, "inline");
  json_array_add_string_element (modes, "fullscreen");
  json_array_add_string_element (modes, "pip");
  json_object_set_array_member (context, "availableDisplayModes", modes);

  /* The width is ours to give; the height is the page's, up to a bound. */
  if (width > 0)
    json_object_set_int_member (dimensions, "width", width);
  if (max_height > 0)
    json_object_set_int_member (dimensions, "maxHeight", max_height);
  json_object_set_object_member (context, "containerDimensions", dimensions);

  json_object_set_string_member (context, "locale", locale);
  json_object_set_string_member (context, "timeZone", g_time_zone_get_identifier (zone));
  json_object_set_string_member (context, "userAgent", "Steward/" PACKAGE_VERSION);
  json_object_set_string_member (context, "platform", "desktop");
  json_object_set_boolean_member (device, "touch", FALSE);
  json_object_set_boolean_member (device, "hover", TRUE);
  json_object_set_object_member (context, "deviceCapabilities", device);

  return context;
}
