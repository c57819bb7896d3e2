-- The ulid.* settings of a server configured as test/run's: ulid preloaded,
-- every setting at its default, so no node id.  Against another server
-- (`make installcheck`) this file reports a skip (expected/settings_1.out).
SELECT lacks('preload', 'default settings') AS lacks \gset
\if :{?lacks}
\echo skipped: needs shared_preload_libraries = ulid and every ulid.* setting at its default (test/README.md)
\quit
\endif

-- no node id: snowflake_next(layout) and cosid80_next() refuse with 55000,
-- and the hint names the setting
SELECT current_setting('ulid.node_id') AS node_id;
SELECT err($$SELECT snowflake_next('twitter')$$) AS no_node;
SELECT hint($$SELECT snowflake_next('twitter')$$) AS no_node_hint;
SELECT err($$SELECT cosid80_next()$$) AS cosid80_no_node;
SELECT hint($$SELECT cosid80_next()$$) AS cosid80_no_node_hint;
-- an explicit NULL node is the server's node, for both
SELECT err($$SELECT snowflake_next('twitter', NULL)$$) AS null_node,
       err($$SELECT cosid80_next(NULL)$$) AS cosid80_null_node;

-- the Snowflake settings: defaults, and ulid.node_id is for postgresql.conf
-- or ALTER SYSTEM
SELECT current_setting('ulid.clock_borrow_ms') AS clock_borrow_ms,
       current_setting('ulid.clock_wait_ms') AS clock_wait_ms;
SELECT err($$SELECT set_config('ulid.node_id', '1', false)$$) AS set_node_id;
-- SET and RESET in a session: core's 55P02, with the fix as the hint
SELECT err($$SET ulid.node_id = 3$$) AS set_in_session, hint($$SET ulid.node_id = 3$$) AS set_hint,
       hint($$RESET ulid.node_ids$$) AS reset_hint;
-- (the range at the end of the message is written with units from 17 on)
SELECT regexp_replace(err($$SET ulid.clock_borrow_ms = -1$$), ' \(0( ms)? \.\. 3600000( ms)?\)$', '')
       AS negative_borrow;
SELECT name, setting, unit, context, min_val, max_val FROM pg_settings
WHERE name IN ('ulid.node_id', 'ulid.clock_borrow_ms', 'ulid.clock_wait_ms') ORDER BY name;

-- the shared state's settings: the capacity exists (preloaded here); the
-- clock offset is a SIGHUP setting (ALTER SYSTEM; tested in
-- test/scenarios/monotonic.sh); the ulid. prefix is reserved
SELECT current_setting('ulid.max_generator_states') AS max_generator_states,
       current_setting('ulid.max_states_per_role') AS max_states_per_role,
       current_setting('ulid.clock_offset_ms') AS clock_offset_ms;
SELECT err($$SELECT set_config('ulid.max_states_per_role', '1', false)$$) AS set_role_quota;
SELECT err($$SELECT set_config('ulid.clock_offset_ms', '-1000', false)$$) AS set_offset;
SELECT err($$SELECT set_config('ulid.max_generator_states', '10', false)$$) AS set_capacity;
SELECT err($$SELECT set_config('ulid.no_such_setting', '1', false)$$) AS reserved_prefix;
