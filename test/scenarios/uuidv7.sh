#!/usr/bin/env bash
# gen_uuidv7() in one session while the wall clock steps back 30 s (through
# the ulid.clock_offset_ms test hook): a million ids issued on the last tick
# before the step stay strictly increasing, by random steps of the 62-bit
# tail that overflow into the 12-bit fraction several times, and the ids
# follow the clock again once it is back.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=uuidv7
if ! pg_new $S || ! pg_start $S; then
	not_ok "uuidv7: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"

# tick(u): ms * 4096 + the 12-bit fraction; tail_lo(u): the last byte
psqlx $S <<'EOF_SQL'
CREATE FUNCTION tick(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT (h >> 16) * 4096 + (h & 4095)
    FROM (SELECT ('x' || substr(replace(u::text, '-', ''), 1, 16))::bit(64)::bigint AS h) s $$;
EOF_SQL

# One session: 100k ids on the real clock, the clock 30 s back (the session
# sees the reload before its next statement), 1M ids, the clock restored, 1k ids.
res=$(psqlx $S <<'EOF_SQL'
CREATE TEMP TABLE b (n serial, phase int, u uuid);
INSERT INTO b (phase, u) SELECT 0, gen_uuidv7() FROM generate_series(1, 100000);
ALTER SYSTEM SET ulid.clock_offset_ms = -30000;
SELECT pg_reload_conf() \g /dev/null
SELECT pg_sleep(1) \g /dev/null
SELECT current_setting('ulid.clock_offset_ms');
INSERT INTO b (phase, u) SELECT 1, gen_uuidv7() FROM generate_series(1, 1000000);
ALTER SYSTEM RESET ulid.clock_offset_ms;
SELECT pg_reload_conf() \g /dev/null
SELECT pg_sleep(1) \g /dev/null
SELECT current_setting('ulid.clock_offset_ms');
INSERT INTO b (phase, u) SELECT 2, gen_uuidv7() FROM generate_series(1, 1000);
WITH s AS (SELECT n, phase, u, lag(u) OVER (ORDER BY n) AS prev FROM b),
     last0 AS (SELECT max(tick(u)) AS t FROM b WHERE phase = 0)
SELECT count(*), count(DISTINCT u),
       count(*) FILTER (WHERE u <= prev),
       count(*) FILTER (WHERE substr(u::text, 15, 1) <> '7' OR substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')),
       -- behind: every id on the last tick before the step or a few ticks above
       (SELECT min(tick(u)) - t FROM b, last0 WHERE phase = 1 GROUP BY t),
       (SELECT count(DISTINCT tick(u)) FROM b WHERE phase = 1),
       (SELECT max(tick(u)) - t FROM b, last0 WHERE phase = 1 GROUP BY t),
       -- the steps are random: the last byte moves by many different amounts
       (SELECT count(DISTINCT (get_byte(uuid_send(u), 15) - get_byte(uuid_send(prev), 15) + 256) % 256)
        FROM s WHERE phase = 1 AND prev IS NOT NULL),
       -- restored: the ids are on the current time again
       (SELECT bool_and(ulid_time(u::ulid) BETWEEN now() - interval '10 s' AND clock_timestamp()) FROM b WHERE phase = 2)
FROM s;
EOF_SQL
)
{
	read -r offset_behind
	read -r offset_restored
	IFS='|' read -r n ndistinct bad notv7 first_above nticks last_above steps on_time
} <<<"$res"
check "uuidv7: the session sees the clock 30 s behind" -30000 "$offset_behind"
check "uuidv7: and back" 0 "$offset_restored"
check "uuidv7: 1.101M ids" 1101000 "$n"
check "uuidv7: no duplicate" 1101000 "$ndistinct"
check "uuidv7: strictly increasing across both clock steps" 0 "$bad"
check "uuidv7: version 7 and the RFC variant" 0 "$notv7"
check "uuidv7: clock behind: the first id stays on the last tick before the step" 0 "$first_above"
if [ "$nticks" -ge 3 ] && [ "$last_above" -ge 2 ] && [ "$last_above" -le 50 ]; then
	ok "uuidv7: clock behind: the 62-bit tail overflowed into the fraction ($nticks ticks, up to $last_above/4096 ms ahead)"
else
	not_ok "uuidv7: clock behind: the 62-bit tail overflowed into the fraction (got $nticks ticks, up to $last_above ahead)"
fi
if [ "$steps" -ge 200 ]; then
	ok "uuidv7: clock behind: random steps ($steps different last-byte differences)"
else
	not_ok "uuidv7: clock behind: random steps (only $steps different last-byte differences)"
fi
check "uuidv7: clock restored: the ids are on the current time again" t "$on_time"

pg_stop $S
