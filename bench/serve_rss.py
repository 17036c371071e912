#!/usr/bin/env python3
"""Resident memory of `graphcoder serve` on a large index.

Usage: serve_rss.py GRAPHCODER REPO INDEX REQUESTS [EXT] [-- SERVE_FLAGS...]

Starts `GRAPHCODER serve --repo REPO --index INDEX` on a loopback port, waits
until /v1/health says it is ready, sends REQUESTS completions one after the other at
seeded random lines of random files of REPO ending in EXT (default .java),
then prints the request latencies seen by the client, the server's CPU
time (user + system) and minor page faults over the requests, and its
resident set (VmRSS, VmHWM and the anonymous and file-backed parts of
/proc/PID/smaps_rollup), and stops the server.
"""
import glob
import json
import os
import random
import subprocess
import sys
import time
import urllib.request


def main():
    args, flags = sys.argv, []
    if "--" in args:
        i = args.index("--")
        args, flags = args[:i], args[i + 1:]
    binary, root, idx, n = args[1], args[2], args[3], int(args[4])
    ext = args[5] if len(args) > 5 else ".java"
    port = 18431
    p = subprocess.Popen([binary, "serve", "--index", idx, "--http", f"127.0.0.1:{port}", "--repo", root] + flags,
                         stderr=subprocess.DEVNULL)

    def status():
        return dict(l.split(":", 1) for l in open(f"/proc/{p.pid}/status"))

    def cpu():
        f = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
        return int(f[7]), (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

    try:
        t0 = time.time()
        while time.time() - t0 < 120:
            try:
                h = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=5))
                # Until the index is loaded the health answer says
                # "indexing" and carries no entries.
                if "entries" in h:
                    break
            except Exception:
                pass
            time.sleep(0.1)
        print("ready after %.2f s, RSS %s" % (time.time() - t0, status()["VmRSS"].strip()))
        flt0, cpu0 = cpu()
        files = sorted(glob.glob(os.path.join(root, "**", "*" + ext), recursive=True))
        r = random.Random(7)
        lat = []
        while len(lat) < n:
            f = files[r.randrange(len(files))]
            lines = open(f, encoding="utf-8", errors="replace").read().split("\n")
            if len(lines) < 5:
                continue
            k = r.randrange(2, len(lines))
            body = json.dumps({"language": ext.lstrip(".") if ext != ".py" else "python",
                               "segments": {"prefix": "\n".join(lines[:k - 1]) + "\n",
                                            "suffix": "\n".join(lines[k - 1:]),
                                            "filepath": os.path.relpath(f, root)}}).encode()
            t = time.time()
            req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/completions", data=body,
                                         headers={"Content-Type": "application/json"})
            urllib.request.urlopen(req, timeout=60).read()
            lat.append(time.time() - t)
        lat.sort()
        flt1, cpu1 = cpu()
        print("server cpu %.2f s, minor faults %d" % (cpu1 - cpu0, flt1 - flt0))
        st = status()
        print("requests %d, median %.1f ms, p99 %.1f ms; VmRSS %s, VmHWM %s" % (
            len(lat), 1000 * lat[len(lat) // 2], 1000 * lat[int(0.99 * (len(lat) - 1))],
            st["VmRSS"].strip(), st["VmHWM"].strip()))
        print("".join(l for l in open(f"/proc/{p.pid}/smaps_rollup")
                      if l.split(":")[0] in ("Rss", "Anonymous", "Pss_File")), end="")
        # The same once the server has been idle for two seconds.
        time.sleep(2)
        print("idle 2 s: VmRSS %s; " % status()["VmRSS"].strip() +
              ", ".join(l.strip() for l in open(f"/proc/{p.pid}/smaps_rollup")
                        if l.split(":")[0] in ("Anonymous", "Pss_File")))
    finally:
        p.terminate()
        p.wait()


if __name__ == "__main__":
    main()
