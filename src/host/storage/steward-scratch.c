/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-scratch"

#include "config.h"

#include "steward-scratch.h"

/* A flood of large messages should not leave this much behind. */
#define SCRATCH_KEEP (128 * 1024)
#define SCRATCH_START 1024

/* The same pointer as buffers_key holds, read without a call: every
 * message traced takes and releases buffers several times, and
 * g_private_get() costs a library call each. The GPrivate stays, as what
 * frees the buffers when a thread ends. */
static _Thread_local GString **thread_buffers;

static void
buffers_free (gpointer data)
{
  GString **buffers = data;

  thread_buffers = NULL;

  for (guint i = 0; i < STEWARD_SCRATCH_N_BUFFERS; i++)
    g_string_free (buffers[i], TRUE);
  g_free (buffers);
}

static GPrivate buffers_key = G_PRIVATE_INIT (buffers_free);

static GString **
buffers_get (void)
{
  GString **buffers = thread_buffers;

  if (G_LIKELY (buffers != NULL))
    return buffers;

  buffers = g_private_get (&buffers_key);
  if (buffers == NULL)
    {
      buffers = g_new (GString *, STEWARD_SCRATCH_N_BUFFERS);
      for (guint i = 0; i < STEWARD_SCRATCH_N_BUFFERS; i++)
        buffers[i] = g_string_sized_new (SCRATCH_START);
      g_private_set (&buffers_key, buffers);
    }
  thread_buffers = buffers;

  return buffers;
}

/**
 * steward_scratch_take:
 * @which: the use
 *
 * Returns: (transfer none): this thread's buffer for @which, emptied; it
 *   stays valid until steward_scratch_release() for the same use
 */
GString *
steward_scratch_take (StewardScratch which)
{
  GString *buffer;

  g_return_val_if_fail (which < STEWARD_SCRATCH_N_BUFFERS, NULL);

  buffer = buffers_get ()[which];
  g_string_truncate (buffer, 0);
  return buffer;
}

/**
 * steward_scratch_release:
 * @which: the use
 *
 * Says that the buffer for @which is no longer read, so that one grown
 * by a large message is given back.
 */
void
steward_scratch_release (StewardScratch which)
{
  GString **buffers = buffers_get ();

  g_return_if_fail (which < STEWARD_SCRATCH_N_BUFFERS);

  if (buffers[which]->allocated_len > SCRATCH_KEEP)
    {
      g_string_free (buffers[which], TRUE);
      buffers[which] = g_string_sized_new (SCRATCH_START);
    }
}
