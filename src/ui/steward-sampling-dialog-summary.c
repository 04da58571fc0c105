/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-dialog"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-text.h"

#include "steward-sampling-dialog-private.h"

/* The broker's rule for answers no provider counted: about four
 * characters a token. An estimate for the person, never a limit. */
#define CHARS_PER_TOKEN 4

static char *
format_count (gint64 value)
{
  /* Grouped as the person's locale groups digits: 4,096 or 4 096. */
  return g_strdup_printf ("%'" G_GINT64_FORMAT, value);
}

static void
set_row (AdwActionRow *row,
         const char   *subtitle)
{
  adw_action_row_set_subtitle (row, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (row), subtitle != NULL);
}

void
steward_sampling_dialog_update_max_tokens (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  guint requested = steward_approval_get_max_tokens_requested (self->approval);
  g_autofree char *value = NULL;
  g_autofree char *text = NULL;
  double max_tokens;

  if (!member_number (request, "maxTokens", &max_tokens))
    {
      set_row (self->max_tokens_row, _("Not given"));
      return;
    }

  value = format_count ((gint64) max_tokens);
  if (requested > max_tokens)
    {
      g_autofree char *asked = format_count (requested);

      /* Translators: the first %s is the number of tokens the model may
       * write, the second the larger number the server asked for. */
      text = g_strdup_printf (_("%s (asked for %s; limited by your settings)"), value, asked);
      set_row (self->max_tokens_row, text);
    }
  else
    {
      set_row (self->max_tokens_row, value);
    }
}

static char *
describe_strings (JsonArray  *array,
                  const char *member,
                  gboolean    quoted)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      const char *value = NULL;
      g_autofree char *visible = NULL;

      if (member != NULL && JSON_NODE_HOLDS_OBJECT (node))
        value = mcp_json_get_string (json_node_get_object (node), member);
      else if (member == NULL && JSON_NODE_HOLDS_VALUE (node) &&
               json_node_get_value_type (node) == G_TYPE_STRING)
        value = json_node_get_string (node);

      if (value == NULL)
        continue;

      visible = steward_text_make_visible_capped (value, 1024, NULL);
      if (text->len > 0)
        g_string_append (text, ", ");
      if (quoted)
        g_string_append_printf (text, "“%s”", visible);
      else
        g_string_append (text, visible);

      if (text->len > 4096)
        {
          g_string_append (text, ", …");
          break;
        }
    }

  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

void
steward_sampling_dialog_update_parameters (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  JsonObject *preferences = mcp_json_get_object (request, "modelPreferences");
  const char *context = mcp_json_get_string (request, "includeContext");
  g_autofree char *temperature = NULL;
  g_autofree char *stops = NULL;
  g_autofree char *hints = NULL;
  g_autofree char *tools = NULL;
  g_autoptr(GString) wanted = g_string_new (NULL);
  double value;

  steward_sampling_dialog_update_max_tokens (self);

  if (member_number (request, "temperature", &value))
    temperature = g_strdup_printf ("%g", value);
  set_row (self->temperature_row, temperature != NULL ? temperature : _("The model’s default"));

  stops = describe_strings (mcp_json_get_array (request, "stopSequences"), NULL, TRUE);
  set_row (self->stop_row, stops != NULL ? stops : _("None"));

  /* Steward declares no sampling context, so whatever the server asks
   * for, nothing is added; say so plainly, in the broker's words when it
   * gave some. */
  if (mcp_json_get_string (mcp_json_get_object (request, "_steward"), "includeContext") != NULL)
    set_row (self->context_row,
             mcp_json_get_string (mcp_json_get_object (request, "_steward"), "includeContext"));
  else if (g_strcmp0 (context, "thisServer") == 0)
    set_row (self->context_row, _("This server: context from this server "
                                  "(none is shared in this version)"));
  else if (g_strcmp0 (context, "allServers") == 0)
    set_row (self->context_row, _("All servers: context from every server "
                                  "(none is shared in this version)"));
  else
    set_row (self->context_row, _("None: nothing else is included"));

  hints = describe_strings (mcp_json_get_array (preferences, "hints"), "name", FALSE);
  if (hints != NULL)
    /* Translators: %s is a list of model names, in the server's order. */
    g_string_append_printf (wanted, _("Hints: %s"), hints);
  {
    static const struct {
      const char *member;
      const char *label;
    } priorities[] = {
      { "costPriority", N_("cost") },
      { "speedPriority", N_("speed") },
      { "intelligencePriority", N_("intelligence") },
    };
    g_autoptr(GString) list = g_string_new (NULL);

    for (guint i = 0; i < G_N_ELEMENTS (priorities); i++)
      {
        if (!member_number (preferences, priorities[i].member, &value))
          continue;
        if (list->len > 0)
          g_string_append (list, ", ");
        g_string_append_printf (list, "%s %g", _(priorities[i].label), value);
      }

    if (list->len > 0)
      {
        if (wanted->len > 0)
          g_string_append (wanted, "\n");
        /* Translators: %s lists priorities between 0 and 1, such as
         * "cost 0.3, speed 0.8". */
        g_string_append_printf (wanted, _("Priorities: %s"), list->str);
      }
  }
  set_row (self->preferences_row, wanted->len > 0 ? wanted->str : _("None given"));

  tools = describe_strings (mcp_json_get_array (request, "tools"), "name", FALSE);
  set_row (self->tools_row, tools);
}

gboolean
steward_sampling_dialog_has_model (StewardSamplingDialog *self)
{
  const char *model = steward_approval_get_model (self->approval);

  return model != NULL && *model != '\0' && g_strcmp0 (model, "manual") != 0;
}

static JsonObject *
find_choice (StewardSamplingDialog *self,
             const char            *id)
{
  JsonArray *choices = steward_approval_get_model_choices (self->approval);

  for (guint i = 0; choices != NULL && i < json_array_get_length (choices); i++)
    {
      JsonObject *choice = json_array_get_object_element (choices, i);

      if (g_strcmp0 (mcp_json_get_string (choice, "id"), id) == 0)
        return choice;
    }

  return NULL;
}

/* Counts what goes to the model besides the system prompt: messages,
 * images and audio, and the characters of the text, for the estimate. */
static void
count_request (JsonObject *request,
               guint      *n_messages,
               guint      *n_media,
               gint64     *n_chars)
{
  JsonArray *messages = mcp_json_get_array (request, "messages");
  const char *system = mcp_json_get_string (request, "systemPrompt");

  *n_messages = messages != NULL ? json_array_get_length (messages) : 0;
  *n_media = 0;
  *n_chars = system != NULL ? g_utf8_strlen (system, -1) : 0;

  for (guint i = 0; i < *n_messages; i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      JsonNode *content = message != NULL ? json_object_get_member (message, "content") : NULL;
      guint n_blocks;

      if (content == NULL)
        continue;

      n_blocks = JSON_NODE_HOLDS_ARRAY (content)
                 ? json_array_get_length (json_node_get_array (content))
                 : 1;
      for (guint j = 0; j < n_blocks; j++)
        {
          JsonNode *node = JSON_NODE_HOLDS_ARRAY (content)
                           ? json_array_get_element (json_node_get_array (content), j)
                           : content;
          JsonObject *block = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
          const char *type = mcp_json_get_string (block, "type");
          const char *text = mcp_json_get_string (block, "text");
          const char *data = mcp_json_get_string (block, "data");

          if (g_strcmp0 (type, "image") == 0 || g_strcmp0 (type, "audio") == 0)
            (*n_media)++;
          if (text != NULL)
            *n_chars += g_utf8_strlen (text, -1);
          if (data != NULL)
            *n_chars += (gint64) strlen (data);
        }
    }
}

/* What leaves the computer, and where it goes. */
static void
update_sent (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  const char *context = mcp_json_get_string (
    mcp_json_get_object (request, "_steward"), "includeContext");
  JsonObject *choice = find_choice (self, steward_approval_get_model (self->approval));
  g_autofree char *what = NULL;
  g_autofree char *where = NULL;
  g_autofree char *text = NULL;
  guint n_messages, n_media;
  gint64 n_chars;

  count_request (request, &n_messages, &n_media, &n_chars);

  what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u message", "%u messages",
                                       n_messages),
                          n_messages);
  if (n_media > 0)
    {
      g_autofree char *media = NULL;
      g_autofree char *messages = g_steal_pointer (&what);

      /* Translators: follows "%u messages" after a comma. */
      media = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u image or sound among them",
                                            "%u images or sounds among them",
                                            n_media),
                               n_media);
      what = g_strdup_printf ("%s, %s", messages, media);
    }

  if (!steward_sampling_dialog_has_model (self))
    where = g_strdup (_("Nothing leaves this computer."));
  else if (choice != NULL && json_object_get_boolean_member_with_default (choice, "local", FALSE))
    /* Translators: %s names a provider, such as "ollama". */
    where = g_strdup_printf (_("They go to “%s”, which runs on this computer."),
                             mcp_json_get_string (choice, "provider"));
  else if (choice != NULL)
    /* Translators: %s names a provider, such as "anthropic". */
    where = g_strdup_printf (_("They leave this computer for “%s”."),
                             mcp_json_get_string (choice, "provider"));
  else
    where = g_strdup (_("They go to the model named above."));

  if (context != NULL)
    text = g_strdup_printf ("%s. %s\n%s", what, where, context);
  else
    text = g_strdup_printf ("%s. %s", what, where);

  adw_action_row_set_subtitle (self->sent_row, text);
}

/* The tokens the request will spend, against what the server has left of
 * its budget today. */
static void
update_estimate (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_messages, n_media;
  gint64 n_chars;
  gint64 estimate;
  double max_tokens = 0;
  guint daily = 0, used = 0;

  count_request (request, &n_messages, &n_media, &n_chars);
  estimate = (n_chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  member_number (request, "maxTokens", &max_tokens);
  steward_approval_get_budget (self->approval, &daily, &used);

  input = format_count (estimate);
  output = format_count ((gint64) max_tokens);
  /* Translators: both %s are numbers of tokens. */
  g_string_printf (text, _("About %s to send, and up to %s for the answer."), input, output);

  gtk_widget_remove_css_class (GTK_WIDGET (self->estimate_row), "warning");
  if (daily > 0)
    {
      g_autofree char *used_text = format_count (used);
      g_autofree char *daily_text = format_count (daily);

      g_string_append_c (text, '\n');
      /* Translators: the first %s is how many tokens the server used
       * today, the second its daily budget. */
      g_string_append_printf (text, _("This server has used %s of its %s tokens today."),
                              used_text, daily_text);
      if ((gint64) used + estimate + (gint64) max_tokens > (gint64) daily)
        {
          g_string_append_c (text, ' ');
          g_string_append (text, _("This request may need more than is left."));
          gtk_widget_add_css_class (GTK_WIDGET (self->estimate_row), "warning");
        }
    }

  adw_action_row_set_subtitle (self->estimate_row, text->str);
}

static void
model_selected_cb (StewardSamplingDialog *self)
{
  JsonArray *choices = steward_approval_get_model_choices (self->approval);
  guint selected = gtk_drop_down_get_selected (self->model_dropdown);
  JsonObject *choice;

  if (self->filling_models || choices == NULL || selected >= json_array_get_length (choices))
    return;

  choice = json_array_get_object_element (choices, selected);
  if (g_strcmp0 (mcp_json_get_string (choice, "id"),
                 steward_approval_get_model (self->approval)) == 0)
    return;

  /* The broker takes the model from the approval on "continue", and only
   * one it offered. */
  steward_approval_set_model (self->approval, mcp_json_get_string (choice, "id"),
                              _("You picked this model."));
}

static void
setup_model_item_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  /* Model ids are long; in a narrow window the row keeps its title. */
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_model_item_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GtkStringObject *name = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (name));
}

/* The models the person may pick instead, in the row of the chosen one.
 * The broker offers them once; only the selection follows the approval's
 * model afterwards, as replacing the list while the person picks from it
 * would pull it from under the selection. */
static void
fill_model_choices (StewardSamplingDialog *self)
{
  JsonArray *choices = steward_approval_get_model_choices (self->approval);
  const char *model = steward_approval_get_model (self->approval);
  guint selected = GTK_INVALID_LIST_POSITION;
  guint n = choices != NULL ? json_array_get_length (choices) : 0;

  if (gtk_drop_down_get_model (self->model_dropdown) == NULL)
    {
      g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      for (guint i = 0; i < n; i++)
        {
          JsonObject *choice = json_array_get_object_element (choices, i);
          const char *id = mcp_json_get_string (choice, "id");

          gtk_string_list_append (names, id != NULL ? id : "");
        }

      g_signal_connect (factory, "setup", G_CALLBACK (setup_model_item_cb), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_model_item_cb), NULL);
      gtk_drop_down_set_factory (self->model_dropdown, factory);

      self->filling_models = TRUE;
      gtk_drop_down_set_model (self->model_dropdown, G_LIST_MODEL (names));
      self->filling_models = FALSE;
      g_signal_connect_object (self->model_dropdown, "notify::selected",
                               G_CALLBACK (model_selected_cb), self, G_CONNECT_SWAPPED);
    }

  for (guint i = 0; i < n; i++)
    {
      JsonObject *choice = json_array_get_object_element (choices, i);

      if (g_strcmp0 (mcp_json_get_string (choice, "id"), model) == 0)
        selected = i;
    }

  if (gtk_drop_down_get_selected (self->model_dropdown) != selected)
    {
      self->filling_models = TRUE;
      gtk_drop_down_set_selected (self->model_dropdown, selected);
      self->filling_models = FALSE;
    }

  /* A choice of one is no choice. */
  gtk_widget_set_visible (GTK_WIDGET (self->model_dropdown),
                          n > 1 && selected != GTK_INVALID_LIST_POSITION);
}

void
steward_sampling_dialog_update_model (StewardSamplingDialog *self)
{
  const char *model = steward_approval_get_model (self->approval);
  const char *reason = steward_approval_get_model_reason (self->approval);
  const char *policy = steward_approval_get_policy_text (self->approval);
  g_autofree char *label = NULL;

  if (steward_sampling_dialog_has_model (self))
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->model_row), model);
      /* Translators: %s is the name of a language model. */
      label = g_strdup_printf (_("Model: %s"), model);
    }
  else
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->model_row),
                                     _("You write the answer"));
    }

  adw_action_row_set_subtitle (self->model_row, reason != NULL ? reason : "");
  gtk_label_set_text (self->answer_model_label, label != NULL ? label : "");
  gtk_widget_set_visible (GTK_WIDGET (self->answer_model_label), label != NULL);

  set_row (self->policy_row, policy);
  fill_model_choices (self);
  update_sent (self);
  update_estimate (self);
}
