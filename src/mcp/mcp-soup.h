/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * libsoup, loaded the first time Steward speaks HTTP instead of linked.
 *
 * libsoup brings thirteen libraries with it (Kerberos, SQLite, libpsl,
 * nghttp2, …), and loading and relocating them was a fifth of what a
 * start cost before main() over a bare GTK window, for every start,
 * although most people's servers are local and speak stdio. Code that
 * speaks HTTP includes this header instead of <libsoup/soup.h> and calls
 * libsoup as usual: each function it uses is renamed here, before the
 * library's headers declare it, to a function of mcp-soup.c that loads
 * libsoup on its first call and calls the real one. The headers then
 * declare the renamed functions with libsoup's own prototypes, so a call
 * is checked against them, and the type macros (SOUP_TYPE_SESSION,
 * SOUP_IS_MESSAGE, …) reach the renamed _get_type() functions too.
 *
 * A function that is not listed here is not renamed, and a program that
 * does not link libsoup fails to link where it is called: add it to both
 * files. libsoup's variadic constructors cannot be forwarded; use
 * g_object_new() with the type instead.
 */

#define soup_date_time_new_from_http_string      mcp_soup_date_time_new_from_http_string
#define soup_form_encode_hash                    mcp_soup_form_encode_hash
#define soup_message_add_flags                   mcp_soup_message_add_flags
#define soup_message_get_reason_phrase           mcp_soup_message_get_reason_phrase
#define soup_message_get_request_headers         mcp_soup_message_get_request_headers
#define soup_message_get_response_headers        mcp_soup_message_get_response_headers
#define soup_message_get_status                  mcp_soup_message_get_status
#define soup_message_get_type                    mcp_soup_message_get_type
#define soup_message_get_uri                     mcp_soup_message_get_uri
#define soup_message_headers_get_content_length  mcp_soup_message_headers_get_content_length
#define soup_message_headers_get_content_type    mcp_soup_message_headers_get_content_type
#define soup_message_headers_get_encoding        mcp_soup_message_headers_get_encoding
#define soup_message_headers_get_list            mcp_soup_message_headers_get_list
#define soup_message_headers_get_one             mcp_soup_message_headers_get_one
#define soup_message_headers_replace             mcp_soup_message_headers_replace
#define soup_message_new                         mcp_soup_message_new
#define soup_message_new_from_encoded_form       mcp_soup_message_new_from_encoded_form
#define soup_message_new_from_uri                mcp_soup_message_new_from_uri
#define soup_message_set_request_body_from_bytes mcp_soup_message_set_request_body_from_bytes
#define soup_server_add_handler                  mcp_soup_server_add_handler
#define soup_server_disconnect                   mcp_soup_server_disconnect
#define soup_server_get_type                     mcp_soup_server_get_type
#define soup_server_get_uris                     mcp_soup_server_get_uris
#define soup_server_listen                       mcp_soup_server_listen
#define soup_server_message_get_method           mcp_soup_server_message_get_method
#define soup_server_message_set_response         mcp_soup_server_message_set_response
#define soup_server_message_set_status           mcp_soup_server_message_set_status
#define soup_session_abort                       mcp_soup_session_abort
#define soup_session_get_async_result_message    mcp_soup_session_get_async_result_message
#define soup_session_get_type                    mcp_soup_session_get_type
#define soup_session_send_and_read_async         mcp_soup_session_send_and_read_async
#define soup_session_send_and_read_finish        mcp_soup_session_send_and_read_finish
#define soup_session_send_async                  mcp_soup_session_send_async
#define soup_session_send_finish                 mcp_soup_session_send_finish
#define soup_session_set_proxy_resolver          mcp_soup_session_set_proxy_resolver
#define soup_status_get_phrase                   mcp_soup_status_get_phrase

#include <libsoup/soup.h>
