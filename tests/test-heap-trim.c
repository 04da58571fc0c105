/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-heap-trim"

#include "config.h"

#include "steward-heap-trim.h"
#include "test-host-fixture.h"
#include "test-http-peer.h"

/* The heap is trimmed once each time the servers of a list that were
 * starting have all settled, and never while none has started. Servers
 * whose URL nothing answers go from Starting to Failed by themselves. */

#define DEADLINE_S 30

static StewardServer *
new_refused_server (StewardHost *host,
                    const char  *name)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", test_free_port ());
  g_autoptr(StewardServerConfig) config = NULL;

  config = steward_server_config_new_remote (name, url,
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP, NULL);
  test_record_consent (steward_host_get_config (host), config);
  return steward_server_new (steward_host_get_server_context (host), config);
}

static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_settled (void)
{
  g_autofree char *top = test_make_top ("test-heap-trim");
  StewardHost *host = test_host_new_in (top);
  g_autoptr(GListStore) servers = g_list_store_new (STEWARD_TYPE_SERVER);
  g_autoptr(StewardServer) first = new_refused_server (host, "first");
  g_autoptr(StewardServer) second = new_refused_server (host, "second");
  StewardHeapTrim *trim = steward_heap_trim_new (G_LIST_MODEL (servers));

  /* Listed but never started: nothing to trim after. */
  g_list_store_append (servers, first);
  g_list_store_append (servers, second);
  drain ();
  g_assert_cmpuint (steward_heap_trim_get_n_trims (trim), ==, 0);

  /* Both start; one trim once both have failed, not one each. */
  steward_server_start (first);
  steward_server_start (second);
  test_loop_until (steward_server_get_status (first) == STEWARD_SERVER_STATUS_FAILED &&
                   steward_server_get_status (second) == STEWARD_SERVER_STATUS_FAILED,
                   DEADLINE_S);
  test_loop_until (steward_heap_trim_get_n_trims (trim) > 0, DEADLINE_S);
  drain ();
  g_assert_cmpuint (steward_heap_trim_get_n_trims (trim), ==, 1);

  /* A server taken off the list is no longer watched. */
  g_list_store_remove (servers, 1);
  steward_server_start (second);
  test_loop_until (steward_server_get_status (second) == STEWARD_SERVER_STATUS_FAILED,
                   DEADLINE_S);
  drain ();
  g_assert_cmpuint (steward_heap_trim_get_n_trims (trim), ==, 1);

  /* One started again: another trim when it settles. */
  steward_server_start (first);
  test_loop_until (steward_heap_trim_get_n_trims (trim) == 2, DEADLINE_S);
  g_assert_cmpint (steward_server_get_status (first), ==, STEWARD_SERVER_STATUS_FAILED);

  g_assert_finalize_object (trim);
  g_list_store_remove_all (servers);
  g_assert_finalize_object (g_steal_pointer (&first));
  g_assert_finalize_object (g_steal_pointer (&second));
  drain ();
  g_assert_finalize_object (host);
  test_remove_tree (top);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/heap-trim/settled", test_settled);

  return g_test_run ();
}
