#!/usr/bin/env bash
# Boots a fresh Debian 12 root under systemd-nspawn with the .deb installed and runs the
# agent as the service it ships: streamscope-agent@demo.service with all its hardening
# (seccomp filter, no capabilities, user streamscope, MemoryDenyWriteExecute...), fed by a
# streamscope-replay service inside the container. Checks that it starts, serves /metrics
# with live streams, that `systemctl reload` adds a stream while the others keep their
# connection and count on (same main PID, no restart, no reconnect), and that it stops with
# status 0. A manual check (docs/operations.md): it needs root, systemd-nspawn
# (systemd-container), mmdebstrap and Debian's package archive; about a minute.
#
# Usage: scripts/check-agent-service.sh BUILD_DIR
#   BUILD_DIR  a configured build tree; the .deb is made there with cpack, and its
#              streamscope-replay is copied into the container.
# Exit status: 0 when every check passed, 1 otherwise.
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build_dir=$(cd "$1" && pwd)
fail() { printf 'check-agent-service: FAIL: %s\n' "$*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (mmdebstrap, systemd-nspawn)"
for tool in mmdebstrap systemd-nspawn cpack; do
    command -v "$tool" >/dev/null || fail "$tool is not installed"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --build "$build_dir" --target streamscope streamscope-replay -j 2 >/dev/null
(cd "$build_dir" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/pkg/streamscope_*.deb)

echo "== a Debian 12 root with systemd and $(basename "$deb")"
mmdebstrap --quiet --variant=apt --dpkgopt=force-unsafe-io --aptopt='Acquire::Languages "none"' \
    --include=systemd,systemd-sysv \
    --customize-hook="copy-in $deb /tmp" \
    --customize-hook="chroot \"\$1\" apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb") >/dev/null" \
    bookworm "$work/root.tar" || fail "mmdebstrap"
root="$work/root"
mkdir "$root"
tar -C "$root" -xf "$work/root.tar"
cp "$build_dir/replay/streamscope-replay" "$root/usr/local/bin/"

cat >"$root/etc/streamscope/demo.json" <<'END'
{"version": 1, "streams": [
  {"name": "trades", "venue": "binance", "url": "ws://127.0.0.1:9000/small_aggtrade?rate=200&loop=1"},
  {"name": "depth", "venue": "binance", "url": "ws://127.0.0.1:9000/xlarge_depth_diff?rate=20&loop=1"}]}
END
printf 'STREAMSCOPE_METRICS_PORT=9464\n' >"$root/etc/streamscope/demo.env"
chroot "$root" sh -c 'chgrp streamscope /etc/streamscope/demo.*; chmod 0640 /etc/streamscope/demo.*'

cat >"$root/etc/systemd/system/replay.service" <<'END'
[Unit]
Description=Replay source for the agent
Before=streamscope-agent@demo.service
[Service]
ExecStart=/usr/local/bin/streamscope-replay --port 9000 --scenario small_aggtrade
END
cat >"$root/usr/local/bin/agent-check.sh" <<'END'
#!/bin/bash
# Runs inside the container; its output is read by check-agent-service.sh.
exec >/agent-check.log 2>&1
metric() {
    exec 3<>/dev/tcp/127.0.0.1/9464
    printf 'GET /metrics HTTP/1.0\r\nAccept: text/plain;version=0.0.4\r\n\r\n' >&3
    grep -F "$1" <&3 | awk '{print $NF}'
    exec 3<&-
}
unit=streamscope-agent@demo.service
sleep 5
echo "active $(systemctl is-active $unit)"
pid=$(systemctl show -p MainPID --value $unit)
grep -E '^(Uid|CapEff|NoNewPrivs|Seccomp):' "/proc/$pid/status" | tr -s '\t' ' '
echo "user $(stat -c %U "/proc/$pid")"
echo "live trades $(metric 'streamscope_stream_state{stream="trades",streamscope_stream_state="live"}')"
before=$(metric 'streamscope_messages_total{stream="trades"}')
sed -i 's#^  {"name": "depth"#  {"name": "more", "venue": "binance", "url": "ws://127.0.0.1:9000/medium_kline?rate=50\&loop=1"},\n  {"name": "depth"#' \
    /etc/streamscope/demo.json
systemctl reload $unit && echo "reload ok"
sleep 3
after=$(metric 'streamscope_messages_total{stream="trades"}')
[[ $after -gt $before ]] && echo "trades counted on"
echo "more $(metric 'streamscope_messages_total{stream="more"}')"
echo "trades reconnects $(metric 'streamscope_reconnects_total{stream="trades"}')"
[[ $(systemctl show -p MainPID --value $unit) == "$pid" ]] && echo "same main pid"
echo "restarts $(systemctl show -p NRestarts --value $unit)"
journalctl --no-pager -u $unit | grep -F 'reloaded /etc/streamscope/demo.json'
systemctl stop $unit
echo "stopped $(systemctl show -p Result --value $unit) $(systemctl show -p ExecMainStatus --value $unit)"
systemctl poweroff
END
chmod 0755 "$root/usr/local/bin/agent-check.sh"
cat >"$root/etc/systemd/system/agent-check.service" <<'END'
[Unit]
After=streamscope-agent@demo.service replay.service
[Service]
Type=oneshot
ExecStart=/usr/local/bin/agent-check.sh
[Install]
WantedBy=multi-user.target
END
wants="$root/etc/systemd/system/multi-user.target.wants"
mkdir -p "$wants"
ln -s /etc/systemd/system/replay.service /etc/systemd/system/agent-check.service "$wants/"
ln -s /usr/lib/systemd/system/streamscope-agent@.service "$wants/streamscope-agent@demo.service"

echo "== boot (systemd-nspawn)"
timeout 120 systemd-nspawn --quiet --register=no --keep-unit -D "$root" --boot >"$work/boot.log" 2>&1 || true
[[ -f $root/agent-check.log ]] || { tail -n 30 "$work/boot.log"; fail "the check did not run in the container"; }
cat "$root/agent-check.log"
expect=(
    "active active"
    "CapEff: 0000000000000000"
    "NoNewPrivs: 1"
    "Seccomp: 2"
    "user streamscope"
    "live trades 1"
    "reload ok"
    "trades counted on"
    "trades reconnects 0"
    "same main pid"
    "restarts 0"
    "1 added, 0 removed, 0 changed, 2 unchanged"
    "stopped success 0"
)
for line in "${expect[@]}"; do
    grep -qF -- "$line" "$root/agent-check.log" || fail "expected '$line'"
done
grep -qE '^more [1-9]' "$root/agent-check.log" || fail "the stream added by the reload counted nothing"
echo "check-agent-service: the agent runs, reloads and stops as streamscope-agent@demo.service"
