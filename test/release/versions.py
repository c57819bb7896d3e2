#!/usr/bin/env python3
"""One version everywhere (test/README.md, "Cutting a release").

    test/release/versions.py [ROOT]

Reads the release metadata of the tree at ROOT (default: this checkout) and
prints one line per disagreement; exit status 1 when there is any:

- ulid.control's default_version X.Y is the version under work;
- META.json (PGXN Meta Spec 1.0.0): "version" and provides.ulid.version are
  the same, X.Y.Z once CHANGELOG.md dates X.Y (release_status "stable"),
  X.Y.Z-dev before (a development snapshot, which sorts below the release;
  release_status "unstable" or "testing"), X.Y being default_version; the
  fields PGXN requires are there;
- CHANGELOG.md: its first "## " heading is X.Y, every heading is
  "## A.B (YYYY-MM[-DD])" or, for X.Y alone, "## X.Y (unreleased)", newest
  first;
- sql/: every released version but X.Y has its frozen full script
  ulid--A.B.sql, X.Y has none (the Makefile builds it from sql/ulid.sql),
  and each version has the update script from the one before;
- README.md names every released version in bold in its Upgrades section
  and shows `-- X.Y` as the extversion an update ends on; the bundle and
  package files it names are META.json's version's; the release it checks
  out (`git checkout COMMIT  # A.B`) is the latest in the release table, and
  it names no tag (`--branch vA.B.C`) the table does not say exists;
- test/README.md's release table has a row per released version with the
  commit it was released at (the release commit itself, where X.Y is dated
  and ulid.control still says X.Y, cannot name itself: the next commit adds
  its row); with git, that commit's ulid.control says that version and the
  commit's sql/ulid.sql is the frozen script (but for its header comment);
- debian/changelog (when there is one) is at META.json's version, a
  snapshot's X.Y.Z-dev written X.Y.Z~dev (Debian's "sorts before").
"""
import json
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
problems = []


def bad(msg):
    problems.append(msg)


def read(path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def vkey(v):
    return tuple(int(p) for p in v.split("."))


# --- ulid.control -----------------------------------------------------------
m = re.search(r"^default_version\s*=\s*'(\d+\.\d+)'\s*$", read("ulid.control"), re.M)
if not m:
    print("ulid.control: no default_version = 'X.Y'")
    sys.exit(1)
current = m.group(1)

# --- CHANGELOG.md ------------------------------------------------------------
released = []          # (version, date) of every dated heading, newest first
headings = re.findall(r"^## (.*)$", read("CHANGELOG.md"), re.M)
current_date = None    # the date of the version under work, once released
for i, h in enumerate(headings):
    hm = re.fullmatch(r"(\d+\.\d+) \((unreleased|\d{4}-\d{2}(?:-\d{2})?)\)", h)
    if not hm:
        bad(f"CHANGELOG.md: heading '## {h}' is not '## X.Y (YYYY-MM-DD)' or '## X.Y (unreleased)'")
        continue
    v, date = hm.groups()
    if i == 0 and v != current:
        bad(f"CHANGELOG.md: the first heading is {v}, ulid.control says {current}")
    if date == "unreleased":
        if i > 0:
            bad(f"CHANGELOG.md: {v} is not the newest heading and not dated")
        continue
    if i == 0:
        current_date = date
    released.append((v, date))
versions = [x.group(0) for x in (re.match(r"\d+\.\d+", h) for h in headings) if x]
if versions != sorted(versions, key=vkey, reverse=True) or len(set(versions)) != len(versions):
    bad(f"CHANGELOG.md: versions not newest first, or repeated: {', '.join(versions)}")
released_versions = [v for v, _ in released]

# --- META.json ----------------------------------------------------------------
try:
    meta = json.loads(read("META.json"))
except (OSError, ValueError) as e:
    bad(f"META.json: not JSON ({e})")
    meta = {}
if meta:
    for field in ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"):
        if field not in meta:
            bad(f"META.json: no \"{field}\" (PGXN Meta Spec 1.0.0 requires it)")
    for field in ("prereqs", "resources", "release_status"):
        if field not in meta:
            bad(f"META.json: no \"{field}\"")
    if meta.get("meta-spec", {}).get("version") != "1.0.0":
        bad("META.json: meta-spec version is not 1.0.0")
    mv = meta.get("version", "")
    want_form = r"\d+\.\d+\.\d+" if current_date else r"\d+\.\d+\.\d+-dev"
    if not re.fullmatch(want_form, mv) or mv.split("-")[0].rsplit(".", 1)[0] != current:
        bad(f"META.json: version {mv!r} is not {current}.N" + ("" if current_date else "-dev")
            + f" (ulid.control's default_version {current}, "
            + (f"released {current_date})" if current_date else "unreleased: a development snapshot)"))
    pv = meta.get("provides", {}).get("ulid", {}).get("version")
    if pv != mv:
        bad(f"META.json: provides.ulid.version {pv!r} differs from version {mv!r}")
    pf = meta.get("provides", {}).get("ulid", {}).get("file")
    if pf and not os.path.exists(os.path.join(root, pf)):
        bad(f"META.json: provides.ulid.file {pf} does not exist")
    status = meta.get("release_status")
    want = ("stable",) if current_date else ("unstable", "testing")
    if status not in want:
        bad(f"META.json: release_status {status!r}, but CHANGELOG.md has {current} "
            f"{'released on ' + current_date if current_date else 'unreleased'} (expected {' or '.join(want)})")
    if "PostgreSQL" not in meta.get("prereqs", {}).get("runtime", {}).get("requires", {}):
        bad("META.json: prereqs.runtime.requires names no PostgreSQL version")
    if not meta.get("resources", {}).get("repository", {}).get("url"):
        bad("META.json: resources.repository.url is missing")

# --- sql/ -----------------------------------------------------------------------
sql = set(os.listdir(os.path.join(root, "sql")))
for v in released_versions:
    if v != current and f"ulid--{v}.sql" not in sql:
        bad(f"sql/: released {v} has no frozen sql/ulid--{v}.sql")
if f"ulid--{current}.sql" in sql and subprocess.run(
        ["git", "-C", root, "ls-files", "--error-unmatch", f"sql/ulid--{current}.sql"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    bad(f"sql/: ulid--{current}.sql is committed, but {current} is built from sql/ulid.sql")
chain = sorted(set(released_versions) | {current}, key=vkey)
for a, b in zip(chain, chain[1:]):
    if f"ulid--{a}--{b}.sql" not in sql:
        bad(f"sql/: no update script ulid--{a}--{b}.sql")
for f in sql:
    fm = re.fullmatch(r"ulid--(\d+\.\d+)\.sql", f)
    if fm and fm.group(1) not in chain:
        bad(f"sql/: {f} is not a version CHANGELOG.md lists")

# --- README.md --------------------------------------------------------------------
readme = read("README.md")
up = re.search(r"^### Upgrades\n(.*?)^## ", readme, re.M | re.S)
if not up:
    bad("README.md: no '### Upgrades' section")
else:
    text = up.group(1)
    for v in released_versions:
        if f"**{v}**" not in text:
            bad(f"README.md: Upgrades does not name the released version **{v}**")
    if not re.search(r"SELECT extversion FROM pg_extension WHERE extname = 'ulid';\n-- " + re.escape(current) + r"\n", text):
        bad(f"README.md: Upgrades does not show extversion -- {current} after the update")
    named = set(re.findall(r"\*\*(\d+\.\d+)\*\*", text))
    for v in named - set(released_versions) - {current}:
        bad(f"README.md: Upgrades names **{v}**, which CHANGELOG.md does not list")
    if current_date is None and re.search(r"\*\*" + re.escape(current) + r"\*\*[^.]*\breleased\b", text) \
            and not re.search(r"not yet released|unreleased", text):
        bad(f"README.md: Upgrades calls {current} released, CHANGELOG.md does not date it")

# --- test/README.md: the commit of each release ------------------------------------
tr = read("test/README.md")
rows = dict(re.findall(r"^\| (\d+\.\d+) \| [^|]*\| ([0-9a-f]{7,40}) \|", tr, re.M))
tags = {v for v, t in re.findall(r"^\| (\d+\.\d+) \| [^|]*\| [0-9a-f]{7,40} \| ([^|]*)\|", tr, re.M)
        if "not yet" not in t and "v" in t}
git = os.path.exists(os.path.join(root, ".git"))

# the files named in Installation: this version's bundle and package (a
# snapshot's too); the release it checks out, the latest in the table; no tag
# that does not exist
deb_version = meta.get("version", "").replace("-dev", "~dev")
for m in re.finditer(r"ulid-(\d+\.\d+\.\d+(?:-dev)?)\.zip|postgresql-\d+-ulid_(\d+\.\d+\.\d+(?:~dev)?)-", readme):
    if m.group(1) and m.group(1) != meta.get("version") or m.group(2) and m.group(2) != deb_version:
        bad(f"README.md: names {m.group(0)}, but META.json's version is {meta.get('version')}")
listed = [v for v in released_versions if v in rows]
for c, v in re.findall(r"git checkout ([0-9a-f]{7,40}) +# (\d+\.\d+)", readme):
    if not listed or v != listed[0] or not rows[v].startswith(c) and not c.startswith(rows[v]):
        bad(f"README.md: checks out {c} as {v}, but the latest release in test/README.md's table is "
            + (f"{listed[0]} at {rows[listed[0]]}" if listed else "none"))
for tag in set(re.findall(r"(?:--branch|checkout) v(\d+\.\d+)\.\d+", readme)):
    if tag not in tags:
        bad(f"README.md: names the tag v{tag}.N, which test/README.md's release table does not say exists")

for v in released_versions:
    c = rows.get(v)
    if not c:
        if v != current:
            bad(f"test/README.md: the release table has no commit for {v}")
        continue
    if not git:
        continue
    r = subprocess.run(["git", "-C", root, "show", f"{c}:ulid.control"], capture_output=True, text=True)
    if r.returncode != 0:
        bad(f"test/README.md: {v}'s commit {c} is not in this repository")
        continue
    cm = re.search(r"^default_version\s*=\s*'([^']*)'", r.stdout, re.M)
    if not cm or cm.group(1) != v:
        bad(f"test/README.md: at {v}'s commit {c} ulid.control says {cm.group(1) if cm else 'nothing'}")
        continue
    if v != current and f"ulid--{v}.sql" in sql:
        r = subprocess.run(["git", "-C", root, "show", f"{c}:sql/ulid.sql"], capture_output=True, text=True)
        body = lambda s: "\n".join(l for l in s.splitlines() if not l.startswith("--"))
        if r.returncode != 0 or body(r.stdout) != body(read(f"sql/ulid--{v}.sql")):
            bad(f"test/README.md: {v}'s commit {c} installs other SQL than the frozen sql/ulid--{v}.sql")
for v in rows:
    if v not in released_versions:
        bad(f"test/README.md: the release table lists {v}, which CHANGELOG.md does not date")

# --- debian/changelog ---------------------------------------------------------------
if os.path.exists(os.path.join(root, "debian", "changelog")):
    dm = re.match(r"\S+ \((\d+\.\d+\.\d+(?:~dev)?)-[^)]+\)", read("debian/changelog"))
    if not dm or dm.group(1) != deb_version:
        bad(f"debian/changelog: the first entry is {dm.group(1) if dm else '?'}, META.json says {meta.get('version')} ({deb_version} in Debian's form)")

for p in problems:
    print(p)
if not problems:
    print(f"ulid {current} (META.json {meta.get('version')}, {meta.get('release_status')}); "
          f"released: {', '.join('%s (%s, %s)' % (v, d, rows.get(v, '?')) for v, d in released) or 'none'}")
sys.exit(1 if problems else 0)
