// SPDX-License-Identifier: GPL-3.0-or-later
//
// Loaded into the HTTP server run-bench starts (node -r), this counts the
// TCP connections the server accepts and keeps the running total in the
// file named by STEWARD_BENCH_CONNECTIONS. run-bench reads it before and
// after each client: the connections a client opened are seen by the
// server, whatever HTTP stack the client uses.
'use strict';

const fs = require('fs');
const net = require('net');

const path = process.env.STEWARD_BENCH_CONNECTIONS;
if (path) {
  let accepted = 0;
  const emit = net.Server.prototype.emit;

  const fd = fs.openSync(path, 'w');

  fs.writeSync(fd, '0'.padStart(12) + '\n', 0);
  net.Server.prototype.emit = function (event, ...args) {
    if (event === 'connection') {
      accepted++;
      // Written at once, in place and at a fixed width, so that the count
      // is right whenever it is read; one pwrite costs the server next to
      // nothing beside the connection itself.
      fs.writeSync(fd, String(accepted).padStart(12) + '\n', 0);
    }
    return emit.call(this, event, ...args);
  };
}
