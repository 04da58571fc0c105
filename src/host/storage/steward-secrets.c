/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-secrets"

#include "config.h"

#include <glib/gi18n.h>
#include <libsecret/secret.h>
#include <string.h>

#include "steward-libsecret.h"
#include "steward-redactor.h"
#include "steward-secrets.h"

/**
 * StewardSecrets:
 *
 * The keyring as Steward uses it: one schema, items found by their "id"
 * attribute, values that leave this object only as copies which
 * steward_secret_value_free() wipes. Every call goes through libsecret's
 * asynchronous API, so the main loop never waits on the keyring daemon or on
 * a prompt to unlock it.
 */
struct _StewardSecrets
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (StewardSecrets, steward_secrets, G_TYPE_OBJECT)

G_DEFINE_QUARK (steward-secrets-error-quark, steward_secrets_error)

#define REFERENCE_PREFIX "${keyring:"
#define REFERENCE_SUFFIX "}"
/* Ids are made by g_uuid_string_random() or chosen by callers ("openai");
 * far longer ones are a mistake rather than an id. */
#define MAX_ID_LENGTH 128

/* libsecret is loaded by the call that starts each operation
 * (steward_libsecret_get() fails that call when it cannot be), so the
 * callbacks and steps after it find it loaded. */
static const StewardLibsecret *
loaded_libsecret (void)
{
  const StewardLibsecret *libsecret = steward_libsecret_get (NULL);

  g_assert (libsecret != NULL);
  return libsecret;
}

static const SecretSchema *
get_schema (void)
{
  static const SecretSchema schema = {
    "io.github.stewardmcp.Steward.Secret", SECRET_SCHEMA_NONE,
    {
      { "id", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

static const char *
kind_to_string (StewardSecretKind kind)
{
  switch (kind)
    {
    case STEWARD_SECRET_KIND_PROVIDER_KEY:
      return "provider-key";
    case STEWARD_SECRET_KIND_SERVER_ENV:
      return "server-env";
    case STEWARD_SECRET_KIND_SERVER_HEADER:
      return "server-header";
    case STEWARD_SECRET_KIND_CONSENT_KEY:
      return "consent-key";
    case STEWARD_SECRET_KIND_SIGN_IN:
      return "sign-in";
    case STEWARD_SECRET_KIND_CLIENT_SECRET:
      return "client-secret";
    default:
      g_return_val_if_reached ("provider-key");
    }
}

static gboolean
is_id_char (char c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '.';
}

static gboolean
is_valid_id_len (const char *id,
                 gsize       length)
{
  if (length == 0 || length > MAX_ID_LENGTH)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    if (!is_id_char (id[i]))
      return FALSE;

  return TRUE;
}

static gboolean
is_valid_id (const char *id)
{
  return id != NULL && is_valid_id_len (id, strlen (id));
}

/* Turns what libsecret reports into an error a person can act on: a
 * missing or unreachable keyring service is something they can fix (start
 * or unlock it), anything else is reported as it came. */
static GError *
map_error (const GError *error,
           const char   *doing)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);

  if (error->domain == G_DBUS_ERROR ||
      error->domain == G_IO_ERROR ||
      g_error_matches (error, loaded_libsecret ()->error_get_quark (), SECRET_ERROR_IS_LOCKED))
    return g_error_new (STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_UNAVAILABLE,
                        _("The system keyring is not available: %s"), error->message);

  /* Translators: the first placeholder says what was being done, such as
   * "storing a secret"; the second is the keyring's own message. */
  return g_error_new (STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_FAILED,
                      _("The keyring failed while %s: %s"), doing, error->message);
}

static void
wipe (char  *data,
      gsize  length)
{
  /* A volatile pointer, so that the compiler cannot drop the stores as
   * writes to memory that is about to be freed. */
  volatile char *p = data;

  for (gsize i = 0; i < length; i++)
    p[i] = '\0';
}

static void
steward_secrets_class_init (StewardSecretsClass *klass)
{
}

static void
steward_secrets_init (StewardSecrets *self)
{
}

StewardSecrets *
steward_secrets_new (void)
{
  return g_object_new (STEWARD_TYPE_SECRETS, NULL);
}

/* Storing */

typedef struct {
  char              *id;
  StewardSecretKind  kind;
  char              *label;
  char              *value;
} StoreData;

static void
store_data_free (StoreData *data)
{
  g_clear_pointer (&data->id, g_free);
  g_clear_pointer (&data->label, g_free);
  g_clear_pointer (&data->value, steward_secret_value_free);
  g_free (data);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StoreData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!loaded_libsecret ()->password_store_finish (result, &error))
    {
      if (error != NULL)
        /* Translators: completes "The keyring failed while %s: %s". */
        g_task_return_error (task, map_error (error, _("storing a secret")));
      else
        g_task_return_new_error (task, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_UNAVAILABLE,
                                 _("The system keyring is not available: it stayed locked"));
      return;
    }

  g_task_return_pointer (task, g_strdup (data->id), g_free);
}

static void
store_now (GTask *task)
{
  StoreData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  loaded_libsecret ()->password_store (get_schema (), SECRET_COLLECTION_DEFAULT, data->label,
                                       data->value, cancellable, store_cb, task,
                                       "id", data->id,
                                       "kind", kind_to_string (data->kind),
                                       NULL);
}

static void
store_cleared_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;

  if (!loaded_libsecret ()->password_clear_finish (result, &error) && error != NULL)
    {
      /* Translators: completes "The keyring failed while %s: %s". */
      g_task_return_error (task, map_error (error, _("replacing a secret")));
      g_object_unref (task);
      return;
    }

  store_now (task);
}

/**
 * steward_secrets_store_async:
 * @id: (nullable): the secret's id, or %NULL for a new one
 * @kind: what the secret is for
 * @label: (nullable): what the keyring shows, such as "Steward: API key for
 *   OpenAI"
 * @value: the secret
 *
 * Stores @value in the default collection, replacing the item that had
 * this id, if any.
 */
void
steward_secrets_store_async (StewardSecrets      *self,
                             const char          *id,
                             StewardSecretKind    kind,
                             const char          *label,
                             const char          *value,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  StoreData *data;
  const StewardLibsecret *libsecret;
  GError *error = NULL;

  g_return_if_fail (STEWARD_IS_SECRETS (self));
  g_return_if_fail (id == NULL || is_valid_id (id));
  g_return_if_fail (value != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_secrets_store_async);

  data = g_new0 (StoreData, 1);
  data->id = id ? g_strdup (id) : g_uuid_string_random ();
  data->kind = kind;
  data->label = g_strdup (label ? label : _("Steward secret"));
  data->value = g_strdup (value);
  g_task_set_task_data (task, data, (GDestroyNotify) store_data_free);

  libsecret = steward_libsecret_get (&error);
  if (libsecret == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  if (id == NULL)
    {
      store_now (task);
      return;
    }

  /* The old item goes first, whatever its kind, so that an id names one
   * item; replacing in place also trips gnome-keyring into warning about
   * an object it registers twice. */
  libsecret->password_clear (get_schema (), cancellable, store_cleared_cb, task,
                             "id", id,
                             NULL);
}

/**
 * steward_secrets_store_finish:
 *
 * Returns: (transfer full) (nullable): the id of the stored secret
 */
char *
steward_secrets_store_finish (StewardSecrets  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (STEWARD_IS_SECRETS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_secrets_store_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Looking up */

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *password;
  char *copy;

  password = loaded_libsecret ()->password_lookup_finish (result, &error);
  if (error != NULL)
    {
      /* Translators: completes "The keyring failed while %s: %s". */
      g_task_return_error (task, map_error (error, _("looking up a secret")));
      return;
    }

  if (password == NULL)
    {
      g_task_return_new_error (task, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND,
                               _("No secret with the id `%s` is in the keyring"),
                               (const char *) g_task_get_task_data (task));
      return;
    }

  /* libsecret's buffer is its own to wipe; ours is freed by
   * steward_secret_value_free(), which wipes it too. */
  copy = g_strdup (password);
  loaded_libsecret ()->password_free (password);

  /* From here on the value may reach a server, which may echo it: every
   * text Steward shows or writes redacts it. */
  steward_redact_add_secret (copy);

  g_task_return_pointer (task, copy, (GDestroyNotify) steward_secret_value_free);
}

void
steward_secrets_lookup_async (StewardSecrets      *self,
                              const char          *id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const StewardLibsecret *libsecret;
  GError *error = NULL;

  g_return_if_fail (STEWARD_IS_SECRETS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_secrets_lookup_async);
  g_task_set_task_data (task, g_strdup (id), g_free);

  libsecret = steward_libsecret_get (&error);
  if (libsecret == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  libsecret->password_lookup (get_schema (), cancellable, lookup_cb, g_steal_pointer (&task),
                              "id", id,
                              NULL);
}

/**
 * steward_secrets_lookup_finish:
 *
 * Returns: (transfer full) (nullable): the value, to be released with
 *   steward_secret_value_free(); %NULL with
 *   %STEWARD_SECRETS_ERROR_NOT_FOUND when no secret has the id
 */
char *
steward_secrets_lookup_finish (StewardSecrets  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (STEWARD_IS_SECRETS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_secrets_lookup_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Clearing */

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* FALSE without an error only says there was nothing to remove. */
  if (!loaded_libsecret ()->password_clear_finish (result, &error) && error != NULL)
    {
      /* Translators: completes "The keyring failed while %s: %s". */
      g_task_return_error (task, map_error (error, _("removing a secret")));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * steward_secrets_clear_async:
 * @id: the secret's id
 *
 * Removes the secret. Removing an id the keyring does not hold succeeds:
 * afterwards, either way, no secret has that id.
 */
void
steward_secrets_clear_async (StewardSecrets      *self,
                             const char          *id,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const StewardLibsecret *libsecret;
  GError *error = NULL;

  g_return_if_fail (STEWARD_IS_SECRETS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_secrets_clear_async);

  libsecret = steward_libsecret_get (&error);
  if (libsecret == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  libsecret->password_clear (get_schema (), cancellable, clear_cb, g_steal_pointer (&task),
                             "id", id,
                             NULL);
}

gboolean
steward_secrets_clear_finish (StewardSecrets  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (STEWARD_IS_SECRETS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_secrets_clear_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Resolving */

typedef struct {
  GHashTable *table;
  /* Each id referred to, once, with the first entry (by name) that refers
   * to it, for the error message. */
  GPtrArray  *ids;
  GPtrArray  *owners;
  guint       next;
  /* id → value, wiped when freed. */
  GHashTable *values;
} ResolveData;

static void
resolve_data_free (ResolveData *data)
{
  g_clear_pointer (&data->table, g_hash_table_unref);
  g_clear_pointer (&data->ids, g_ptr_array_unref);
  g_clear_pointer (&data->owners, g_ptr_array_unref);
  g_clear_pointer (&data->values, g_hash_table_unref);
  g_free (data);
}

/* Calls @func for each well-formed reference in @value, with the offset of
 * its "${" and the length of the whole reference. */
static void
foreach_reference (const char *value,
                   void      (*func) (const char *value,
                                      gsize       start,
                                      gsize       length,
                                      const char *id,
                                      gsize       id_length,
                                      gpointer    user_data),
                   gpointer    user_data)
{
  const char *p = value;

  while ((p = strstr (p, REFERENCE_PREFIX)) != NULL)
    {
      const char *id = p + strlen (REFERENCE_PREFIX);
      const char *end = strchr (id, '}');

      if (end != NULL && is_valid_id_len (id, end - id))
        {
          func (value, p - value, end + 1 - p, id, end - id, user_data);
          p = end + 1;
        }
      else
        p = id;
    }
}

typedef struct {
  ResolveData *data;
  const char  *owner;
} CollectClosure;

static void
collect_id (const char *value,
            gsize       start,
            gsize       length,
            const char *id,
            gsize       id_length,
            gpointer    user_data)
{
  CollectClosure *closure = user_data;
  g_autofree char *copy = g_strndup (id, id_length);
  guint index;

  if (g_ptr_array_find_with_equal_func (closure->data->ids, copy, g_str_equal, &index))
    return;

  g_ptr_array_add (closure->data->ids, g_steal_pointer (&copy));
  g_ptr_array_add (closure->data->owners, g_strdup (closure->owner));
}

typedef struct {
  GHashTable *values;
  gsize       length;
  char       *out;
  gsize       copied_to;
} SubstituteClosure;

/* The value of the reference @id; every reference was looked up before the
 * substitution starts. */
static const char *
closure_secret (SubstituteClosure *closure,
                const char        *id,
                gsize              id_length)
{
  g_autofree char *key = g_strndup (id, id_length);

  return g_hash_table_lookup (closure->values, key);
}

static void
measure_reference (const char *value,
                   gsize       start,
                   gsize       length,
                   const char *id,
                   gsize       id_length,
                   gpointer    user_data)
{
  SubstituteClosure *closure = user_data;
  const char *secret = closure_secret (closure, id, id_length);

  closure->length += strlen (secret) - length;
}

static void
copy_reference (const char *value,
                gsize       start,
                gsize       length,
                const char *id,
                gsize       id_length,
                gpointer    user_data)
{
  SubstituteClosure *closure = user_data;
  const char *secret = closure_secret (closure, id, id_length);
  gsize secret_length = strlen (secret);

  memcpy (closure->out, value + closure->copied_to, start - closure->copied_to);
  closure->out += start - closure->copied_to;
  memcpy (closure->out, secret, secret_length);
  closure->out += secret_length;
  closure->copied_to = start + length;
}

/* The value with its references replaced, in a buffer of exactly the right
 * size: a growing buffer would leave copies of the secret behind in the
 * memory it gave up. */
static char *
substitute (const char *value,
            GHashTable *values)
{
  SubstituteClosure closure = { values, strlen (value), NULL, 0 };
  char *result;
  gsize rest;

  foreach_reference (value, measure_reference, &closure);
  result = g_malloc (closure.length + 1);
  closure.out = result;
  foreach_reference (value, copy_reference, &closure);

  rest = strlen (value + closure.copied_to);
  memcpy (closure.out, value + closure.copied_to, rest);
  closure.out[rest] = '\0';

  return result;
}

static void resolve_next (GTask *task);

static void
resolve_lookup_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ResolveData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  const char *id = g_ptr_array_index (data->ids, data->next);
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  if (value == NULL)
    {
      if (g_error_matches (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND))
        g_task_return_new_error (task, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND,
                                 /* Translators: the first placeholder is the name of an
                                  * environment variable or header, the second an id. */
                                 _("`%s` refers to the keyring secret `%s`, which is not in "
                                   "the keyring; store it again or change `%s`"),
                                 (const char *) g_ptr_array_index (data->owners, data->next),
                                 id,
                                 (const char *) g_ptr_array_index (data->owners, data->next));
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_hash_table_insert (data->values, g_strdup (id), value);
  data->next++;
  resolve_next (g_steal_pointer (&task));
}

static void
resolve_next (GTask *task)
{
  ResolveData *data = g_task_get_task_data (task);
  g_autoptr(GHashTable) resolved = NULL;
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  if (data->next < data->ids->len)
    {
      steward_secrets_lookup_async (g_task_get_source_object (task),
                                    g_ptr_array_index (data->ids, data->next),
                                    g_task_get_cancellable (task),
                                    resolve_lookup_cb, task);
      return;
    }

  resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                    (GDestroyNotify) steward_secret_value_free);
  g_hash_table_iter_init (&iter, data->table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (resolved, g_strdup (key), substitute (value, data->values));

  g_task_return_pointer (task, g_steal_pointer (&resolved), (GDestroyNotify) g_hash_table_unref);
  g_object_unref (task);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * steward_secrets_resolve_async:
 * @table: (element-type utf8 utf8): environment variables or headers
 *
 * Looks up every "${keyring:ID}" in the values of @table, whether it is the
 * whole value or part of one ("Bearer ${keyring:ID}"), each id once. A
 * reference to a secret the keyring does not hold fails with
 * %STEWARD_SECRETS_ERROR_NOT_FOUND naming the id and the entry.
 */
void
steward_secrets_resolve_async (StewardSecrets      *self,
                               GHashTable          *table,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree const char **keys = NULL;
  ResolveData *data;
  guint n_keys;

  g_return_if_fail (STEWARD_IS_SECRETS (self));
  g_return_if_fail (table != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_secrets_resolve_async);

  data = g_new0 (ResolveData, 1);
  data->table = g_hash_table_ref (table);
  data->ids = g_ptr_array_new_with_free_func (g_free);
  data->owners = g_ptr_array_new_with_free_func (g_free);
  data->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) steward_secret_value_free);
  g_task_set_task_data (task, data, (GDestroyNotify) resolve_data_free);

  /* In name order, so that an error names the same entry every time. */
  keys = (const char **) g_hash_table_get_keys_as_array (table, &n_keys);
  qsort (keys, n_keys, sizeof (char *), compare_strings);
  for (guint i = 0; i < n_keys; i++)
    {
      CollectClosure closure = { data, keys[i] };

      foreach_reference (g_hash_table_lookup (table, keys[i]), collect_id, &closure);
    }

  resolve_next (g_steal_pointer (&task));
}

/**
 * steward_secrets_resolve_finish:
 *
 * Returns: (transfer full) (element-type utf8 utf8) (nullable): a new table
 *   with the references replaced by the secrets; its values are wiped when
 *   it is destroyed
 */
GHashTable *
steward_secrets_resolve_finish (StewardSecrets  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (STEWARD_IS_SECRETS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_secrets_resolve_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* References */

/**
 * steward_secret_reference_new:
 * @id: a secret's id
 *
 * Returns: (transfer full): "${keyring:ID}"
 */
char *
steward_secret_reference_new (const char *id)
{
  g_return_val_if_fail (is_valid_id (id), NULL);

  return g_strconcat (REFERENCE_PREFIX, id, REFERENCE_SUFFIX, NULL);
}

/**
 * steward_secret_reference_get_id:
 * @value: (nullable): a value from the servers file
 *
 * Returns: (transfer full) (nullable): the id when @value is exactly one
 *   reference, %NULL for anything else
 */
char *
steward_secret_reference_get_id (const char *value)
{
  gsize length;
  gsize prefix = strlen (REFERENCE_PREFIX);

  if (value == NULL || !g_str_has_prefix (value, REFERENCE_PREFIX) ||
      !g_str_has_suffix (value, REFERENCE_SUFFIX))
    return NULL;

  length = strlen (value);
  if (length < prefix + 1 || !is_valid_id_len (value + prefix, length - prefix - 1))
    return NULL;

  return g_strndup (value + prefix, length - prefix - 1);
}

/* What secrets look like */

static gboolean
is_number (const char *value)
{
  char *end = NULL;

  g_ascii_strtod (value, &end);
  return end != value && *end == '\0' && !g_ascii_isspace (value[0]);
}

static gboolean
is_boolean_word (const char *value)
{
  static const char * const words[] = { "true", "false", "yes", "no", "on", "off" };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_ascii_strcasecmp (value, words[i]) == 0)
      return TRUE;

  return FALSE;
}

static gboolean
is_plain_path (const char *value)
{
  if (!(value[0] == '/' || g_str_has_prefix (value, "~/") || g_str_has_prefix (value, "./") ||
        g_str_has_prefix (value, "../")))
    return FALSE;

  /* A path has more than one component or a readable name; a slash
   * followed by one long random-looking run is not one. */
  for (const char *p = value; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || *p == ':' || *p == '@')
      return FALSE;

  return TRUE;
}

static gboolean
name_looks_secret (const char *name)
{
  static const char * const words[] = {
    "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL", "COOKIE",
  };
  g_autofree char *upper = g_ascii_strup (name, -1);

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (upper, words[i]) != NULL)
      return TRUE;

  return FALSE;
}

/* Whether @value starts with @prefix followed by at least @min_rest
 * characters of a key. */
static gboolean
has_key_prefix (const char *value,
                const char *prefix,
                gsize       min_rest)
{
  gsize n = 0;

  if (!g_str_has_prefix (value, prefix))
    return FALSE;

  for (const char *p = value + strlen (prefix); *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
        return FALSE;
      n++;
    }

  return n >= min_rest;
}

static gboolean
has_long_random_run (const char *value)
{
  gsize run = 0;
  gboolean digit = FALSE;
  gboolean alpha = FALSE;

  for (const char *p = value; ; p++)
    {
      if (*p != '\0' &&
          (g_ascii_isalnum (*p) || *p == '+' || *p == '=' || *p == '_' || *p == '-' ||
           *p == '.'))
        {
          run++;
          digit |= g_ascii_isdigit (*p);
          alpha |= g_ascii_isalpha (*p);
          continue;
        }

      /* Words joined by dashes have no digits; keys and hashes do. A slash
       * ends a run, so that the parts of a path are counted apart. */
      if (run >= 24 && digit && alpha)
        return TRUE;

      if (*p == '\0')
        return FALSE;

      run = 0;
      digit = alpha = FALSE;
    }
}

static gboolean
url_has_credentials (GUri *uri)
{
  const char *query = g_uri_get_query (uri);
  g_autoptr(GHashTable) params = NULL;
  GHashTableIter iter;
  gpointer key;

  if (g_uri_get_password (uri) != NULL ||
      (g_uri_get_user (uri) != NULL && g_uri_get_user (uri)[0] != '\0' &&
       has_long_random_run (g_uri_get_user (uri))))
    return TRUE;

  if (query == NULL)
    return FALSE;

  params = g_uri_parse_params (query, -1, "&", G_URI_PARAMS_NONE, NULL);
  if (params == NULL)
    return TRUE;

  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (name_looks_secret (key))
      return TRUE;

  return FALSE;
}

static gboolean
value_looks_like_key (const char *value)
{
  static const struct {
    const char *prefix;
    gsize       min_rest;
  } prefixes[] = {
    { "sk-", 16 }, { "ghp_", 16 }, { "gho_", 16 }, { "ghu_", 16 }, { "ghs_", 16 },
    { "ghr_", 16 }, { "github_pat_", 16 }, { "xoxb-", 10 }, { "xoxp-", 10 },
    { "xoxa-", 10 }, { "xoxs-", 10 }, { "glpat-", 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (has_key_prefix (value, prefixes[i].prefix, prefixes[i].min_rest))
      return TRUE;

  /* AWS access key ids: four letters and sixteen capitals or digits. */
  if ((g_str_has_prefix (value, "AKIA") || g_str_has_prefix (value, "ASIA")) &&
      strlen (value) == 20)
    {
      gboolean shaped = TRUE;

      for (const char *p = value + 4; *p != '\0'; p++)
        shaped &= g_ascii_isupper (*p) || g_ascii_isdigit (*p);
      if (shaped)
        return TRUE;
    }

  if ((g_ascii_strncasecmp (value, "Bearer ", 7) == 0 ||
       g_ascii_strncasecmp (value, "Basic ", 6) == 0 ||
       g_ascii_strncasecmp (value, "Token ", 6) == 0) &&
      strlen (strchr (value, ' ') + 1) >= 8)
    return TRUE;

  return has_long_random_run (value);
}

/**
 * steward_secret_looks_secret:
 * @name: (nullable): an environment variable's or a header's name
 * @value: (nullable): its value
 *
 * Guesses whether a value should live in the keyring: because of its name
 * (containing KEY, TOKEN, SECRET, PASSWORD, PASSWD, AUTH, CREDENTIAL or
 * COOKIE, in any case) or because of its shape (sk-…, ghp_…, xoxb-…,
 * AKIA…, "Bearer …", long runs of base64 or hex). Empty values, plain
 * paths, URLs without credentials, numbers and true/false are never
 * secrets, whatever their name; references to the keyring are secrets
 * already stored.
 */
gboolean
steward_secret_looks_secret (const char *name,
                             const char *value)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *id = NULL;

  if (value != NULL)
    {
      id = steward_secret_reference_get_id (value);
      if (value[0] == '\0' || id != NULL || is_number (value) || is_boolean_word (value) ||
          is_plain_path (value))
        return FALSE;

      uri = g_uri_parse (value, G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED_QUERY, NULL);
      if (uri != NULL && g_uri_get_host (uri) != NULL)
        return url_has_credentials (uri);
    }

  if (name != NULL && name_looks_secret (name))
    return TRUE;

  return value != NULL && value_looks_like_key (value);
}

/**
 * steward_secret_mask:
 * @value: (nullable): a secret
 *
 * Returns: (transfer full): the value as it may be shown: a prefix that
 *   says what kind of key it is ("sk-", "ghp_", "Bearer "), an ellipsis and
 *   at most the last four characters, or only dots when the value is too
 *   short to show any of it
 */
char *
steward_secret_mask (const char *value)
{
  static const char * const prefixes[] = {
    "sk-ant-", "sk-proj-", "sk-", "github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
    "xoxb-", "xoxp-", "xoxa-", "xoxs-", "glpat-", "AKIA", "ASIA",
  };
  static const char * const schemes[] = { "Bearer ", "Basic ", "Token " };
  const char *prefix = "";
  gsize length;

  if (value == NULL)
    return g_strdup ("");

  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    if (g_ascii_strncasecmp (value, schemes[i], strlen (schemes[i])) == 0)
      {
        g_autofree char *rest = steward_secret_mask (value + strlen (schemes[i]));

        return g_strdup_printf ("%.*s%s", (int) strlen (schemes[i]), value, rest);
      }

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (value, prefixes[i]))
      {
        prefix = prefixes[i];
        break;
      }

  /* Four characters of a short value would be much of it; show none. */
  length = g_utf8_strlen (value + strlen (prefix), -1);
  if (length < 12)
    return g_strdup_printf ("%s••••••••", prefix);

  return g_strdup_printf ("%s…%s", prefix,
                          g_utf8_offset_to_pointer (value, g_utf8_strlen (value, -1) - 4));
}

/**
 * steward_secret_value_free:
 * @value: (nullable): a value from steward_secrets_lookup_finish() or a
 *   table from steward_secrets_resolve_finish()
 *
 * Overwrites the value with zeros, then frees it.
 */
void
steward_secret_value_free (char *value)
{
  if (value == NULL)
    return;

  wipe (value, strlen (value));
  g_free (value);
}
