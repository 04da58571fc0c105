// SPDX-License-Identifier: GPL-3.0-or-later
//
// The reference side of the tools/call benchmark: the official TypeScript
// SDK's Client with StdioClientTransport (or, with --url, with
// StreamableHTTPClientTransport against a server already listening there),
// pinned in tests/peers, calling `echo` with `await` in a loop, one call
// after the other.
//
//   node bench-ts-client.mjs [--calls N] [--warmup N] [--peers DIR] -- SERVER [ARGS...]
//   node bench-ts-client.mjs [--calls N] [--warmup N] [--peers DIR] --url URL
//
// DIR is the peers' node_modules (default: $STEWARD_PEERS_DIR, else
// ../peers/node_modules beside this file).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The same text the other two clients send.
const MESSAGE = 'Hello from the Steward benchmark';

function usage(problem) {
  process.stderr.write(`bench-ts-client: ${problem}\n` +
    'usage: node bench-ts-client.mjs [--calls N] [--warmup N] [--peers DIR] ' +
    '(-- SERVER [ARGS...] | --url URL)\n');
  process.exit(1);
}

function parseArgs(argv) {
  const options = {
    calls: 10000,
    warmup: 2000,
    peers: process.env.STEWARD_PEERS_DIR ||
      fileURLToPath(new URL('../peers/node_modules', import.meta.url)),
    server: [],
    url: null,
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.server = argv.slice(i + 1);
      break;
    } else if ((arg === '--calls' || arg === '--warmup') && i + 1 < argv.length) {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0)
        usage(`${arg} wants a number, not “${argv[i]}”`);
      options[arg.slice(2)] = value;
    } else if (arg === '--url' && i + 1 < argv.length) {
      options.url = argv[++i];
    } else if (arg === '--peers' && i + 1 < argv.length) {
      options.peers = argv[++i];
    } else {
      usage(`unknown argument “${arg}”`);
    }
  }

  if ((options.server.length === 0) === (options.url === null) || options.calls === 0)
    usage('name one server: -- SERVER [ARGS...] or --url URL');
  return options;
}

// This file lives outside the peers' folder, so a bare specifier would not
// find the SDK: resolve the subpath through the package's own exports map,
// with the "import" condition, as Node would for a file inside it.
async function importPeer(peers, pkg, subpath) {
  const root = join(peers, ...pkg.split('/'));
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const wanted = `./${subpath}`;
  let target = exports[wanted]?.import;

  for (const [pattern, entry] of Object.entries(exports)) {
    if (target)
      break;
    const star = pattern.indexOf('*');
    if (star < 0 || typeof entry?.import !== 'string')
      continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (wanted.startsWith(prefix) && wanted.endsWith(suffix) &&
        wanted.length >= prefix.length + suffix.length) {
      const middle = wanted.slice(prefix.length, wanted.length - suffix.length);
      target = entry.import.replace('*', middle);
    }
  }

  if (!target)
    throw new Error(`${pkg} does not export ${subpath}`);
  return import(pathToFileURL(join(root, target)).href);
}

function peakRssKib() {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) : -1;
}

const options = parseArgs(process.argv.slice(2));
const { Client } = await importPeer(options.peers, '@modelcontextprotocol/sdk', 'client/index.js');
const { StdioClientTransport } =
  await importPeer(options.peers, '@modelcontextprotocol/sdk', 'client/stdio.js');
const { StreamableHTTPClientTransport } =
  await importPeer(options.peers, '@modelcontextprotocol/sdk', 'client/streamableHttp.js');

const transport = options.url !== null
  ? new StreamableHTTPClientTransport(new URL(options.url))
  : new StdioClientTransport({
    command: options.server[0],
    args: options.server.slice(1),
    stderr: 'inherit',
  });
const client = new Client({ name: 'steward-bench-ts', version: '0.1.0' });

await client.connect(transport);
// Steward's client lists the tools when it connects, as a host does; so
// does this one, which also lets the SDK learn the tool's schemas.
await client.listTools();

async function stop() {
  // Ending the session, as Steward's client does when it closes, lets the
  // server drop what it kept for it before the next client runs.
  if (options.url !== null)
    await transport.terminateSession();
  await client.close();
}

const expected = `Echo: ${MESSAGE}`;
let start = 0n;
let cpuStart = null;

for (let n = 0; n < options.warmup + options.calls; n++) {
  if (n === options.warmup) {
    start = process.hrtime.bigint();
    cpuStart = process.cpuUsage();
  }

  const result = await client.callTool({ name: 'echo', arguments: { message: MESSAGE } });

  // Every answer is read and checked, as in the other two clients.
  const text = result.content?.[0]?.text;
  if (result.isError || text !== expected) {
    process.stderr.write(`bench-ts-client: call ${n + 1} answered ${JSON.stringify(result)}\n`);
    await stop();
    process.exit(1);
  }
}

const seconds = Number(process.hrtime.bigint() - start) / 1e9;
// All of the process's threads, the collector's included: they are part of
// what the client costs.
const cpu = process.cpuUsage(cpuStart);
await stop();

process.stdout.write(JSON.stringify({
  client: 'typescript',
  calls: options.calls,
  seconds: Number(seconds.toFixed(6)),
  us_per_call: Number((seconds * 1e6 / options.calls).toFixed(3)),
  peak_rss_kib: peakRssKib(),
  cpu_us_per_call: Number(((cpu.user + cpu.system) / options.calls).toFixed(3)),
}) + '\n');
process.exit(0);
