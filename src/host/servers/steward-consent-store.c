/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-consent-store"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <sys/random.h>

#include "steward-consent-store.h"
#include "steward-secrets.h"

/**
 * StewardConsentStore:
 *
 * Seals and verifies consents with a key from the keyring (see the header).
 * The key lives in memory once found, and is wiped when the store goes.
 */

#define KEY_LENGTH 32
/* Bumped when what the seal covers changes, so that old seals fail. */
#define SEAL_TAG "steward-consent-seal-1"

struct _StewardConsentStore
{
  GObject                 parent_instance;

  StewardSecrets         *secrets;
  StewardConsentKeyState  state;
  guint8                  key[KEY_LENGTH];
  /* GTasks waiting for the look-up under way. */
  GPtrArray              *waiting;
};

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardConsentStore, steward_consent_store, G_TYPE_OBJECT)

static void
wipe (guint8 *data,
      gsize   length)
{
  /* Volatile, so that the stores are not dropped as dead writes. */
  volatile guint8 *p = data;

  for (gsize i = 0; i < length; i++)
    p[i] = 0;
}

static void
set_state (StewardConsentStore    *self,
           StewardConsentKeyState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static char *
key_to_hex (const guint8 *key)
{
  GString *hex = g_string_sized_new (KEY_LENGTH * 2);

  for (gsize i = 0; i < KEY_LENGTH; i++)
    g_string_append_printf (hex, "%02x", key[i]);

  return g_string_free (hex, FALSE);
}

static gboolean
key_from_hex (const char *hex,
              guint8     *key)
{
  if (hex == NULL || strlen (hex) != KEY_LENGTH * 2)
    return FALSE;

  for (gsize i = 0; i < KEY_LENGTH; i++)
    {
      int high = g_ascii_xdigit_value (hex[2 * i]);
      int low = g_ascii_xdigit_value (hex[2 * i + 1]);

      if (high < 0 || low < 0)
        return FALSE;
      key[i] = (guint8) (high << 4 | low);
    }

  return TRUE;
}

/* Loading the key */

static void
finish_waiting (StewardConsentStore *self,
                const GError        *error)
{
  g_autoptr(GPtrArray) waiting = g_steal_pointer (&self->waiting);

  if (error == NULL)
    set_state (self, STEWARD_CONSENT_KEY_READY);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    set_state (self, STEWARD_CONSENT_KEY_UNAVAILABLE);

  for (guint i = 0; i < waiting->len; i++)
    {
      GTask *task = g_ptr_array_index (waiting, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void lookup_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data);

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StewardConsentStore) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  id = steward_secrets_store_finish (STEWARD_SECRETS (object), result, &error);
  if (id == NULL)
    {
      finish_waiting (self, error);
      return;
    }

  /* Read back what the keyring holds now: when another Steward created a
   * key at the same moment, both go on with whichever was stored last. */
  steward_secrets_lookup_async (self->secrets, STEWARD_CONSENT_KEY_ID, NULL, lookup_cb,
                                g_object_ref (self));
}

static void
create_key (StewardConsentStore *self)
{
  guint8 key[KEY_LENGTH];
  g_autofree char *hex = NULL;
  gsize filled = 0;

  while (filled < KEY_LENGTH)
    {
      ssize_t got = getrandom (key + filled, KEY_LENGTH - filled, 0);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          g_autoptr(GError) error = NULL;
          int saved_errno = errno;

          error = g_error_new (STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_FAILED,
                               _("No random key could be made for remembering permissions: %s"),
                               g_strerror (saved_errno));
          finish_waiting (self, error);
          return;
        }
      filled += (gsize) got;
    }

  hex = key_to_hex (key);
  wipe (key, sizeof key);
  steward_secrets_store_async (self->secrets, STEWARD_CONSENT_KEY_ID,
                               STEWARD_SECRET_KIND_CONSENT_KEY,
                               /* Translators: how the keyring lists Steward's item. */
                               _("Steward: key that marks which servers you allowed"),
                               hex, NULL, stored_cb, g_object_ref (self));
  wipe ((guint8 *) hex, strlen (hex));
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StewardConsentStore) self = user_data;
  g_autoptr(GError) error = NULL;
  char *hex;

  hex = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  if (hex == NULL && g_error_matches (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND))
    {
      /* The first run: no consent was ever sealed. */
      create_key (self);
      return;
    }

  if (hex == NULL)
    {
      finish_waiting (self, error);
      return;
    }

  if (!key_from_hex (hex, self->key))
    {
      /* A damaged key verifies nothing; a new one means every server asks
       * again once, which is the safe way to be wrong. */
      g_message ("The keyring item %s is not a key; a new one is made", STEWARD_CONSENT_KEY_ID);
      steward_secret_value_free (hex);
      create_key (self);
      return;
    }

  steward_secret_value_free (hex);
  finish_waiting (self, NULL);
}

/* GObject */

static void
steward_consent_store_finalize (GObject *object)
{
  StewardConsentStore *self = STEWARD_CONSENT_STORE (object);

  wipe (self->key, sizeof self->key);
  g_clear_object (&self->secrets);
  g_assert (self->waiting == NULL);

  G_OBJECT_CLASS (steward_consent_store_parent_class)->finalize (object);
}

static void
steward_consent_store_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardConsentStore *self = STEWARD_CONSENT_STORE (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_consent_store_class_init (StewardConsentStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_consent_store_finalize;
  object_class->get_property = steward_consent_store_get_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      STEWARD_CONSENT_KEY_UNKNOWN, STEWARD_CONSENT_KEY_UNAVAILABLE,
                      STEWARD_CONSENT_KEY_UNKNOWN,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_consent_store_init (StewardConsentStore *self)
{
}

/* Public API */

/**
 * steward_consent_store_new:
 * @secrets: the keyring
 *
 * Nothing is looked up until steward_consent_store_load_async().
 */
StewardConsentStore *
steward_consent_store_new (StewardSecrets *secrets)
{
  StewardConsentStore *self;

  g_return_val_if_fail (STEWARD_IS_SECRETS (secrets), NULL);

  self = g_object_new (STEWARD_TYPE_CONSENT_STORE, NULL);
  self->secrets = g_object_ref (secrets);

  return self;
}

StewardConsentStore *
steward_consent_store_new_with_key (const guint8 *key,
                                    gsize         length)
{
  StewardConsentStore *self;

  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (length == KEY_LENGTH, NULL);

  self = g_object_new (STEWARD_TYPE_CONSENT_STORE, NULL);
  memcpy (self->key, key, KEY_LENGTH);
  self->state = STEWARD_CONSENT_KEY_READY;

  return self;
}

void
steward_consent_store_load_async (StewardConsentStore *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gboolean under_way;

  g_return_if_fail (STEWARD_IS_CONSENT_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_consent_store_load_async);

  if (self->state == STEWARD_CONSENT_KEY_READY)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (self->secrets == NULL)
    {
      g_task_return_new_error (task, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_UNAVAILABLE,
                               _("No keyring is used here"));
      return;
    }

  /* The look-up itself is not cancelled with one caller: another may
   * still wait for it, and a key once found serves every later call. */
  under_way = self->waiting != NULL;
  if (!under_way)
    self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->waiting, g_steal_pointer (&task));

  if (!under_way)
    steward_secrets_lookup_async (self->secrets, STEWARD_CONSENT_KEY_ID, NULL, lookup_cb,
                                  g_object_ref (self));
}

gboolean
steward_consent_store_load_finish (StewardConsentStore  *self,
                                   GAsyncResult         *result,
                                   GError              **error)
{
  g_return_val_if_fail (STEWARD_IS_CONSENT_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

StewardConsentKeyState
steward_consent_store_get_state (StewardConsentStore *self)
{
  g_return_val_if_fail (STEWARD_IS_CONSENT_STORE (self), STEWARD_CONSENT_KEY_UNKNOWN);

  return self->state;
}

/**
 * steward_consent_store_seal:
 * @name: the server's name
 * @fingerprint: steward_server_config_dup_fingerprint() of what was allowed
 *
 * The name is sealed too, so that an entry copied from one server to
 * another does not verify even when both run the same command.
 */
char *
steward_consent_store_seal (StewardConsentStore *self,
                            const char          *name,
                            const char          *fingerprint)
{
  g_autoptr(GHmac) hmac = NULL;

  g_return_val_if_fail (STEWARD_IS_CONSENT_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  if (self->state != STEWARD_CONSENT_KEY_READY)
    return NULL;

  /* Each part with its terminating NUL, so that no two (name, fingerprint)
   * pairs run together into the same bytes. */
  hmac = g_hmac_new (G_CHECKSUM_SHA256, self->key, KEY_LENGTH);
  g_hmac_update (hmac, (const guchar *) SEAL_TAG, sizeof SEAL_TAG);
  g_hmac_update (hmac, (const guchar *) name, (gssize) strlen (name) + 1);
  g_hmac_update (hmac, (const guchar *) fingerprint, (gssize) strlen (fingerprint) + 1);

  return g_strdup (g_hmac_get_string (hmac));
}

gboolean
steward_consent_store_verify (StewardConsentStore *self,
                              const char          *name,
                              const char          *fingerprint,
                              const char          *seal)
{
  g_autofree char *expected = NULL;
  gsize length;
  guint8 difference = 0;

  g_return_val_if_fail (STEWARD_IS_CONSENT_STORE (self), FALSE);

  if (name == NULL || fingerprint == NULL || seal == NULL)
    return FALSE;

  expected = steward_consent_store_seal (self, name, fingerprint);
  if (expected == NULL)
    return FALSE;

  length = strlen (expected);
  if (strlen (seal) != length)
    return FALSE;

  /* Every byte is compared, so that the time taken says nothing about
   * how much of a guessed seal was right. */
  for (gsize i = 0; i < length; i++)
    difference |= (guint8) (expected[i] ^ seal[i]);

  return difference == 0;
}

/* Records */

/**
 * steward_consent_dup_record:
 * @server: the entry the person allowed
 *
 * Copies an entry for the consents file with values that look secret
 * masked: the file records what was allowed, and must not become a second
 * home for keys that the servers file holds in plain text.
 *
 * Returns: (transfer full): the entry as consents.json keeps it
 */
JsonObject *
steward_consent_dup_record (StewardServerConfig *server)
{
  static const char * const maps[] = { "env", "headers" };
  g_autoptr(JsonObject) json = json_object_new ();
  JsonObjectIter top;
  const char *top_name;
  JsonNode *top_member;

  /* json_node_copy() shares objects and arrays, which are the server's and
   * stay as they are; the maps that change are made anew below. */
  json_object_iter_init_ordered (&top, steward_server_config_get_json (server));
  while (json_object_iter_next_ordered (&top, &top_name, &top_member))
    json_object_set_member (json, top_name, json_node_copy (top_member));

  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    {
      JsonNode *map = json_object_get_member (json, maps[i]);
      JsonObject *masked;
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      if (map == NULL || !JSON_NODE_HOLDS_OBJECT (map))
        continue;

      masked = json_object_new ();
      json_object_iter_init_ordered (&iter, json_node_get_object (map));
      while (json_object_iter_next_ordered (&iter, &name, &value))
        {
          const char *text = JSON_NODE_HOLDS_VALUE (value) &&
                             json_node_get_value_type (value) == G_TYPE_STRING
                             ? json_node_get_string (value) : NULL;

          if (text != NULL && steward_secret_looks_secret (name, text))
            {
              g_autofree char *shown = steward_secret_mask (text);

              json_object_set_string_member (masked, name, shown);
            }
          else
            json_object_set_member (masked, name, json_node_copy (value));
        }

      json_object_set_object_member (json, maps[i], masked);
    }

  return g_steal_pointer (&json);
}

/* Consents */

StewardConsent *
steward_consent_new (StewardConsentStore *store,
                     StewardServerConfig *server)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  const char *name;
  StewardConsent *self;

  g_return_val_if_fail (store == NULL || STEWARD_IS_CONSENT_STORE (store), NULL);
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (server), NULL);

  name = steward_server_config_get_name (server);
  self = g_rc_box_new0 (StewardConsent);
  self->fingerprint = steward_server_config_dup_fingerprint (server);
  self->config = steward_consent_dup_record (server);
  self->time = g_date_time_format_iso8601 (now);
  self->server = steward_server_config_new_from_json (name, self->config, NULL);
  if (store != NULL)
    self->seal = steward_consent_store_seal (store, name, self->fingerprint);

  return self;
}

StewardConsent *
steward_consent_new_from_json (const char *name,
                               JsonNode   *node)
{
  JsonObject *object;
  JsonNode *config;
  const char *fingerprint;
  StewardConsent *self;

  g_return_val_if_fail (name != NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  object = json_node_get_object (node);
  fingerprint = json_object_get_string_member_with_default (object, "fingerprint", NULL);
  config = json_object_get_member (object, "config");
  if (fingerprint == NULL || config == NULL || !JSON_NODE_HOLDS_OBJECT (config))
    return NULL;

  self = g_rc_box_new0 (StewardConsent);
  self->fingerprint = g_strdup (fingerprint);
  self->seal = g_strdup (json_object_get_string_member_with_default (object, "seal", NULL));
  self->time = g_strdup (json_object_get_string_member_with_default (object, "time", NULL));
  self->config = json_object_ref (json_node_get_object (config));
  self->server = steward_server_config_new_from_json (name, self->config, NULL);

  return self;
}

JsonObject *
steward_consent_to_json (StewardConsent *self)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "fingerprint", self->fingerprint);
  if (self->seal != NULL)
    json_object_set_string_member (entry, "seal", self->seal);
  json_object_set_object_member (entry, "config", json_object_ref (self->config));
  if (self->time != NULL)
    json_object_set_string_member (entry, "time", self->time);

  return entry;
}

StewardConsent *
steward_consent_ref (StewardConsent *self)
{
  return g_rc_box_acquire (self);
}

static void
steward_consent_clear (StewardConsent *self)
{
  g_clear_pointer (&self->fingerprint, g_free);
  g_clear_pointer (&self->seal, g_free);
  g_clear_pointer (&self->config, json_object_unref);
  g_clear_pointer (&self->time, g_free);
  g_clear_object (&self->server);
}

void
steward_consent_unref (StewardConsent *self)
{
  g_rc_box_release_full (self, (GDestroyNotify) steward_consent_clear);
}

gboolean
steward_consent_equal (StewardConsent *a,
                       StewardConsent *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_str_equal (a->fingerprint, b->fingerprint) && g_strcmp0 (a->seal, b->seal) == 0;
}

gboolean
steward_consent_verifies (StewardConsent      *self,
                          StewardConsentStore *store,
                          const char          *name,
                          const char          *fingerprint)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return store != NULL && steward_consent_store_verify (store, name, fingerprint, self->seal);
}

GHashTable *
steward_consent_table_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                (GDestroyNotify) steward_consent_unref);
}
