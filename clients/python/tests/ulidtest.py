"""Shared by the tests of ulid_pg (clients/python/tests): result lines and
the connection settings.

Each test program connects to 127.0.0.1 at $PGPORT, database $PGDATABASE (made
by test/scenarios/client_python.sh, with the ulid extension), and prints one
"ok - ..." or "not ok - ..." line per check.  A check that raises is a "not
ok" line with the error, and the next check still runs.
"""
import os
import re
import sys
import traceback

KNOWN = '01HTQW311N1KR5G0Y75M3EF00H'
KNOWN_HEX = '018eafc184350cf05803c72d06e78011'
KNOWN_UUID = '018eafc1-8435-0cf0-5803-c72d06e78011'
ULID_TEXT = re.compile(r'^[0-7][0-9A-HJKMNP-TV-Z]{25}$')

HOST = '127.0.0.1'
PORT = int(os.environ.get('PGPORT', '5432'))
DBNAME = os.environ.get('PGDATABASE', 'postgres')
USER = 'postgres'
DSN = f'host={HOST} port={PORT} dbname={DBNAME} user={USER}'


def sqlstate_of(err):
    """The SQLSTATE of a driver's exception, or of the one it wraps."""
    while err is not None:
        code = getattr(err, 'pgcode', None) or getattr(err, 'sqlstate', None)
        if code:
            return code
        err = err.__cause__
    return None


class Checks:
    def __init__(self, name):
        self.name = name
        self.failed = 0

    def ok(self, desc, passed, detail=''):
        if passed:
            print(f'ok - {desc}', flush=True)
        else:
            self.failed += 1
            print(f'not ok - {desc}' + (f' ({detail})' if detail else ''), flush=True)
        return passed

    def expect(self, desc, expected, fn):
        """ok when fn() returns expected"""
        try:
            got = fn()
        except Exception as e:  # the check fails, the program goes on
            return self.ok(desc, False, f'{type(e).__name__}: {str(e).strip()}')
        return self.ok(desc, got == expected, f'expected {expected!r}, got {got!r}')

    def expect_true(self, desc, fn):
        """ok when fn() returns a true value"""
        return self.expect(desc, True, lambda: bool(fn()))

    def expect_error(self, desc, sqlstate, fn, pattern=None):
        """ok when fn() raises an error of that SQLSTATE (whose text matches
        the regular expression pattern, if given); returns the error"""
        try:
            fn()
        except Exception as e:
            code = sqlstate_of(e)
            text = str(e)
            cause = e.__cause__
            while cause is not None:
                text += '\n' + str(cause)
                cause = cause.__cause__
            passed = code == sqlstate and (pattern is None or re.search(pattern, text) is not None)
            self.ok(desc, passed, f'{type(e).__name__} {code}: {text.strip()}')
            return e
        self.ok(desc, False, f'no error, expected SQLSTATE {sqlstate}')
        return None

    def finish(self):
        sys.exit(1 if self.failed else 0)

    def run(self, main):
        """run main(self); an exception outside a check is a failure"""
        try:
            main(self)
        except Exception:
            self.ok(f'{self.name} ran to the end', False, traceback.format_exc().replace('\n', ' | '))
        self.finish()


# Issue 43: an adapter changes nothing but ulid values.  Each case is
# (column, value) for the table made by UNTOUCHED_TABLE: UUIDs (one whose
# bytes are ASCII, one that is not UTF-8), a UUID's text and a ULID's text
# to uuid, text and varchar columns, and bytes to bytea.
UNTOUCHED_TABLE = 'CREATE TABLE untouched (u uuid, t text, v varchar, b bytea)'
_ASCII_UUID = '41424344-4546-4748-494a-4b4c4d4e4f50'
_RANDOM_UUID = 'c9a646d3-9c61-4cb7-bfcd-ee2522c8f633'


def untouched_cases(uuid_class=None):
    """the cases; uuid_class is the stack's UUID type (None: uuid.UUID)"""
    import uuid
    make = uuid_class or uuid.UUID
    cases = []
    for col in 'utv':
        cases += [(col, make(_ASCII_UUID)), (col, make(_RANDOM_UUID)), (col, KNOWN_UUID)]
    cases += [('t', KNOWN), ('v', KNOWN.lower()), ('b', bytes.fromhex(KNOWN_HEX)), ('b', b'ABCDEFGHIJKLMNOP')]
    return cases


def untouched_rows(store, cases=None):
    """store(column, value) inserts one value and returns what the column
    then holds, as text; a case that raises gives its SQLSTATE (or the
    exception's class), so that errors compare too"""
    out = []
    for col, value in cases or untouched_cases():
        try:
            out.append(store(col, value))
        except Exception as e:
            out.append(f'error {sqlstate_of(e) or type(e).__name__}')
    return out


# what every stack stores without an adapter, for untouched_cases()
UNTOUCHED_EXPECTED = [_ASCII_UUID, _RANDOM_UUID, KNOWN_UUID] * 3 + [KNOWN, KNOWN.lower(), KNOWN_HEX, b'ABCDEFGHIJKLMNOP'.hex()]


def untouched_sql(col):
    """the INSERT for store(): returns the stored value as text (bytea as hex)"""
    out = 'encode(b, \'hex\')' if col == 'b' else f'{col}::text'
    return f'INSERT INTO untouched ({col}) VALUES (%s) RETURNING {out}'
