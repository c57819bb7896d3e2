#!/usr/bin/env python3
"""Run the SQL examples of README.md and compare the output the README shows.

Run by test/scenarios/readme.sh (a test/run scenario) on a throwaway server
with shared_preload_libraries = 'ulid', ulid.node_id = 7 and ulid.node_ids =
'0-8191', the settings the README's Snowflake examples assume.  By hand:

    python3 test/readme/check.py --psql PSQL --host SOCKDIR --port PORT [README.md]

Prints one "ok" / "not ok" line per checked block (a failure shows the
block's line in README.md and a diff), one "# skip" line per skipped block
with its reason, and a summary.

Convention (summed up for contributors in test/README.md):

Blocks
  * Every ```sql block (also ```pgsql, ```postgresql; also indented in a
    list item) is run.  A plain ``` (or ```psql) block whose first line
    starts with a psql prompt ("=# ", "postgres=# ") is a transcript and is
    run too.  Other blocks (```sh, ```js, configuration snippets, plain
    text) are not SQL: the summary counts them by kind.
  * <!-- readme-check: skip (reason) --> right before a block skips it; the
    reason is printed.  Use it for blocks that cannot run on one server
    (standbys, several servers, other extensions, placeholders).
  * <!-- readme-check: needs PostgreSQL N --> skips the block on older
    servers (the reason is printed) and runs it on N and later.
  * <!-- readme-check: setup SQL... --> (may span lines) runs SQL, unshown,
    before the next block: tables an example uses but does not create.
    Markers may be stacked; a marker applies to the next block only.

Databases
  * Each "##" or "###" section runs in a fresh database of its own ("####"
    sections stay in their parent's database), so tables created earlier in
    a section are there for its later blocks and names may be reused in
    another section.  The database has the extension installed, unless a
    block of the section runs CREATE EXTENSION ulid itself.
  * All sections run in README order on one server: settings (ALTER SYSTEM)
    and the shared generator state carry over, as for a reader.

Statements and output (in ```sql blocks)
  * Statements end with ";" (outside quotes and $$ bodies); a line starting
    with a backslash is a psql meta-command.  A query with $1 is only
    prepared (PREPARE), since psql has no value for it.  Each block runs in
    one psql session, with statement_timeout = 30s.
  * Expected output is written as comments: a trailing "-- value" on the
    statement's line (one per line for several columns of one row), or
    comment lines right after the statement (no blank line between): one
    line per row or per line of a multi-line value, a psql table (header,
    "---+---" line, rows), an expanded record ("-[ RECORD 1 ]"), or the
    ERROR / DETAIL / HINT lines of an error.  "-- ..." followed by text is
    commentary; "-- ..." alone matches any number of output lines.
  * Trailing comments are output only for statements that return rows
    (SELECT, VALUES, TABLE, WITH, SHOW, EXPLAIN, ... RETURNING); on others
    they are commentary.  A value may be followed by commentary after two
    spaces, " (" or ": ", e.g. "-- 1TCKi1nFuNh  (base 62)".  A value ending
    in "..." is a prefix.  NULL is shown as NULL.
  * Output of a statement without a documented value is not compared, but
    the statement must succeed; an error must be documented, with every
    ERROR / DETAIL / HINT line the server prints.
  * Values that are random or time-dependent by nature are compared by
    shape: when the statement calls a volatile function (gen_ulid, now,
    snowflake_next, ...) or reads a table or view, a documented ULID, UUID,
    timestamp, long Base62 token or integer matches any value of that class.
    Everything else is compared exactly (runs of spaces and of "-" in table
    borders count as one).

In a transcript block, "=# " starts a statement ("-# " continues it) and the
lines up to the next "=# " are its output, in the same forms without "-- ";
comments on the prompt line are commentary.

test/readme/selftest.md is the checker's own test: each of its blocks says
whether it must pass, fail or be skipped.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import time

VOLATILE = re.compile(
    r"\b(gen_ulid|gen_random_ulid|gen_monotonic_ulid|gen_gsid|gen_uuidv7|gen_typeid|snowflake_next|now|"
    r"clock_timestamp|statement_timestamp|transaction_timestamp|current_timestamp|"
    r"localtimestamp|random|uuidv7|uuidv4|gen_random_uuid|pg_postmaster_start_time)\b",
    re.I)
# FROM/JOIN a relation (not a function call, not a sub-select)
READS_TABLE = re.compile(r"\b(FROM|JOIN)\s+(?!\()(?![\w.]+\s*\()[A-Za-z_][\w.]*", re.I)
RETURNS_ROWS = re.compile(r"^\s*(SELECT|VALUES|TABLE|WITH|SHOW|EXPLAIN|EXECUTE|FETCH)\b|\bRETURNING\b", re.I)
PREPARABLE = re.compile(r"^\s*(SELECT|VALUES|TABLE|WITH|INSERT|UPDATE|DELETE|MERGE)\b", re.I)
SQL_INFO = ("sql", "pgsql", "postgresql", "postgres", "plpgsql")
FENCE = re.compile(r"^( *)(```+)(.*)$")      # also indented in list items
PROMPT = re.compile(r"^\w*([=-])[#>] ")
DOLLAR = re.compile(r"\$(?:[A-Za-z_]\w*)?\$")
MARKER = re.compile(r"<!--\s*readme-check:\s*(.*?)\s*-->", re.S)
TABLE_RULE = re.compile(r"^\s*-+(\+-+)*\s*$")
ERROR_LINE = re.compile(r"^(ERROR|DETAIL|HINT):")

# value classes compared by shape, most specific first
SHAPES = [
    (r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d(?::\d\d)?)?",
     r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d(?::\d\d)?)?"),
    (r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b",
     r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
    (r"\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b", r"[0-7][0-9A-HJKMNP-TV-Z]{25}"),
    (r"\b[0-7][0-9a-hjkmnp-tv-z]{25}\b", r"[0-7][0-9a-hjkmnp-tv-z]{25}"),
    (r"(?<![0-9A-Za-z])[0-9A-Za-z]{20,}(?![0-9A-Za-z])", None),  # Base62 of the same length
    (r"-?\b\d+\b", r"-?\d+"),
]
SHAPE_RE = re.compile("|".join("(%s)" % s for s, _ in SHAPES))


class ParseError(Exception):
    pass


class Stmt:
    def __init__(self, line):
        self.line = line          # line in README.md where it starts
        self.sql = []             # its lines, without trailing comments
        self.trailing = []        # trailing comments, in order
        self.after = []           # comment / output lines right after it
        self.closed = False
        self.transcript = False   # from a "=# " transcript block

    def text(self):
        return "\n".join(self.sql).strip()


class Block:
    def __init__(self, line, kind, section, lines):
        self.line, self.kind, self.section, self.lines = line, kind, section, lines
        self.skip = None
        self.needs = None
        self.setup = []


def parse_readme(path):
    """The README's checkable blocks, with their markers and sections."""
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    blocks, pending, section, i, others = [], [], 0, 0, {}
    while i < len(lines):
        line = lines[i]
        if re.match(r"^#{1,3} ", line):
            section += 1
            pending = []
        elif line.lstrip().startswith("<!--") and "readme-check" in line:
            j = i
            chunk = line
            while "-->" not in chunk and j + 1 < len(lines):
                j += 1
                chunk += "\n" + lines[j]
            for m in MARKER.finditer(chunk):
                pending.append(m.group(1))
            i = j
        elif FENCE.match(line):
            indent, ticks, info = FENCE.match(line).groups()
            info = info.strip().split()[0].lower() if info.strip() else ""
            j = i + 1
            while j < len(lines) and not re.match(r"^ *%s`*\s*$" % ticks, lines[j]):
                j += 1
            body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:j]]
            kind = None
            if info in SQL_INFO:
                kind = "sql"
            elif info in ("", "psql") and body and PROMPT.match(body[0]):
                kind = "transcript"
            else:
                others[info or "plain"] = others.get(info or "plain", 0) + 1
            if kind:
                b = Block(i + 1, kind, section, body)
                for m in pending:
                    if m.startswith("skip"):
                        b.skip = m[4:].strip().strip("()") or "no reason given"
                    elif m.startswith("needs PostgreSQL"):
                        b.needs = int(m.split()[-1])
                    elif m.startswith("setup"):
                        b.setup.append(m[5:].strip())
                    else:
                        raise ParseError("line %d: unknown readme-check marker: %s" % (i + 1, m))
                blocks.append(b)
            elif pending:
                raise ParseError("line %d: readme-check marker before a block that is not SQL" % (i + 1))
            pending = []
            i = j
        elif line.strip():
            if pending and not line.lstrip().startswith("<!--"):
                raise ParseError("line %d: readme-check marker not right before a block" % (i + 1))
        i += 1
    return blocks, others


def split_code(line, q=None):
    """(code, trailing comment or None, ends a statement, quote state) of one
    SQL line; q is the quote ("'", '"' or a $tag$) open at its start."""
    k = 0
    while k < len(line):
        c = line[k]
        if q:
            if line.startswith(q, k):
                k += len(q)
                q = None
                continue
        elif c in "'\"":
            q = c
        elif c == "$" and DOLLAR.match(line, k):
            q = DOLLAR.match(line, k).group(0)
            k += len(q)
            continue
        elif line.startswith("--", k):
            code = line[:k].rstrip()
            return code, line[k + 2:].strip(), code.endswith(";"), None
        k += 1
    code = line.rstrip()
    return code, None, code.endswith(";") and q is None, q


def parameters(sql):
    """Does the statement use $1, $2 ... (outside quotes)?"""
    q, bare = None, []
    for l in sql.split("\n"):
        code, _, _, q2 = split_code(l, q)
        if q is None and q2 is None:
            bare.append(re.sub(r"'[^']*'|\$(\w*)\$.*?\$\1\$", "", code))
        q = q2
    return re.search(r"\$\d", "\n".join(bare)) is not None


def parse_sql_block(b):
    stmts, cur, gap, q = [], None, False, None
    for n, raw in enumerate(b.lines):
        lineno = b.line + 1 + n
        stripped = raw.strip()
        if q is not None:          # inside a string or $$ body
            code, comment, ends, q = split_code(raw, q)
            cur.sql.append(code)
            cur.closed = ends
            continue
        if not stripped:
            gap = True
            continue
        if stripped.startswith("\\") and (cur is None or cur.closed):
            cur = Stmt(lineno)     # a psql meta-command: one line
            cur.sql.append(stripped)
            cur.closed = True
            stmts.append(cur)
            gap = False
            continue
        if stripped.startswith("--"):
            if cur and cur.closed and not gap:
                a = stripped[2:].rstrip()
                cur.after.append(a[1:] if a.startswith(" ") else a)
            continue
        code, comment, ends, q = split_code(raw)
        if cur is None or cur.closed:
            cur = Stmt(lineno)
            stmts.append(cur)
        gap = False
        cur.sql.append(code)
        if comment is not None:
            cur.trailing.append(comment)
        if ends:
            cur.closed = True
    for s in stmts:
        # "-- ... text" is commentary and ends the output
        out = []
        for a in s.after:
            if a.strip().startswith("...") and a.strip() != "...":
                break
            out.append(a)
        s.after = out
    return stmts


def parse_transcript(b):
    stmts, cur = [], None
    q = None
    for n, raw in enumerate(b.lines):
        m = PROMPT.match(raw)
        if m and m.group(1) == "=":
            code, comment, ends, q = split_code(raw[m.end():])
            cur = Stmt(b.line + 1 + n)
            cur.sql.append(code)
            cur.closed = ends
            stmts.append(cur)
        elif m and cur is not None and not cur.closed:
            code, comment, ends, q = split_code(raw[m.end():], q)
            cur.sql.append(code)
            cur.closed = ends
        elif cur is not None:
            cur.after.append(raw.rstrip())
    for s in stmts:
        s.transcript = True
    return stmts


def expected_form(s):
    """(format, expected lines) of a statement, or (None, None)."""
    after = [a for a in s.after]
    while after and after[-1] == "":
        after.pop()
    if after and ERROR_LINE.match(after[0]):
        return "error", after
    if len(after) >= 2 and TABLE_RULE.match(after[1]):
        return "aligned", after
    if after and after[0].startswith("-[ RECORD"):
        return "expanded", after
    if not RETURNS_ROWS.search(s.text()):
        return None, None
    if after:
        return "plain", after
    if s.trailing and not s.transcript:
        return "plain", ["|".join(s.trailing)]
    return None, None


def norm(line):
    line = re.sub(r"-{2,}", "-", line.strip())
    return re.sub(r"\s+", " ", line)


def line_regex(doc, by_shape):
    """A regex for one documented output line."""
    prefix = doc.endswith("...") and doc != "..."
    if prefix:
        doc = doc[:-3]
    out, pos = [], 0
    if by_shape:
        for m in SHAPE_RE.finditer(doc):
            out.append(re.escape(doc[pos:m.start()]))
            tok = m.group(0)
            for k, (_, rx) in enumerate(SHAPES):
                if m.group(k + 1) is not None:
                    out.append(rx if rx else "[0-9A-Za-z]{%d}" % len(tok))
                    break
            pos = m.end()
    out.append(re.escape(doc[pos:]))
    rx = "".join(out).replace(r"\ ", " ")
    return rx + ".*" if prefix else rx


def value_regex(doc, by_shape, plain):
    """A regex for one documented output line; in the plain form the value
    may be followed by commentary after two spaces, " (" or ": "."""
    cands = [doc]
    if plain:
        cands += [doc[:m.start()].rstrip() for m in re.finditer(r" {2,}| \(|: ", doc) if m.start() > 0]
    return "(?:%s)" % "|".join(line_regex(norm(c), by_shape) for c in cands)


def matches(fmt, doc, actual, by_shape):
    """Does the actual output (lines) match the documented lines?"""
    if fmt == "error":
        actual = [a for a in actual if ERROR_LINE.match(a)]
        doc = [d for d in doc if d != "..."]
        return [norm(a) for a in actual] == [norm(d) for d in doc]
    parts = []
    for d in doc:
        if d.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*")
        else:
            parts.append(value_regex(d.strip(), by_shape, fmt == "plain") + r"\n")
    text = "".join(norm(a) + "\n" for a in actual)
    return re.fullmatch("".join(parts), text, re.S) is not None


class Runner:
    def __init__(self, args):
        self.args = args
        self.base = [args.psql, "-X", "-q", "-h", args.host, "-p", str(args.port), "-U", "postgres"]

    def admin(self, sql):
        p = subprocess.run(self.base + ["-d", "postgres", "-v", "ON_ERROR_STOP=1", "-Atc", sql],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise SystemExit("readme check: %s: %s" % (sql, p.stderr.strip()))
        return p.stdout

    def run_block(self, db, b, stmts):
        """Run a block's statements in one session; actual output per statement."""
        marker = "@@readme-check-%d@@" % os.getpid()
        script = ["\\set VERBOSITY default", "\\set SHOW_CONTEXT never"]
        for sql in b.setup:
            script += ["\\set ON_ERROR_STOP 1", sql.rstrip().rstrip(";") + ";", "\\set ON_ERROR_STOP 0"]
        script.append("\\echo %s setup" % marker)
        for k, s in enumerate(stmts):
            fmt, _ = expected_form(s)
            if fmt in ("aligned", "expanded"):
                script += ["\\pset format aligned", "\\pset tuples_only off", "\\pset footer off",
                           "\\pset null ''", "\\x %s" % ("on" if fmt == "expanded" else "off")]
            else:
                script += ["\\pset format unaligned", "\\pset tuples_only on", "\\pset null NULL",
                           "\\x off"]
            sql = s.text()
            if parameters(sql) and PREPARABLE.match(sql):
                sql = "PREPARE readme_check_%d AS %s" % (k, sql)
            script += ["\\echo %s %d" % (marker, k), sql]
        script.append("\\echo %s end" % marker)
        # one stream, in order: stderr joins stdout (psql flushes stdout
        # before it writes a message to stderr)
        try:
            p = subprocess.run(self.base + ["-d", db, "-v", "ON_ERROR_STOP=0", "-f", "-"],
                               input="\n".join(script) + "\n", stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=120,
                               env=dict(os.environ, PGOPTIONS="-c client_min_messages=warning "
                                        "-c statement_timeout=30s"))
            stdout = p.stdout
        except subprocess.TimeoutExpired as e:
            stdout = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            stdout += "\nERROR:  readme check: the block did not finish in 120 s"
        out = {}
        key = None
        setup_out = []
        for line in stdout.split("\n"):
            if line.startswith(marker):
                key = line[len(marker) + 1:]
                continue
            line = re.sub(r"^psql:[^:]*:\d+: ", "", line).rstrip()
            if key is None:
                setup_out.append(line)
            elif key not in ("setup", "end"):
                out.setdefault(int(key), []).append(line)
        for k in range(len(stmts)):
            lines = out.get(k, [])
            while lines and lines[-1] == "":
                lines.pop()
            out[k] = lines
        setup_err = [l for l in setup_out if ERROR_LINE.match(l)]
        return out, setup_err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--psql", required=True)
    ap.add_argument("--host", required=True)
    ap.add_argument("--port", required=True)
    ap.add_argument("--server-version", type=int, default=0)
    ap.add_argument("readme", nargs="?",
                    default=os.path.join(os.path.dirname(__file__), "..", "..", "README.md"))
    args = ap.parse_args()
    start = time.time()
    name = os.path.basename(args.readme)
    prefix = re.sub(r"\W", "_", os.path.splitext(name)[0]).lower()
    try:
        blocks, others = parse_readme(args.readme)
    except ParseError as e:
        print("not ok - readme: %s: %s" % (os.path.basename(args.readme), e))
        return 1
    r = Runner(args)
    version = args.server_version or int(r.admin("SHOW server_version_num")) // 10000
    template = prefix + "_template"
    r.admin("CREATE DATABASE %s" % template)
    subprocess.run(r.base + ["-d", template, "-qc", "CREATE EXTENSION ulid"], check=True)

    sections_bare = set()
    for b in blocks:
        if not b.skip and any(re.search(r"\bCREATE\s+EXTENSION\s+ulid\b", l, re.I) for l in b.lines):
            sections_bare.add(b.section)

    passed = failed = skipped = 0
    made = set()
    for b in blocks:
        where = "%s:%d" % (name, b.line)
        if b.skip:
            skipped += 1
            print("# skip - readme: block at %s: %s" % (where, b.skip))
            continue
        if b.needs and version < b.needs:
            skipped += 1
            print("# skip - readme: block at %s: needs PostgreSQL %d (server is %d)" % (where, b.needs, version))
            continue
        db = "%s_s%d" % (prefix, b.section)
        if db not in made:
            tmpl = "template0" if b.section in sections_bare else template
            r.admin("CREATE DATABASE %s TEMPLATE %s" % (db, tmpl))
            made.add(db)
        stmts = parse_transcript(b) if b.kind == "transcript" else parse_sql_block(b)
        out, setup_err = r.run_block(db, b, stmts)
        problems = []
        if setup_err:
            problems.append("setup of the block failed:\n  " + "\n  ".join(setup_err))
        compared = 0
        for k, s in enumerate(stmts):
            fmt, doc = expected_form(s)
            actual = out[k]
            errored = any(l.startswith("ERROR:") for l in actual)
            if fmt is None:
                if errored:
                    problems.append("line %d: %s\nfails, and the README shows no error:\n  %s"
                                    % (s.line, s.text(), "\n  ".join(actual)))
                continue
            compared += 1
            by_shape = bool(VOLATILE.search(s.text()) or READS_TABLE.search(s.text()))
            if fmt == "error" and not errored:
                ok_ = False
            elif fmt != "error" and errored:
                ok_ = False
            else:
                ok_ = matches(fmt, doc, actual, by_shape)
            if not ok_:
                if fmt == "error" and errored:
                    actual = [a for a in actual if ERROR_LINE.match(a)]
                diff = difflib.unified_diff(doc, actual, "%s:%d" % (name, s.line), "server", lineterm="", n=2)
                problems.append("line %d: %s\noutput differs%s:\n  %s"
                                % (s.line, s.text(), " (compared by shape)" if by_shape else "",
                                   "\n  ".join(list(diff)[2:])))
        desc = "readme: block at %s (%d statements, %d outputs compared)" % (where, len(stmts), compared)
        if problems:
            failed += 1
            print("not ok - " + desc)
            for pr in problems:
                for l in pr.split("\n"):
                    print("#   " + l)
        else:
            passed += 1
            print("ok - " + desc)
    print("# readme: %s: not SQL, not run: %s" % (name, ", ".join(
        "%d %s" % (n, k) for k, n in sorted(others.items())) or "none"))
    print("# readme: %s: %d blocks checked (%d passed, %d failed), %d skipped, in %.1f s"
          % (name, passed + failed, passed, failed, skipped, time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
