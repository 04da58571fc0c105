/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-audit-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-audit-record.h"
#include "steward-error-banner.h"
#include "steward-file-chooser.h"

#include "steward-audit-dialog.h"

typedef enum {
  COLUMN_TIME,
  COLUMN_SERVER,
  COLUMN_DECISION,
  COLUMN_MODEL,
  COLUMN_TOKENS,
  COLUMN_SUMMARY,
} Column;

struct _StewardAuditDialog
{
  AdwWindow             parent_instance;

  StewardHost          *host;
  GCancellable         *cancellable;
  GListStore           *records;
  GtkCustomFilter      *filter;
  GtkFilterListModel   *filter_model;
  char                 *needle;
  gboolean              loading;
  GCancellable         *chooser;

  AdwToastOverlay      *toast_overlay;
  StewardErrorBanner   *error_banner;
  GtkSearchEntry       *search_entry;
  GtkStack             *stack;
  AdwStatusPage        *empty_page;
  GtkColumnView        *column_view;
  GtkColumnViewColumn  *time_column;
  GtkColumnViewColumn  *server_column;
  GtkColumnViewColumn  *decision_column;
  GtkColumnViewColumn  *model_column;
  GtkColumnViewColumn  *tokens_column;
  GtkColumnViewColumn  *summary_column;
};

enum {
  PROP_0,
  PROP_HOST,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardAuditDialog, steward_audit_dialog, ADW_TYPE_WINDOW)

/* libadwaita 1.2 reads a toast's title as markup: escape what we show. */
static void
show_toast (StewardAuditDialog *self,
            const char         *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

static GFile *
get_journal (StewardAuditDialog *self)
{
  if (self->host == NULL)
    return NULL;

  return steward_sampling_broker_get_journal (steward_host_get_sampling_broker (self->host));
}

static void
update_view (StewardAuditDialog *self)
{
  guint n_records = g_list_model_get_n_items (G_LIST_MODEL (self->records));
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  const char *page;

  if (self->loading)
    page = "loading";
  else if (n_records == 0)
    page = "empty";
  else if (n_shown == 0)
    page = "no-match";
  else
    page = "list";

  gtk_stack_set_visible_child_name (self->stack, page);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "audit.export",
                                 !self->loading && n_records > 0 && get_journal (self) != NULL);
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  StewardAuditDialog *self = user_data;

  return steward_audit_record_matches (item, self->needle);
}

static void
search_changed_cb (StewardAuditDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->needle);
  self->needle = text != NULL && *text != '\0' ? g_utf8_casefold (text, -1) : NULL;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_view (self);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (column == COLUMN_SERVER || column == COLUMN_MODEL || column == COLUMN_SUMMARY)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), column == COLUMN_SUMMARY ? 20 : 10);
    }
  if (column == COLUMN_TIME || column == COLUMN_TOKENS)
    gtk_widget_add_css_class (label, "numeric");

  gtk_list_item_set_child (item, label);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  StewardAuditRecord *record = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  const char *text = NULL;

  switch ((Column) GPOINTER_TO_INT (user_data))
    {
    case COLUMN_TIME:
      text = steward_audit_record_get_time_text (record);
      break;
    case COLUMN_SERVER:
      text = steward_audit_record_get_server (record);
      break;
    case COLUMN_DECISION:
      text = steward_audit_record_get_decision (record);
      break;
    case COLUMN_MODEL:
      text = steward_audit_record_get_model (record);
      break;
    case COLUMN_TOKENS:
      text = steward_audit_record_get_tokens (record);
      break;
    case COLUMN_SUMMARY:
      text = steward_audit_record_get_summary (record);
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
      break;
    default:
      break;
    }

  gtk_label_set_text (label, text != NULL ? text : "");
}

static void
set_column_factory (GtkColumnViewColumn *column,
                    Column               id)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), GINT_TO_POINTER (id));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), GINT_TO_POINTER (id));
  gtk_column_view_column_set_factory (column, factory);
}

static void
read_journal_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(StewardAuditDialog) self = user_data;
  g_autoptr(GPtrArray) objects = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  guint i;

  objects = steward_sampling_broker_read_journal_finish (STEWARD_SAMPLING_BROKER (object),
                                                         result, &error);
  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  if (objects == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      /* Translators: %s says why, such as “Permission denied”. */
      g_autofree char *message = g_strdup_printf (_("Could not read the journal: %s"),
                                                  error->message);

      adw_status_page_set_title (self->empty_page, _("The Journal Could Not Be Read"));
      adw_status_page_set_description (self->empty_page, NULL);
      steward_error_banner_set_message (self->error_banner, message);
    }

  /* The journal is oldest first; the dialog shows the newest first. */
  records = g_ptr_array_new_with_free_func (g_object_unref);
  for (i = objects != NULL ? objects->len : 0; i > 0; i--)
    {
      JsonObject *record = g_ptr_array_index (objects, i - 1);

      if (record != NULL)
        g_ptr_array_add (records, steward_audit_record_new (record));
    }

  g_list_store_splice (self->records, 0, g_list_model_get_n_items (G_LIST_MODEL (self->records)),
                       records->pdata, records->len);

  self->loading = FALSE;
  update_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
copy_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardAuditDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_copy_finish (G_FILE (object), result, &error))
    {
      g_autofree char *message = NULL;

      if (g_cancellable_is_cancelled (self->cancellable))
        return;

      /* The person has to pick another place or make room: keep the
       * reason in view until they do. */
      message = g_strdup_printf (_("Could not export the journal: %s"), error->message);
      steward_error_banner_set_message (self->error_banner, message);
      return;
    }

  steward_error_banner_clear (self->error_banner);
  show_toast (self, _("Journal exported"));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardAuditDialog *self = STEWARD_AUDIT_DIALOG (widget);
  StewardFileQuestion question = {
    .action = GTK_FILE_CHOOSER_ACTION_SAVE,
    .title = _("Export Journal"),
    .accept_label = _("_Export"),
    .initial_name = "steward-audit.jsonl",
  };

  steward_file_chooser_choose_for (self, &self->chooser, GTK_WINDOW (self), &question,
                                   (StewardFileChosenFunc) steward_audit_dialog_export_to);
}

static void
steward_audit_dialog_constructed (GObject *object)
{
  StewardAuditDialog *self = STEWARD_AUDIT_DIALOG (object);

  G_OBJECT_CLASS (steward_audit_dialog_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  steward_sampling_broker_read_journal_async (steward_host_get_sampling_broker (self->host),
                                              self->cancellable, read_journal_cb,
                                              g_object_ref (self));
  update_view (self);
}

static void
steward_audit_dialog_dispose (GObject *object)
{
  StewardAuditDialog *self = STEWARD_AUDIT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);

  g_cancellable_cancel (self->chooser);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_AUDIT_DIALOG);

  if (self->filter != NULL)
    gtk_custom_filter_set_filter_func (self->filter, NULL, NULL, NULL);

  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->records);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_audit_dialog_parent_class)->dispose (object);
}

static void
steward_audit_dialog_finalize (GObject *object)
{
  StewardAuditDialog *self = STEWARD_AUDIT_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_free (self->needle);

  G_OBJECT_CLASS (steward_audit_dialog_parent_class)->finalize (object);
}

static void
steward_audit_dialog_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardAuditDialog *self = STEWARD_AUDIT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_audit_dialog_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StewardAuditDialog *self = STEWARD_AUDIT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_audit_dialog_class_init (StewardAuditDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_audit_dialog_constructed;
  object_class->dispose = steward_audit_dialog_dispose;
  object_class->finalize = steward_audit_dialog_finalize;
  object_class->get_property = steward_audit_dialog_get_property;
  object_class->set_property = steward_audit_dialog_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL,
                          TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STEWARD_TYPE_ERROR_BANNER);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-audit-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, error_banner);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, empty_page);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, column_view);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, time_column);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, server_column);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, decision_column);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, model_column);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, tokens_column);
  gtk_widget_class_bind_template_child (widget_class, StewardAuditDialog, summary_column);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);

  gtk_widget_class_install_action (widget_class, "audit.export", NULL, export_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
steward_audit_dialog_init (StewardAuditDialog *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  self->cancellable = g_cancellable_new ();
  self->loading = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->records = g_list_store_new (STEWARD_TYPE_AUDIT_RECORD);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->records)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));

  set_column_factory (self->time_column, COLUMN_TIME);
  set_column_factory (self->server_column, COLUMN_SERVER);
  set_column_factory (self->decision_column, COLUMN_DECISION);
  set_column_factory (self->model_column, COLUMN_MODEL);
  set_column_factory (self->tokens_column, COLUMN_TOKENS);
  set_column_factory (self->summary_column, COLUMN_SUMMARY);
}

GtkWidget *
steward_audit_dialog_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_AUDIT_DIALOG, "host", host, NULL);
}

gboolean
steward_audit_dialog_get_loading (StewardAuditDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_DIALOG (self), FALSE);

  return self->loading;
}

GListModel *
steward_audit_dialog_get_model (StewardAuditDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_AUDIT_DIALOG (self), NULL);

  return G_LIST_MODEL (self->filter_model);
}

/**
 * steward_audit_dialog_export_to:
 * @destination: where the copy of the journal goes; replaced if it exists
 *
 * Copies the journal to @destination, as the Export button does once a
 * place is chosen. A failure stays shown on the dialog until dismissed or
 * a later export succeeds.
 */
void
steward_audit_dialog_export_to (StewardAuditDialog *self,
                                GFile              *destination)
{
  GFile *journal;

  g_return_if_fail (STEWARD_IS_AUDIT_DIALOG (self));
  g_return_if_fail (G_IS_FILE (destination));

  journal = get_journal (self);
  if (journal == NULL)
    return;

  g_file_copy_async (journal, destination, G_FILE_COPY_OVERWRITE, G_PRIORITY_DEFAULT,
                     self->cancellable, NULL, NULL, copy_done_cb, g_object_ref (self));
}
