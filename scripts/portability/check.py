#!/usr/bin/env python3
"""The two halves of scripts/check-portability.sh (which says what the check is for).

  check.py windows BUILD_DIR   moc, then every compile command of BUILD_DIR (a build
                               configured with windows-toolchain.cmake) with -fsyntax-only
  check.py guards BUILD_DIR    the platform-guard scan of the same sources and the project
                               headers they include

Quiet on success but for one summary line; on failure prints what failed and exits 1.
"""

import json
import warnings
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A condition such as QT_VERSION_CHECK(6, 5, 0) evaluates as a call of 1 and is then assumed
# to hold (evaluate()); Python warns about it at compile time.
warnings.filterwarnings("ignore", category=SyntaxWarning)
JOBS = int(os.environ.get("PORTABILITY_JOBS", "2"))

# The only headers the build takes from /usr/include itself. The Windows compile must not see
# the rest of that folder: glibc's <sys/resource.h>, <unistd.h>... would be found there and
# hide exactly what this check looks for. A new dependency found in /usr/include is added here.
THIRD_PARTY_HEADERS = ["simdjson.h", "qt6keychain", "zstd.h", "zstd_errors.h"]


def compile_commands(build_dir):
    with open(build_dir / "compile_commands.json", encoding="utf-8") as f:
        return json.load(f)


def run_automoc(build_dir):
    """Runs CMake's own AUTOMOC step of every target (moc with the mingw compiler's macros,
    so moc sees the Q_OS_WIN branches), without the build dependencies the autogen targets
    carry (they would compile and link the libraries first)."""
    infos = sorted(build_dir.rglob("AutogenInfo.json"))

    def one(info):
        return subprocess.run(["cmake", "-E", "cmake_autogen", str(info), "Release"],
                              capture_output=True, text=True, check=False)

    with ThreadPoolExecutor(JOBS) as pool:
        for info, result in zip(infos, pool.map(one, infos)):
            if result.returncode != 0:
                print(f"moc failed for {info.parent.name}:\n{result.stdout}{result.stderr}")
                return False
    return True


def windres_argv(argv, output):
    """The resource compiler's command (the version resource), its output to `output`: it
    runs for real, so its icon and version macros are checked too."""
    out = []
    for i, arg in enumerate(argv[:-1]):  # the last argument is the .res it writes
        if arg == "-I" and ("/usr/include" == argv[i + 1] or "/mkspecs/" in argv[i + 1]):
            continue
        if i > 0 and argv[i - 1] == "-I" and (arg == "/usr/include" or "/mkspecs/" in arg):
            continue
        out.append(arg)
    return out + [str(output)]


def windows_argv(entry, third_party_dir):
    """A compile command of the Windows configuration, made a syntax-only check."""
    argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    if "windres" in Path(argv[0]).name:
        return windres_argv(argv, third_party_dir / (Path(entry["file"]).stem + ".res"))
    out = []
    skip = False
    for i, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg in ("-o", "-MT", "-MF"):
            skip = True
            continue
        if arg in ("-c", "-MD", "-fPIC"):
            continue
        if arg == "-isystem" and i + 1 < len(argv):
            nxt = argv[i + 1]
            # glibc's headers: replaced by the few third-party ones the build needs.
            if nxt == "/usr/include":
                out += ["-isystem", str(third_party_dir)]
                skip = True
                continue
            # Qt's Linux mkspec (qplatformdefs.h): no win32-g++ one ships with Debian's Qt,
            # and nothing outside Qt's own sources includes it.
            if "/mkspecs/" in nxt:
                skip = True
                continue
        out.append(arg)
    return out + ["-fsyntax-only"]  # the source stays where it was, after -c


def relative(path):
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def display_name(entry):
    path = Path(entry["file"])
    if path.suffix == ".rc":
        return "resources " + path.name
    if "_autogen" in path.parts[-2]:
        # build/.../<target>_autogen/mocs_compilation.cpp: the moc output of a target's headers
        return "moc of " + path.parts[-2][: -len("_autogen")]
    return relative(path)


# Sources compiled together, in one syntax-only run, when their commands differ only in the
# target's autogen include folder (its moc output): Qt's headers are parsed once per batch
# instead of once per source, which was most of the check's time. Two sources of one batch may
# clash (two file-local helpers of one name, and the errors that follow from it): the sources an
# error names leave the batch for one of their own, and both are compiled again; a batch whose
# every source is named is compiled source by source, and only those results count. A batch
# costs time, never a false failure.
BATCH = int(os.environ.get("PORTABILITY_BATCH", "40"))
ERROR_AT = re.compile(r"^(.+?):\d+:\d+: error: ")


def is_autogen_include(arg):
    return arg.startswith("-I") and "_autogen/include" in arg


def source_index(argv, entry):
    """Where the source is in a compile command (relative to its directory or not)."""
    wanted = Path(entry["file"]).resolve()
    for i in range(len(argv) - 1, 0, -1):
        if (Path(entry["directory"]) / argv[i]).resolve() == wanted:
            return i
    raise ValueError(f"no source in the command of {entry['file']}")


def batchable(entry):
    """A resource script runs alone; so does a moc unit with nothing to moc (an enum, no
    include: batched, its enums would clash)."""
    if entry["file"].endswith(".rc") or BATCH <= 1:
        return False
    return "#include" in Path(entry["file"]).read_text(encoding="utf-8", errors="replace") \
        if "_autogen" in entry["file"] else True


class Batcher:
    def __init__(self, third_party):
        self.third_party = third_party
        self.count = 0

    def command(self, members):
        """(argv, directory) compiling `members`, entries whose commands differ only in their
        autogen include folder: the one source's own command, or a unity file including all."""
        entry = members[0]
        argv = windows_argv(entry, self.third_party)
        if len(members) == 1:
            return argv, entry["directory"]
        self.count += 1
        unity = self.third_party / f"batch{self.count}.cpp"
        lines = []
        for n, member in enumerate(members):
            # Each test defines main(): one name per source.
            lines += [f"#define main streamscope_portability_main_{n}",
                      f'#include "{Path(member["file"]).resolve()}"', "#undef main"]
        unity.write_text("\n".join(lines) + "\n", encoding="utf-8")
        autogen = []
        for member in members:
            autogen += [a for a in windows_argv(member, self.third_party)
                        if is_autogen_include(a) and a not in autogen]
        i = source_index(argv, entry)
        flags = [a for j, a in enumerate(argv) if j != i and not is_autogen_include(a)]
        return flags[:1] + autogen + flags[1:] + [str(unity)], entry["directory"]

    def plan(self, entries):
        """The first batches: sources grouped by their command, in path order."""
        groups = {}
        singles = []
        for entry in entries:
            if not batchable(entry):
                singles.append([entry])
                continue
            argv = windows_argv(entry, self.third_party)
            i = source_index(argv, entry)
            key = (entry["directory"],
                   tuple(a for j, a in enumerate(argv) if j != i and not is_autogen_include(a)))
            groups.setdefault(key, []).append(entry)
        out = singles
        for members in groups.values():
            members.sort(key=lambda e: e["file"])
            out += [members[k:k + BATCH] for k in range(0, len(members), BATCH)]
        return out


def split_errors(members, stderr):
    """The batch without the sources that an error names, and those sources as a batch of their
    own; each source alone when the errors name none of them (an error in a header) or all."""
    named = set()
    for line in stderr.splitlines():
        m = ERROR_AT.match(line)
        if m:
            named.add(Path(m.group(1)).resolve())
    moved = [e for e in members if Path(e["file"]).resolve() in named]
    kept = [e for e in members if Path(e["file"]).resolve() not in named]
    if not moved or not kept:
        return [[e] for e in members]
    return [kept, moved]


def check_windows(build_dir):
    if not run_automoc(build_dir):
        return 1
    entries = compile_commands(build_dir)
    only = os.environ.get("PORTABILITY_ONLY")
    if only:
        entries = [e for e in entries if re.search(only, e["file"])]
    failed = []
    runs = 0
    with tempfile.TemporaryDirectory(prefix="portability-") as tmp:
        third_party = Path(tmp)
        for name in THIRD_PARTY_HEADERS:
            os.symlink(Path("/usr/include") / name, third_party / name)
        batcher = Batcher(third_party)

        def run(members):
            argv, directory = batcher.command(members)
            return subprocess.run(argv, cwd=directory, capture_output=True, text=True, check=False)

        pending = batcher.plan(entries)
        with ThreadPoolExecutor(JOBS) as pool:
            while pending:
                results = list(pool.map(run, pending))
                runs += len(pending)
                retry = []
                for members, result in zip(pending, results):
                    if result.returncode == 0:
                        continue
                    if len(members) == 1:
                        failed.append((members[0], result))
                        continue
                    retry += split_errors(members, result.stderr)
                pending = retry
    for entry, result in failed:
        lines = result.stderr.splitlines()
        print(f"--- {display_name(entry)}: does not compile for Windows")
        print("\n".join(lines[:25]))
        if len(lines) > 25:
            print(f"    ... {len(lines) - 25} more lines")
    sources = sum(1 for e in entries if "_autogen" not in e["file"] and not e["file"].endswith(".rc"))
    resources = sum(1 for e in entries if e["file"].endswith(".rc"))
    if failed:
        print(f"windows: {len(failed)} of {len(entries)} translation units fail "
              f"(x86_64-w64-mingw32-g++-posix -fsyntax-only)")
        return 1
    print(f"windows: {sources} sources, {len(entries) - sources - resources} moc units and "
          f"{resources} resource script compile (mingw-w64 -fsyntax-only against the Qt headers, "
          f"batched: {runs} compiler runs)",
          end="")
    return 0


# ---- the guard scan -------------------------------------------------------------------------

PLATFORMS = ("linux", "macos", "windows")
# Macros that name a platform, and where each is defined. Everything else in a condition is
# unknown: a branch counts as possibly compiled when it is with the unknowns all 0 or all 1.
PLATFORM_MACROS = {
    "Q_OS_LINUX": {"linux"}, "__linux__": {"linux"}, "__linux": {"linux"},
    "Q_OS_MACOS": {"macos"}, "Q_OS_MAC": {"macos"}, "Q_OS_DARWIN": {"macos"},
    "Q_OS_APPLE": {"macos"}, "__APPLE__": {"macos"},
    "Q_OS_WIN": {"windows"}, "Q_OS_WIN32": {"windows"}, "Q_OS_WIN64": {"windows"},
    "_WIN32": {"windows"}, "_MSC_VER": {"windows"},
    "Q_OS_UNIX": {"linux", "macos"}, "__unix__": {"linux", "macos"},
}

# (pattern, what, platforms that lack it, a fallback branch required)
RULES = [
    # Linux-only: must sit in a Linux-only branch with a branch for the others beside it.
    (r"\bepoll_\w+|<sys/epoll\.h>|\bEPOLL\w*", "epoll", {"macos", "windows"}, True),
    (r"\beventfd\b|<sys/eventfd\.h>", "eventfd", {"macos", "windows"}, True),
    (r"\b(signalfd|timerfd_\w+|inotify_\w+)\b", "a Linux fd API", {"macos", "windows"}, True),
    (r"\"/proc/|'/proc/", "/proc", {"macos", "windows"}, True),
    (r"\b(adjtimex|ntp_adjtime)\b|<sys/timex\.h>", "adjtimex", {"macos", "windows"}, True),
    (r"\bSIOC(INQ|OUTQ)\b|<linux/", "a Linux ioctl or header", {"macos", "windows"}, True),
    (r"\b(accept4|pipe2|sched_setaffinity|prctl|malloc_trim|mallinfo2?|clock_nanosleep)\b|<sys/prctl\.h>",
     "a Linux-only call", {"macos", "windows"}, True),
    (r"\b(MSG_NOSIGNAL|SOCK_NONBLOCK|SOCK_CLOEXEC|TCP_INFO|SO_BUSY_POLL|CLOCK_BOOTTIME)\b",
     "a Linux-only socket or clock flag", {"macos", "windows"}, True),
    # POSIX that mingw-w64 has but MSVC (the release build) does not: the syntax check would
    # pass them, so they must be out of the Windows branches.
    (r"<(unistd|pthread|dirent|strings|sys/time|sys/resource|sys/socket|poll)\.h>",
     "a POSIX header", {"windows"}, False),
    (r"\b(clock_gettime|clock_nanosleep|nanosleep|usleep|gettimeofday|getrusage|setrlimit"
     r"|getrlimit|ssize_t|strcasecmp|setenv|unsetenv)\b",
     "a POSIX call MSVC lacks", {"windows"}, False),
]
RULES = [(re.compile(p), what, lacking, fallback) for p, what, lacking, fallback in RULES]


def strip_comments(text):
    """Blanks // and /* */ comments, keeping string literals and line numbers."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def evaluate(condition, platform, unknown):
    """The value of an #if condition on a platform, unknown macros all set to `unknown`."""
    def defined(m):
        name = m.group(1)
        if name in PLATFORM_MACROS:
            return "1" if platform in PLATFORM_MACROS[name] else "0"
        return str(unknown)
    expr = re.sub(r"\bdefined\s*\(?\s*(\w+)\s*\)?", defined, condition)
    expr = re.sub(r"\b(__has_include)\s*\([^)]*\)", str(unknown), expr)
    expr = re.sub(r"\b([A-Za-z_]\w*)\b",
                  lambda m: ("1" if platform in PLATFORM_MACROS[m.group(1)] else "0")
                  if m.group(1) in PLATFORM_MACROS else str(unknown), expr)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    expr = re.sub(r"(\d+)[uUlL]+\b", r"\1", expr)
    try:
        return bool(eval(expr, {"__builtins__": {}}))  # only digits and operators are left
    except Exception:  # an expression this scan does not follow: assume it may hold
        return True


class Frame:
    """One #if ... #endif chain: which platforms have taken an earlier branch, per unknown."""

    def __init__(self):
        self.taken = {(p, u): False for p in PLATFORMS for u in (0, 1)}
        self.active = set()           # platforms on which the current branch may be compiled
        self.branches = []            # the `active` set of each branch so far

    def branch(self, condition):
        active = set()
        for p in PLATFORMS:
            for u in (0, 1):
                if not self.taken[(p, u)] and (condition is None or evaluate(condition, p, u)):
                    active.add(p)
                    self.taken[(p, u)] = True
        self.active = active
        self.branches.append(active)


def scan_file(path, include_dirs, seen, problems, platform):
    """Scans one file as compiled on `platform`, then the project headers it includes there."""
    if (path, platform) in seen:
        return
    seen.add((path, platform))
    text = strip_comments(path.read_text(encoding="utf-8", errors="replace"))
    stack = []
    for number, line in enumerate(text.splitlines(), 1):
        directive = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if directive:
            word, rest = directive.groups()
            if word in ("if", "ifdef", "ifndef"):
                frame = Frame()
                cond = {"if": rest, "ifdef": f"defined({rest.strip()})",
                        "ifndef": f"!defined({rest.strip()})"}[word]
                stack.append(frame)
                frame.branch(cond)
            elif word == "elif" and stack:
                stack[-1].branch(rest)
            elif word == "else" and stack:
                stack[-1].branch(None)
            elif word == "endif" and stack:
                stack.pop()
        compiled_on = {p for p in PLATFORMS if all(p in f.active for f in stack)}
        if platform not in compiled_on:
            continue
        for pattern, what, lacking, fallback in RULES:
            if platform not in lacking:
                continue
            match = pattern.search(line)
            if not match:
                continue
            problems.add(f"{relative(path)}:{number}: {match.group(0).strip()} ({what}) is compiled "
                         f"on {platform}: put it in a branch for the platforms that have it")
        if directive and directive.group(1) == "include":
            quoted = re.match(r'"([^"]+)"', directive.group(2).strip())
            if quoted:
                for base in [path.parent] + include_dirs:
                    candidate = (base / quoted.group(1)).resolve()
                    if candidate.is_file() and ROOT in candidate.parents:
                        scan_file(candidate, include_dirs, seen, problems, platform)
                        break


def fallback_problems(path):
    """A Linux-only API in a branch whose chain has no branch for macOS and Windows."""
    problems = []
    text = strip_comments(path.read_text(encoding="utf-8", errors="replace"))
    stack = []
    for number, line in enumerate(text.splitlines(), 1):
        directive = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if directive:
            word, rest = directive.groups()
            if word in ("if", "ifdef", "ifndef"):
                frame = Frame()
                frame.line = number
                frame.findings = []
                cond = {"if": rest, "ifdef": f"defined({rest.strip()})",
                        "ifndef": f"!defined({rest.strip()})"}[word]
                stack.append(frame)
                frame.branch(cond)
            elif word == "elif" and stack:
                stack[-1].branch(rest)
            elif word == "else" and stack:
                stack[-1].branch(None)
            elif word == "endif" and stack:
                frame = stack.pop()
                others = set().union(*frame.branches) - {"linux"}
                for found_at, what in frame.findings:
                    if not {"macos", "windows"} <= others:
                        problems.append(f"{relative(path)}:{found_at}: {what} sits in the "
                                        f"#if at line {frame.line}, which has no #else for "
                                        f"the other systems")
            continue
        for pattern, what, lacking, fallback in RULES:
            if fallback and pattern.search(line):
                # The innermost chain that leaves the other systems out answers for it.
                for frame in reversed(stack):
                    if not ({"macos", "windows"} & frame.active):
                        frame.findings.append((number, what))
                        break
    return problems


def check_guards(build_dir):
    entries = [e for e in compile_commands(build_dir) if "_autogen" not in e["file"]]
    problems = set()
    seen = set()
    for entry in entries:
        argv = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
        include_dirs = [Path(a[2:]) for a in argv if a.startswith("-I")]
        for platform in ("macos", "windows"):
            scan_file(Path(entry["file"]), include_dirs, seen, problems, platform)
    files = sorted({path for path, _ in seen})
    for path in files:
        problems.update(fallback_problems(path))
    for problem in sorted(problems):
        print(problem)
    if problems:
        print(f"guards: {len(problems)} platform-only uses outside their platform's branch")
        return 1
    print(f"; guards: {len(files)} files free of unguarded Linux-only and MSVC-missing APIs", end="")
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("windows", "guards"):
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = Path(sys.argv[2]).resolve()
    return check_windows(build_dir) if sys.argv[1] == "windows" else check_guards(build_dir)


if __name__ == "__main__":
    sys.exit(main())
