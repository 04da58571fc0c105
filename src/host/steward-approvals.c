/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-approvals"

#include "config.h"

#include "steward-approvals.h"

struct _StewardApprovals
{
  GObject    parent_instance;

  /* Unfinished approvals, oldest first; each watched for "finished". */
  GPtrArray *items;
};

enum {
  PROP_0,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_ADDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void steward_approvals_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardApprovals, steward_approvals, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_approvals_list_model_init))

static GType
steward_approvals_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_APPROVAL;
}

static guint
steward_approvals_get_n_items (GListModel *model)
{
  return STEWARD_APPROVALS (model)->items->len;
}

static gpointer
steward_approvals_get_item (GListModel *model,
                            guint       position)
{
  StewardApprovals *self = STEWARD_APPROVALS (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
steward_approvals_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_approvals_get_item_type;
  iface->get_n_items = steward_approvals_get_n_items;
  iface->get_item = steward_approvals_get_item;
}

static void
finished_cb (StewardApprovals *self,
             GParamSpec       *pspec,
             StewardApproval  *approval)
{
  guint position;

  if (!steward_approval_get_finished (approval))
    return;

  if (!g_ptr_array_find (self->items, approval, &position))
    return;

  g_signal_handlers_disconnect_by_func (approval, finished_cb, self);

  /* Keep it alive until the views have heard that it left. */
  g_object_ref (approval);
  g_ptr_array_remove_index (self->items, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  g_object_unref (approval);
}

static void
steward_approvals_dispose (GObject *object)
{
  StewardApprovals *self = STEWARD_APPROVALS (object);

  if (self->items != NULL)
    {
      for (guint i = 0; i < self->items->len; i++)
        g_signal_handlers_disconnect_by_func (g_ptr_array_index (self->items, i),
                                              finished_cb, self);
      g_ptr_array_set_size (self->items, 0);
    }

  G_OBJECT_CLASS (steward_approvals_parent_class)->dispose (object);
}

static void
steward_approvals_finalize (GObject *object)
{
  StewardApprovals *self = STEWARD_APPROVALS (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_approvals_parent_class)->finalize (object);
}

static void
steward_approvals_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardApprovals *self = STEWARD_APPROVALS (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_approvals_class_init (StewardApprovalsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_approvals_dispose;
  object_class->finalize = steward_approvals_finalize;
  object_class->get_property = steward_approvals_get_property;

  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardApprovals::added:
   * @approval: the approval that joined the list
   *
   * Emitted after "items-changed", so that the list already holds it.
   */
  signals[SIGNAL_ADDED] =
    g_signal_new ("added",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1,
                  STEWARD_TYPE_APPROVAL);
}

static void
steward_approvals_init (StewardApprovals *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

StewardApprovals *
steward_approvals_new (void)
{
  return g_object_new (STEWARD_TYPE_APPROVALS, NULL);
}

/**
 * steward_approvals_add:
 * @approval: an unfinished approval
 *
 * Appends @approval; it leaves the list by itself once it finishes.
 */
void
steward_approvals_add (StewardApprovals *self,
                       StewardApproval  *approval)
{
  guint position;

  g_return_if_fail (STEWARD_IS_APPROVALS (self));
  g_return_if_fail (STEWARD_IS_APPROVAL (approval));
  g_return_if_fail (!steward_approval_get_finished (approval));

  if (g_ptr_array_find (self->items, approval, NULL))
    return;

  position = self->items->len;
  g_ptr_array_add (self->items, g_object_ref (approval));
  g_signal_connect_object (approval, "notify::finished",
                           G_CALLBACK (finished_cb), self, G_CONNECT_SWAPPED);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  g_signal_emit (self, signals[SIGNAL_ADDED], 0, approval);
}

/**
 * steward_approvals_get_first:
 *
 * Returns: (transfer none) (nullable): the oldest unfinished approval
 */
StewardApproval *
steward_approvals_get_first (StewardApprovals *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVALS (self), NULL);

  if (self->items->len == 0)
    return NULL;

  return g_ptr_array_index (self->items, 0);
}

/**
 * steward_approvals_count_for:
 * @server: (nullable): a server name, or %NULL for every server
 *
 * Returns: how many unfinished approvals of @kind @server has
 */
guint
steward_approvals_count_for (StewardApprovals    *self,
                             StewardApprovalKind  kind,
                             const char          *server)
{
  guint count = 0;

  g_return_val_if_fail (STEWARD_IS_APPROVALS (self), 0);

  for (guint i = 0; i < self->items->len; i++)
    {
      StewardApproval *approval = g_ptr_array_index (self->items, i);

      if (steward_approval_get_kind (approval) == kind &&
          (server == NULL || g_strcmp0 (steward_approval_get_server (approval), server) == 0))
        count++;
    }

  return count;
}
