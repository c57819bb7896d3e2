-- The per-backend generators: gen_ulid(), gen_random_ulid(), gen_ulid(timestamptz).

-- gen_ulid() is strictly increasing over 100k calls in one session
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, gen_ulid() AS u FROM generate_series(1, 100000) g) s) t;

-- ... and across statements of the session
CREATE TEMP TABLE gen_t (n serial, u ulid DEFAULT gen_ulid());
INSERT INTO gen_t DEFAULT VALUES;
INSERT INTO gen_t DEFAULT VALUES;
INSERT INTO gen_t (u) SELECT gen_ulid() FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM gen_t) s;

-- the time part is the current time (to the millisecond)
SELECT ulid_time(u) BETWEEN date_trunc('milliseconds', t0) AND clock_timestamp() AS time_now
FROM (SELECT clock_timestamp() AS t0) a, LATERAL (SELECT gen_ulid() AS u) b;
SELECT ulid_time(u) BETWEEN date_trunc('milliseconds', t0) AND clock_timestamp() AS random_time_now
FROM (SELECT clock_timestamp() AS t0) a, LATERAL (SELECT gen_random_ulid() AS u) b;

-- within one millisecond the steps are random, not +1: the differences of
-- the last byte between consecutive ids take many values
SELECT count(DISTINCT (get_byte(ulid_to_bytea(u), 15) - get_byte(ulid_to_bytea(prev), 15) + 256) % 256) > 100 AS random_steps
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, gen_ulid() AS u FROM generate_series(1, 5000) g) s) t
WHERE ulid_unix_ms(u) = ulid_unix_ms(prev);

-- the 12 bits after the millisecond are the clock's fraction of it (1.3):
-- each id's tick (ms * 4096 + fraction) lies between clock readings taken
-- right before and after it (1.2's random start lands there about 1% of
-- the time)
CREATE FUNCTION pg_temp.tick(u ulid) RETURNS bigint LANGUAGE sql IMMUTABLE
    RETURN ulid_unix_ms(u) * 4096 + ((get_byte(ulid_to_bytea(u), 6) << 4) | (get_byte(ulid_to_bytea(u), 7) >> 4));
CREATE FUNCTION pg_temp.fraction_is_clock(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    t0 numeric; t1 numeric; u ulid; hits int := 0;
BEGIN
    FOR i IN 1..n LOOP
        t0 := extract(epoch FROM clock_timestamp()) * 1000000;
        u := gen_ulid();
        t1 := extract(epoch FROM clock_timestamp()) * 1000000;
        IF pg_temp.tick(u) BETWEEN floor(t0 * 4.096) AND ceil((t1 + 1) * 4.096) THEN
            hits := hits + 1;
        END IF;
        PERFORM pg_sleep(0.0002);
    END LOOP;
    RETURN hits;
END $$;
SELECT pg_temp.fraction_is_clock(50) AS fraction_is_clock_of_50;

-- a new tick starts with 68 random bits: the top one is set in about half
SELECT count(*) >= 200 AND avg((get_byte(ulid_to_bytea(u), 7) & 8 <> 0)::int) BETWEEN 0.35 AND 0.65
       AS top_random_bit_random
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, gen_ulid() AS u FROM generate_series(1, 20000) g) s) t
WHERE prev IS NULL OR pg_temp.tick(u) > pg_temp.tick(prev);

-- gen_random_ulid(): 80 fresh bits each call, so the randomness has no order
SELECT count(DISTINCT u) AS distinct_random FROM
    (SELECT gen_random_ulid() AS u FROM generate_series(1, 10000)) s;
SELECT count(*) FILTER (WHERE get_byte(ulid_to_bytea(u), 6) >= 128) BETWEEN 4000 AND 6000 AS top_bit_random
FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 10000)) s;

-- gen_ulid(at): stamped with the given time, random, and leaves gen_ulid()'s order alone
SELECT ulid_time(gen_ulid('2001-02-03 04:05:06.789Z')) AS back_filled;
SELECT count(DISTINCT gen_ulid('2001-02-03 04:05:06.789Z')) AS distinct_at FROM generate_series(1, 1000);
SELECT a < c AS order_kept_across_gen_ulid_at
FROM (SELECT gen_ulid() AS a) x, LATERAL (SELECT gen_ulid('1990-01-01Z') AS b) y,
     LATERAL (SELECT gen_ulid() AS c) z;
SELECT gen_ulid(NULL) IS NULL AS strict_at;

-- the byte distribution of the random part is roughly uniform
SELECT min(c) > 9000 * 0.85 AND max(c) < 9000 * 1.15 AS uniform_bytes
FROM (SELECT get_byte(ulid_random(u), i) AS b, count(*) AS c
      FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 230400)) s,
           generate_series(0, 9) i
      GROUP BY 1) t;
