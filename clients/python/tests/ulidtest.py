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
