#!/usr/bin/env bash
# Builds the Linux packages from a configured build tree and checks them as a user would
# meet them: lintian, desktop-file-validate, appstreamcli, an apt-get install of the .deb,
# the installed `streamscope --version` and a headless demo run, then removes the package.
#
# Usage: scripts/package-check.sh BUILD_DIR [--no-clean-root]
#   BUILD_DIR        a CMake build tree of this repository (Release; `streamscope` is
#                    built there if it is not yet)
#   --no-clean-root  skip the last check, which installs the .deb into a fresh minimal
#                    Debian 12 root (mmdebstrap, the host's apt sources) and runs it there,
#                    proving the Depends complete; it takes about 1-2 minutes.
#                    STREAMSCOPE_CLEAN_ROOT=0 in the environment does the same.
#
# Needs root (apt-get, dpkg) on Debian 12; installs its own tools with apt-get.
# Exit status: 0 when every check passed, 1 otherwise.
set -euo pipefail

usage() { echo "usage: $0 BUILD_DIR [--no-clean-root]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
build_dir=$(cd "$1" && pwd) || usage
clean_root=${STREAMSCOPE_CLEAN_ROOT:-1}
case ${2:-} in
    "") ;;
    --no-clean-root) clean_root=0 ;;
    --clean-root) clean_root=1 ;;
    *) usage ;;
esac

export DEBIAN_FRONTEND=noninteractive
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'package-check: FAIL: %s\n' "$*" >&2; exit 1; }

[[ -f $build_dir/CPackConfig.cmake ]] \
    || fail "$build_dir has no CPackConfig.cmake (configure it first; packaging/ needs the streamscope target)"
[[ $(id -u) -eq 0 ]] || fail "needs root (apt-get install of the package)"

# ---------------------------------------------------------------------------------------
step "tools"
apt_updated=0
apt_update_once() {
    if [[ $apt_updated -eq 0 ]]; then
        apt-get update -qq
        apt_updated=1
    fi
}
tools=(lintian desktop-file-utils appstream dpkg-dev file systemd)
[[ $clean_root -eq 1 ]] && tools+=(mmdebstrap)
missing=()
for p in "${tools[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "installing: ${missing[*]}"
    apt_update_once
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "lintian $(lintian --version | awk '{print $2}'), appstreamcli $(appstreamcli --version | awk '{print $NF}')"

version=$(tr -d '[:space:]' < "$build_dir/streamscope-version.txt")
[[ -n $version ]] || fail "no version in $build_dir/streamscope-version.txt"
echo "version $version"

# ---------------------------------------------------------------------------------------
step "build streamscope and the packages (cpack DEB + TGZ)"
cmake --build "$build_dir" --target streamscope -j 2
out_dir="$build_dir/packages"
rm -rf "$out_dir"
(cd "$build_dir" && cpack -G "DEB;TGZ" -B "$out_dir" >"$out_dir.log" 2>&1) \
    || { cat "$out_dir.log"; fail "cpack failed"; }
deb=$(ls "$out_dir"/streamscope_"$version"_*.deb)
tgz=$(ls "$out_dir"/streamscope-"$version"-*.tar.gz)
ls -l "$deb" "$tgz"
dpkg-deb --field "$deb" Package Version Architecture Depends

work=$(mktemp -d)
installed=0
cleanup() {
    if [[ $installed -eq 1 ]]; then
        apt-get purge -y -qq streamscope >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------
step "lintian"
# lintian exits non-zero on any error-level tag; warnings and infos are shown.
lintian --fail-on error --display-info "$deb" 2>&1 | grep -v 'running with root privileges' || true
lintian --fail-on error "$deb" >/dev/null 2>&1 || fail "lintian reported errors"
echo "lintian: no errors"

# ---------------------------------------------------------------------------------------
step "package contents"
dpkg-deb -x "$deb" "$work/root"
app_id=$(basename "$(ls "$work"/root/usr/share/applications/*.desktop)" .desktop)
expect=(
    usr/bin/streamscope
    "usr/share/applications/$app_id.desktop"
    "usr/share/metainfo/$app_id.metainfo.xml"
    "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
    usr/share/doc/streamscope/copyright
    usr/share/doc/streamscope/changelog.gz
    usr/share/man/man1/streamscope.1.gz
    "usr/lib/systemd/system/streamscope-agent@.service"
    usr/share/streamscope/prometheus/streamscope-rules.yml
    usr/share/streamscope/grafana/streamscope-dashboard.json
)
for size in 16 24 32 48 64 128 256 512; do
    expect+=("usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png")
done
for f in "${expect[@]}"; do
    [[ -e $work/root/$f ]] || fail "the .deb lacks /$f"
done
file "$work/root/usr/share/icons/hicolor/48x48/apps/$app_id.png" | grep -q '48 x 48' \
    || fail "48x48 icon has the wrong size"
zcat "$work/root/usr/share/doc/streamscope/changelog.gz" | head -1 | grep -q "($version)" \
    || fail "Debian changelog does not start with version $version"
tar -tzf "$tgz" > "$work/tgz.list"
for f in bin/streamscope "share/applications/$app_id.desktop" "share/metainfo/$app_id.metainfo.xml"; do
    grep -q "/$f\$" "$work/tgz.list" || fail "the .tar.gz lacks $f"
done
echo "deb and tar.gz hold the binary, desktop entry, metainfo, icons, copyright, changelog, man page"

# ---------------------------------------------------------------------------------------
step "desktop-file-validate"
desktop-file-validate "$work/root/usr/share/applications/$app_id.desktop" \
    || fail "desktop-file-validate"
echo "desktop entry valid"

step "appstreamcli validate --no-net"
appstreamcli validate --no-net "$work/root/usr/share/metainfo/$app_id.metainfo.xml" \
    || fail "appstreamcli validate"
grep -q "<release version=\"$version\"" "$work/root/usr/share/metainfo/$app_id.metainfo.xml" \
    || fail "metainfo has no <release> for $version"

# ---------------------------------------------------------------------------------------
step "apt-get install the .deb"
if dpkg-query -W -f='${Status}' streamscope 2>/dev/null | grep -q 'install ok installed'; then
    apt-get purge -y -qq streamscope >/dev/null
fi
install_deb() {
    apt-get install -y -qq --no-install-recommends "$deb" >"$work/apt.log" 2>&1
}
installed=1
if ! install_deb; then
    # Dependencies not yet downloadable: refresh the package lists once and retry.
    apt_update_once
    install_deb || { cat "$work/apt.log"; fail "apt-get install of $deb"; }
fi
dpkg-query -W -f='installed ${Package} ${Version}\n' streamscope

step "installed streamscope"
bin=/usr/bin/streamscope
if ldd "$bin" | grep -q 'not found'; then
    ldd "$bin"; fail "unresolved libraries"
fi
cd "$work"
got=$(env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen timeout 30 "$bin" --version 2>&1) \
    || fail "streamscope --version exited non-zero: $got"
echo "streamscope --version: $got"
grep -q -- "$version" <<<"$got" || fail "--version does not print $version"

rc=0
env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen \
    timeout 60 "$bin" --headless --duration 3 >"$work/headless.log" 2>&1 || rc=$?
tail -n 20 "$work/headless.log"
[[ $rc -eq 0 ]] || fail "streamscope --headless --duration 3 exited $rc"
echo "headless demo: exit 0"
cd - >/dev/null

step "the agent service: its user, its folder, its unit"
getent passwd streamscope >/dev/null || fail "the postinst did not create the user streamscope"
[[ $(stat -c '%U:%G %a' /etc/streamscope) == "root:streamscope 750" ]] \
    || fail "/etc/streamscope is $(stat -c '%U:%G %a' /etc/streamscope), expected root:streamscope 750"
verify=$(systemd-analyze verify --man=no /usr/lib/systemd/system/streamscope-agent@.service 2>&1) \
    || fail "systemd-analyze verify: $verify"
[[ -z $verify ]] || fail "systemd-analyze verify: $verify"
systemd-analyze security --offline=true /usr/lib/systemd/system/streamscope-agent@.service | tail -n 1
echo "user streamscope, /etc/streamscope root:streamscope 750, unit verified"

# ---------------------------------------------------------------------------------------
if [[ $clean_root -eq 1 ]]; then
    step "clean Debian 12 root (mmdebstrap): install the .deb with apt-get and run it"
    # A minimal bookworm root (variant apt) from the host's apt sources; only the .deb and
    # the dependencies it declares go in, so a missing Depends fails here.
    deb_name=$(basename "$deb")
    start=$SECONDS
    # shellcheck disable=SC2016  # "$1" is expanded by mmdebstrap (the chroot path)
    mmdebstrap --quiet --variant=apt --format=null \
        --dpkgopt=force-unsafe-io --aptopt='Acquire::Languages "none"' \
        --customize-hook="copy-in $deb /tmp" \
        --customize-hook="chroot \"\$1\" apt-get install -y -q --no-install-recommends /tmp/$deb_name >/dev/null" \
        --customize-hook='chroot "$1" streamscope --version' \
        --customize-hook='chroot "$1" env QT_QPA_PLATFORM=offscreen timeout 60 streamscope --headless --duration 3 >/dev/null' \
        bookworm /dev/null \
        || fail "the .deb does not install and run in a clean Debian 12 root"
    echo "clean root: installed, --version and the headless demo ran ($((SECONDS - start)) s)"
fi

step "remove the package"
apt-get purge -y -qq streamscope >/dev/null
installed=0
[[ ! -e /usr/bin/streamscope ]] || fail "/usr/bin/streamscope left behind after purge"
[[ ! -e /etc/streamscope ]] || fail "/etc/streamscope (empty) left behind after purge"
echo "removed"

printf '\npackage-check: all checks passed for streamscope %s\n' "$version"
