/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-resource-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-content-view.h"
#include "steward-item-row.h"
#include "steward-text.h"
#include "steward-ui-call.h"

#include "steward-resource-view.h"

struct _StewardResourceView
{
  AdwBin          parent_instance;

  McpClient      *client;
  char           *uri;
  GPtrArray      *contents;
  GCancellable   *cancellable;        /* the view's lifetime: subscriptions */
  GCancellable   *read_cancellable;   /* the read under way, or NULL */
  gboolean        updated;            /* the read under way follows an update */
  gboolean        setting_switch;

  StewardItemRow *header;
  GtkLabel       *uri_label;
  GtkWidget      *subscribe_box;
  GtkSwitch      *subscribe_switch;
  GtkLabel       *updated_label;
  GtkSpinner     *spinner;
  GtkLabel       *status_label;
  GtkWidget      *contents_box;
};

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardResourceView, steward_resource_view, ADW_TYPE_BIN)

static void
show_status (StewardResourceView *self,
             const char          *message)
{
  gtk_label_set_text (self->status_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), message != NULL);
}

static void
set_loading (StewardResourceView *self,
             gboolean             loading)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), loading);
  gtk_spinner_set_spinning (self->spinner, loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "resource.reload", !loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
show_contents (StewardResourceView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->contents_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->contents_box), child);

  for (guint i = 0; i < self->contents->len; i++)
    gtk_box_append (GTK_BOX (self->contents_box),
                    steward_content_view_new (g_ptr_array_index (self->contents, i)));

  if (self->contents->len == 0)
    show_status (self, _("The server returned no contents for this resource."));
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  StewardResourceView *self = steward_ui_call_finish (user_data);
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (self == NULL)
    return;

  g_clear_object (&self->read_cancellable);

  if (contents == NULL)
    {
      g_autofree char *reason = steward_text_make_visible_capped (error->message, 4096, NULL);
      /* Translators: %s is the server's or the connection's reason. */
      g_autofree char *message = g_strdup_printf (_("Could not read this resource: %s"), reason);

      show_status (self, message);
    }
  else
    {
      g_clear_pointer (&self->contents, g_ptr_array_unref);
      self->contents = g_steal_pointer (&contents);
      show_contents (self);
    }

  if (self->updated && error == NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *time = g_date_time_format (now, "%H:%M:%S");
      /* Translators: %s is a time of day. */
      g_autofree char *text = g_strdup_printf (_("Updated %s"), time);

      gtk_label_set_text (self->updated_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->updated_label), TRUE);
    }
  self->updated = FALSE;

  set_loading (self, FALSE);
}

static void
read_resource (StewardResourceView *self)
{
  if (self->read_cancellable != NULL)
    g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);
  self->read_cancellable = g_cancellable_new ();

  show_status (self, NULL);
  set_loading (self, TRUE);
  mcp_client_read_resource_async (self->client, self->uri, self->read_cancellable, read_cb,
                                  steward_ui_call_new (self, self->read_cancellable));
}

static void
resource_updated_cb (StewardResourceView *self,
                     const char          *uri,
                     McpClient           *client)
{
  if (g_strcmp0 (uri, self->uri) != 0 || !gtk_switch_get_active (self->subscribe_switch))
    return;

  self->updated = TRUE;
  read_resource (self);
}

static void
set_switch (StewardResourceView *self,
            gboolean             active)
{
  self->setting_switch = TRUE;
  gtk_switch_set_active (self->subscribe_switch, active);
  self->setting_switch = FALSE;
}

static void
subscribe_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  StewardResourceView *self = steward_ui_call_finish (user_data);
  g_autoptr(GError) error = NULL;

  mcp_client_subscribe_finish (MCP_CLIENT (object), result, &error);
  if (self == NULL)
    return;

  gtk_widget_set_sensitive (GTK_WIDGET (self->subscribe_switch), TRUE);
  set_switch (self, mcp_client_is_subscribed (self->client, self->uri));
  if (error != NULL)
    {
      g_autofree char *reason = steward_text_make_visible_capped (error->message, 4096, NULL);
      g_autofree char *message = g_strdup_printf (_("Could not change the subscription: %s"),
                                                  reason);

      show_status (self, message);
    }
}

static void
subscribe_switch_cb (StewardResourceView *self)
{
  gboolean active = gtk_switch_get_active (self->subscribe_switch);

  if (self->setting_switch || active == mcp_client_is_subscribed (self->client, self->uri))
    return;

  gtk_widget_set_sensitive (GTK_WIDGET (self->subscribe_switch), FALSE);
  mcp_client_subscribe_async (self->client, self->uri, active, self->cancellable, subscribe_cb,
                              steward_ui_call_new (self, self->cancellable));
}

static void
reload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  read_resource (STEWARD_RESOURCE_VIEW (widget));
}

static void
steward_resource_view_dispose (GObject *object)
{
  StewardResourceView *self = STEWARD_RESOURCE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->read_cancellable != NULL)
    g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_RESOURCE_VIEW);

  g_clear_object (&self->client);
  g_clear_pointer (&self->contents, g_ptr_array_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_resource_view_parent_class)->dispose (object);
}

static void
steward_resource_view_finalize (GObject *object)
{
  StewardResourceView *self = STEWARD_RESOURCE_VIEW (object);

  g_free (self->uri);

  G_OBJECT_CLASS (steward_resource_view_parent_class)->finalize (object);
}

static void
steward_resource_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardResourceView *self = STEWARD_RESOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, steward_resource_view_get_loading (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_resource_view_class_init (StewardResourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_resource_view_dispose;
  object_class->finalize = steward_resource_view_finalize;
  object_class->get_property = steward_resource_view_get_property;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "resource.reload", NULL, reload_action);

  g_type_ensure (STEWARD_TYPE_ITEM_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-resource-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, header);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, uri_label);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, subscribe_box);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, subscribe_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, updated_label);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, spinner);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardResourceView, contents_box);
}

static void
steward_resource_view_init (StewardResourceView *self)
{
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_resource_view_new (McpClient   *client,
                           const char  *uri,
                           McpResource *resource)
{
  StewardResourceView *self;
  g_autofree char *visible = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (uri != NULL, NULL);
  g_return_val_if_fail (resource == NULL || MCP_IS_RESOURCE (resource), NULL);

  self = g_object_new (STEWARD_TYPE_RESOURCE_VIEW, NULL);
  self->client = g_object_ref (client);
  self->uri = g_strdup (uri);

  if (resource != NULL)
    {
      steward_item_row_set_item (self->header, MCP_ITEM (resource));
      gtk_widget_set_visible (GTK_WIDGET (self->header), TRUE);
    }

  visible = steward_text_make_visible_capped (uri, 4096, NULL);
  gtk_label_set_text (self->uri_label, visible);

  if (mcp_client_has_capability (client, "resources", "subscribe"))
    {
      gtk_widget_set_visible (self->subscribe_box, TRUE);
      set_switch (self, mcp_client_is_subscribed (client, uri));
      g_signal_connect_object (self->subscribe_switch, "notify::active",
                               G_CALLBACK (subscribe_switch_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "resource-updated", G_CALLBACK (resource_updated_cb), self,
                               G_CONNECT_SWAPPED);
    }

  read_resource (self);

  return GTK_WIDGET (self);
}

const char *
steward_resource_view_get_uri (StewardResourceView *self)
{
  g_return_val_if_fail (STEWARD_IS_RESOURCE_VIEW (self), NULL);

  return self->uri;
}

void
steward_resource_view_reload (StewardResourceView *self)
{
  g_return_if_fail (STEWARD_IS_RESOURCE_VIEW (self));

  read_resource (self);
}

gboolean
steward_resource_view_get_loading (StewardResourceView *self)
{
  g_return_val_if_fail (STEWARD_IS_RESOURCE_VIEW (self), FALSE);

  return self->read_cancellable != NULL;
}

GPtrArray *
steward_resource_view_get_contents (StewardResourceView *self)
{
  g_return_val_if_fail (STEWARD_IS_RESOURCE_VIEW (self), NULL);

  return self->contents;
}
