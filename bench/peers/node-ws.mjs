// A peer client of streamscope-bench: node's `ws` reading one stream of the replay server, as a
// node user would. Speaks streamscope-bench-client's protocol: the same options, one JSON
// object on the last line of standard output.
//
//   node node-ws.mjs --client NAME --url ws[s]://HOST:PORT/PATH --count N [--parse]
//                    [--ca FILE] [--timeout S]
//
// Counting only, or (--parse) JSON.parse of every message and its event time `E` read (the
// combined stream's `data.E`, the first element's for an array). The window opens at the
// first message: msgs/s = (count - 1) / (last - first); CPU = process.cpuUsage() (user +
// system, all threads) over the same window.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import WebSocket from 'ws';

const wsVersion = createRequire(import.meta.url)('ws/package.json').version;

function option(name, fallback) {
    const i = process.argv.indexOf(name);
    return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const client = option('--client', 'node-ws');
const url = option('--url', '');
const count = Number(option('--count', '1000'));
const timeoutS = Number(option('--timeout', '120'));
const caFile = option('--ca', '');
const parse = process.argv.includes('--parse');

const sizes = new Uint32Array(Math.max(1, count));
let received = 0;
let firstNs = 0n;
let lastNs = 0n;
let cpuFirst = null;
let cpuLast = null;
let eventTimeSum = 0; // keeps the parse from being optimised away
let eventTimes = 0;
let done = false;

function cpuUs(c) {
    return c.user + c.system;
}

function finish(error) {
    if (done)
        return;
    done = true;
    const n = count - 1;
    const seconds = Number(lastNs - firstNs) / 1e9;
    const ok = !error && received >= count && seconds > 0 && n > 0;
    const sorted = Array.from(sizes.subarray(0, received)).sort((a, b) => a - b);
    const result = {
        client,
        count,
        received,
        ok,
        seconds,
        msgs_per_s: ok ? n / seconds : 0,
        cpu_us_per_msg: ok ? (cpuUs(cpuLast) - cpuUs(cpuFirst)) / n : 0,
        size_bytes: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0,
        rss_kib: Math.round(process.memoryUsage().rss / 1024),
        peer: `node ${process.version}, ws ${wsVersion}`,
    };
    if (parse)
        result.event_times = eventTimes;
    if (error)
        result.error = String(error);
    // Exit once the line is written (a pipe is asynchronous in node outside Linux).
    process.stdout.write(JSON.stringify(result) + '\n', () => process.exit(ok ? 0 : 1));
}

const options = { maxPayload: 64 * 1024 * 1024 };
if (caFile)
    options.ca = readFileSync(caFile); // the replay server's certificate, trusted; peer verified
const ws = new WebSocket(url, options);

ws.on('message', (data, isBinary) => {
    if (done)
        return;
    if (received === 0) {
        firstNs = process.hrtime.bigint();
        cpuFirst = process.cpuUsage();
    }
    if (parse && !isBinary) {
        const m = JSON.parse(data.toString());
        const d = m.data ?? m;
        const e = Array.isArray(d) ? d[0]?.E : d.E;
        if (typeof e === 'number') {
            eventTimeSum += e;
            ++eventTimes;
        }
    }
    sizes[received] = data.length;
    if (++received >= count) {
        lastNs = process.hrtime.bigint();
        cpuLast = process.cpuUsage();
        ws.terminate();
        finish();
    }
});
ws.on('error', (e) => finish(e.message));
ws.on('close', () => finish('peer closed'));
setTimeout(() => finish('timeout'), timeoutS * 1000).unref();
