/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-info-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-markdown-view.h"
#include "steward-text.h"
#include "steward-ui-call.h"

#include "steward-info-view.h"

/* Short facts from the server are cut well before they could hurt. */
#define MAX_FACT_BYTES 4096
/* A capabilities object could name any number of things. */
#define MAX_CAPABILITIES 64

struct _StewardInfoView
{
  AdwBin         parent_instance;

  StewardServer *server;
  McpClient     *client;
  GCancellable  *cancellable;

  GtkLabel      *name_value;
  GtkLabel      *title_value;
  GtkLabel      *version_value;
  GtkLabel      *revision_value;
  GtkLabel      *transport_value;
  GtkLabel      *capabilities_value;
  GtkWidget     *logging_box;
  GtkDropDown   *level_dropdown;
  GtkLabel      *level_status;
  GtkWidget     *instructions_box;
  GtkWidget     *instructions_warning;
  StewardMarkdownView *instructions_view;
};

G_DEFINE_FINAL_TYPE (StewardInfoView, steward_info_view, ADW_TYPE_BIN)

static void
set_fact (GtkLabel   *label,
          const char *text)
{
  g_autofree char *visible = NULL;

  if (text == NULL || *text == '\0')
    {
      /* Translators: shown for a fact the server did not give. */
      gtk_label_set_text (label, _("Not given"));
      gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
      return;
    }

  visible = steward_text_make_visible_capped (text, MAX_FACT_BYTES, NULL);
  gtk_label_set_text (label, visible);
  gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
}

static char *
describe_transport (StewardServer *server)
{
  StewardServerConfig *config = steward_server_get_config (server);
  StewardServerTransport transport = steward_server_config_get_transport (config);
  g_autoptr(GString) text = g_string_new (steward_server_transport_to_string (transport));

  if (steward_server_config_is_remote (config))
    {
      g_string_append_printf (text, " · %s", steward_server_config_get_url (config));
    }
  else
    {
      g_auto(GStrv) argv = steward_server_config_dup_argv (config);

      if (argv != NULL)
        {
          g_autofree char *line = g_strjoinv (" ", argv);

          g_string_append_printf (text, " · %s", line);
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* "tools (listChanged)", "resources (subscribe, listChanged)", "logging":
 * each capability with the features it turns on. */
static char *
describe_capabilities (JsonObject *capabilities)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GList) names = NULL;
  guint n = 0;

  if (capabilities != NULL)
    names = json_object_get_members (capabilities);

  for (GList *l = names; l != NULL && n < MAX_CAPABILITIES; l = l->next, n++)
    {
      JsonNode *node = json_object_get_member (capabilities, l->data);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, l->data);

      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *features = json_node_get_object (node);
          g_autoptr(GList) keys = json_object_get_members (features);
          gboolean first = TRUE;
          guint m = 0;

          for (GList *k = keys; k != NULL && m < MAX_CAPABILITIES; k = k->next, m++)
            {
              JsonNode *value = json_object_get_member (features, k->data);

              /* A feature set to false is not offered. */
              if (JSON_NODE_HOLDS_VALUE (value) &&
                  json_node_get_value_type (value) == G_TYPE_BOOLEAN &&
                  !json_node_get_boolean (value))
                continue;

              g_string_append (text, first ? " (" : ", ");
              g_string_append (text, k->data);
              first = FALSE;
            }
          if (!first)
            g_string_append_c (text, ')');
        }
    }

  if (text->len == 0)
    return NULL;

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
set_level_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  StewardInfoView *self = steward_ui_call_finish (user_data);
  g_autoptr(GError) error = NULL;

  mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error);
  if (self == NULL)
    return;

  gtk_widget_set_sensitive (GTK_WIDGET (self->level_dropdown), TRUE);
  if (error != NULL)
    {
      g_autofree char *reason = steward_text_make_visible_capped (error->message, 1024, NULL);
      /* Translators: %s is the server's reason. */
      g_autofree char *message = g_strdup_printf (_("The server refused: %s"), reason);

      gtk_label_set_text (self->level_status, message);
    }
  else
    {
      gtk_label_set_text (self->level_status, _("The server will log at this level."));
    }
}

static void
level_selected_cb (StewardInfoView *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->level_dropdown);

  /* The first choice stands for the level nobody set: nothing to send. */
  if (item == NULL || gtk_drop_down_get_selected (self->level_dropdown) == 0)
    return;

  gtk_widget_set_sensitive (GTK_WIDGET (self->level_dropdown), FALSE);
  gtk_label_set_text (self->level_status, "");
  mcp_client_set_log_level_async (self->client, gtk_string_object_get_string (item),
                                  self->cancellable, set_level_cb,
                                  steward_ui_call_new (self, self->cancellable));
}

static void
update (StewardInfoView *self)
{
  const char *instructions = mcp_client_get_instructions (self->client);
  g_autofree char *transport = describe_transport (self->server);
  g_autofree char *capabilities = NULL;

  capabilities = describe_capabilities (mcp_client_get_server_capabilities (self->client));

  set_fact (self->name_value, mcp_client_get_server_name (self->client));
  set_fact (self->title_value, mcp_client_get_server_title (self->client));
  set_fact (self->version_value, mcp_client_get_server_version (self->client));
  set_fact (self->revision_value, mcp_client_get_protocol_version (self->client));
  set_fact (self->transport_value, transport);
  set_fact (self->capabilities_value, capabilities);

  gtk_widget_set_visible (self->logging_box,
                          mcp_client_has_capability (self->client, "logging", NULL));

  gtk_widget_set_visible (self->instructions_box, instructions != NULL && *instructions != '\0');
  if (instructions != NULL)
    {
      g_autofree char *visible = steward_text_for_display (instructions);

      steward_markdown_view_set_text (self->instructions_view, visible);
      gtk_widget_set_visible (self->instructions_warning, steward_text_has_hidden (instructions));
    }
}

static void
steward_info_view_dispose (GObject *object)
{
  StewardInfoView *self = STEWARD_INFO_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_INFO_VIEW);

  g_clear_object (&self->server);
  g_clear_object (&self->client);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_info_view_parent_class)->dispose (object);
}

static void
steward_info_view_class_init (StewardInfoViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_info_view_dispose;

  g_type_ensure (STEWARD_TYPE_MARKDOWN_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-info-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, name_value);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, title_value);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, version_value);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, revision_value);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, transport_value);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, capabilities_value);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, logging_box);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, level_status);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, instructions_box);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, instructions_warning);
  gtk_widget_class_bind_template_child (widget_class, StewardInfoView, instructions_view);
}

static void
steward_info_view_init (StewardInfoView *self)
{
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  steward_accessible_name_drop_down (self->level_dropdown);

  /* The server's level is unknown until the person picks one. */
  gtk_drop_down_set_selected (self->level_dropdown, 0);
  g_signal_connect_object (self->level_dropdown, "notify::selected",
                           G_CALLBACK (level_selected_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
steward_info_view_new (StewardServer *server,
                       McpClient     *client)
{
  StewardInfoView *self;

  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);
  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);

  self = g_object_new (STEWARD_TYPE_INFO_VIEW, NULL);
  self->server = g_object_ref (server);
  self->client = g_object_ref (client);
  update (self);

  return GTK_WIDGET (self);
}

const char *
steward_info_view_get_fact (StewardInfoView *self,
                            const char      *key)
{
  const struct {
    const char *key;
    gsize       offset;
  } facts[] = {
    { "name", G_STRUCT_OFFSET (StewardInfoView, name_value) },
    { "title", G_STRUCT_OFFSET (StewardInfoView, title_value) },
    { "version", G_STRUCT_OFFSET (StewardInfoView, version_value) },
    { "revision", G_STRUCT_OFFSET (StewardInfoView, revision_value) },
    { "transport", G_STRUCT_OFFSET (StewardInfoView, transport_value) },
    { "capabilities", G_STRUCT_OFFSET (StewardInfoView, capabilities_value) },
  };

  g_return_val_if_fail (STEWARD_IS_INFO_VIEW (self), NULL);

  if (g_str_equal (key, "instructions"))
    return steward_markdown_view_get_text (self->instructions_view);

  for (guint i = 0; i < G_N_ELEMENTS (facts); i++)
    if (g_str_equal (facts[i].key, key))
      return gtk_label_get_text (G_STRUCT_MEMBER (GtkLabel *, self, facts[i].offset));

  return NULL;
}
