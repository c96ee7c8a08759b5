#!/usr/bin/python3
"""A peer client of streamscope-bench: Python's `websockets` reading one stream of the replay
server, as a Python user would (asyncio, `async for message in websocket`). Speaks
streamscope-bench-client's protocol: the same options, one JSON object on the last line of
standard output. Run with Debian's /usr/bin/python3 and python3-websockets.

  py-websockets.py --client NAME --url ws[s]://HOST:PORT/PATH --count N [--parse]
                   [--ca FILE] [--timeout S]

Counting only, or (--parse) json.loads of every message and its event time `E` read (the
combined stream's `data.E`, the first element's for an array). The window opens at the first
message: msgs/s = (count - 1) / (last - first); CPU = user + system time of the process (all
threads) over the same window.
"""
import argparse
import asyncio
import json
import resource
import ssl
import sys
import time

import websockets


def cpu_us():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return (r.ru_utime + r.ru_stime) * 1e6


async def read(args, state):
    context = None
    if args.url.startswith("wss://"):
        # The replay server's certificate trusted; the peer and its name are verified.
        context = ssl.create_default_context(cafile=args.ca or None)
    async with websockets.connect(args.url, ssl=context, max_size=64 * 1024 * 1024,
                                  compression=None) as ws:
        parse = args.parse
        count = args.count
        sizes = state["sizes"]
        async for message in ws:
            if state["received"] == 0:
                state["first_ns"] = time.monotonic_ns()
                state["cpu_first"] = cpu_us()
            if parse and isinstance(message, str):
                m = json.loads(message)
                d = m.get("data", m) if isinstance(m, dict) else m
                e = d[0].get("E") if isinstance(d, list) and d else (d.get("E") if isinstance(d, dict) else None)
                if isinstance(e, int):
                    state["event_time_sum"] += e
                    state["event_times"] += 1
            sizes.append(len(message))
            state["received"] += 1
            if state["received"] >= count:
                state["last_ns"] = time.monotonic_ns()
                state["cpu_last"] = cpu_us()
                return


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--client", default="py-websockets")
    p.add_argument("--url", required=True)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--ca", default="")
    p.add_argument("--parse", action="store_true")
    args = p.parse_args()
    state = {"received": 0, "sizes": [], "first_ns": 0, "last_ns": 0, "cpu_first": 0.0, "cpu_last": 0.0,
             "event_time_sum": 0, "event_times": 0}
    error = None
    try:
        asyncio.run(asyncio.wait_for(read(args, state), args.timeout))
    except asyncio.TimeoutError:
        error = "timeout"
    except Exception as e:  # reported in the result line, as the other clients do
        error = "%s: %s" % (type(e).__name__, e)
    n = args.count - 1
    seconds = (state["last_ns"] - state["first_ns"]) / 1e9
    ok = error is None and state["received"] >= args.count and seconds > 0 and n > 0
    sizes = sorted(state["sizes"])
    result = {
        "client": args.client,
        "count": args.count,
        "received": state["received"],
        "ok": ok,
        "seconds": seconds,
        "msgs_per_s": n / seconds if ok else 0.0,
        "cpu_us_per_msg": (state["cpu_last"] - state["cpu_first"]) / n if ok else 0.0,
        "size_bytes": sizes[len(sizes) // 2] if sizes else 0,
        "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "peer": "python %d.%d.%d, websockets %s" % (sys.version_info[:3] + (websockets.__version__,)),
    }
    if args.parse:
        result["event_times"] = state["event_times"]
    if error:
        result["error"] = error
    print(json.dumps(result), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
