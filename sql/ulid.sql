-- ulid: the hand-edited install script of the current version (the
-- control file's default_version).  The Makefile copies it to
-- ulid--<version>.sql.  Every change here also goes into that version's
-- frozen upgrade script ulid--A--B.sql, so that ALTER EXTENSION ulid UPDATE
-- lands where a fresh install does (test/scenarios/upgrade.sh checks it).
\echo Use "CREATE EXTENSION ulid" to load this file. \quit

-----------------------------------------------------------------------------
-- The ulid type
-----------------------------------------------------------------------------

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_out(ulid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'ulid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- Binary output, comparison and hashing reuse core's uuid functions: the
-- bytes are identical, so is the behaviour.  Sortsupport is our own (an
-- abbreviated key that sees past the first 8 bytes: src/core/sortkey.h).
-- Binary input is our own only to check the length (22P03 naming it, where
-- uuid_recv calls a short value a protocol violation).
CREATE FUNCTION ulid_recv(internal) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_send(ulid) RETURNS bytea
    AS 'uuid_send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain,
    CATEGORY = 'U'
);

COMMENT ON TYPE ulid IS 'ULID: 48-bit Unix-ms time and 80 random bits, 16 bytes, Crockford Base32 text';
COMMENT ON FUNCTION ulid_in(cstring) IS 'text input of ulid (26 Crockford Base32 characters)';
COMMENT ON FUNCTION ulid_out(ulid) IS 'text output of ulid (26 uppercase characters)';
COMMENT ON FUNCTION ulid_recv(internal) IS 'binary input of ulid (the raw 16 bytes; any other length is 22P03)';
COMMENT ON FUNCTION ulid_send(ulid) IS 'binary output of ulid (the raw 16 bytes)';

-----------------------------------------------------------------------------
-- Comparison functions and operators
-----------------------------------------------------------------------------

CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS boolean
    AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS boolean
    AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS boolean
    AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le(ulid, ulid) RETURNS boolean
    AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS boolean
    AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS boolean
    AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS integer
    AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_hash(ulid) RETURNS integer
    AS 'uuid_hash' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_hash_extended(ulid, bigint) RETURNS bigint
    AS 'uuid_hash_extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS 'equal';
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS 'not equal';
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS 'less than';
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS 'less than or equal';
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS 'greater than';
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS 'greater than or equal';
COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS 'btree comparison: -1, 0 or 1 (byte order = time order)';
COMMENT ON FUNCTION ulid_sortsupport(internal) IS 'btree sort support: byte order, with abbreviated keys that skip the leading zero bits of the time to hold random bits past the first 8 bytes';
COMMENT ON FUNCTION ulid_hash(ulid) IS 'hash of the 16 bytes (core uuid_hash)';
COMMENT ON FUNCTION ulid_hash_extended(ulid, bigint) IS 'seeded 64-bit hash of the 16 bytes, for hash partitioning (core uuid_hash_extended)';

CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON OPERATOR = (ulid, ulid) IS 'equal';
COMMENT ON OPERATOR <> (ulid, ulid) IS 'not equal';
COMMENT ON OPERATOR < (ulid, ulid) IS 'less than';
COMMENT ON OPERATOR <= (ulid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR > (ulid, ulid) IS 'greater than';
COMMENT ON OPERATOR >= (ulid, ulid) IS 'greater than or equal';

-----------------------------------------------------------------------------
-- Comparison with uuid
-----------------------------------------------------------------------------

-- ulid and uuid compare as their bytes (core's uuid functions again), so a
-- uuid-typed parameter, which is what drivers send for UUID objects, finds
-- ulid rows through their indexes: the operators below are members of the
-- default btree and hash families of ulid.  Storing a uuid into a ulid
-- column is the assignment cast's (since 1.3).
CREATE FUNCTION ulid_eq_uuid(ulid, uuid) RETURNS boolean
    AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne_uuid(ulid, uuid) RETURNS boolean
    AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt_uuid(ulid, uuid) RETURNS boolean
    AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le_uuid(ulid, uuid) RETURNS boolean
    AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt_uuid(ulid, uuid) RETURNS boolean
    AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge_uuid(ulid, uuid) RETURNS boolean
    AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp_uuid(ulid, uuid) RETURNS integer
    AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_eq_ulid(uuid, ulid) RETURNS boolean
    AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ne_ulid(uuid, ulid) RETURNS boolean
    AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_lt_ulid(uuid, ulid) RETURNS boolean
    AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_le_ulid(uuid, ulid) RETURNS boolean
    AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_gt_ulid(uuid, ulid) RETURNS boolean
    AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ge_ulid(uuid, ulid) RETURNS boolean
    AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_cmp_ulid(uuid, ulid) RETURNS integer
    AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION ulid_eq_uuid(ulid, uuid) IS 'equal, comparing the bytes';
COMMENT ON FUNCTION ulid_ne_uuid(ulid, uuid) IS 'not equal, comparing the bytes';
COMMENT ON FUNCTION ulid_lt_uuid(ulid, uuid) IS 'less than, comparing the bytes';
COMMENT ON FUNCTION ulid_le_uuid(ulid, uuid) IS 'less than or equal, comparing the bytes';
COMMENT ON FUNCTION ulid_gt_uuid(ulid, uuid) IS 'greater than, comparing the bytes';
COMMENT ON FUNCTION ulid_ge_uuid(ulid, uuid) IS 'greater than or equal, comparing the bytes';
COMMENT ON FUNCTION ulid_cmp_uuid(ulid, uuid) IS 'btree cross-type comparison with uuid: -1, 0 or 1 (byte order)';
COMMENT ON FUNCTION uuid_eq_ulid(uuid, ulid) IS 'equal, comparing the bytes';
COMMENT ON FUNCTION uuid_ne_ulid(uuid, ulid) IS 'not equal, comparing the bytes';
COMMENT ON FUNCTION uuid_lt_ulid(uuid, ulid) IS 'less than, comparing the bytes';
COMMENT ON FUNCTION uuid_le_ulid(uuid, ulid) IS 'less than or equal, comparing the bytes';
COMMENT ON FUNCTION uuid_gt_ulid(uuid, ulid) IS 'greater than, comparing the bytes';
COMMENT ON FUNCTION uuid_ge_ulid(uuid, ulid) IS 'greater than or equal, comparing the bytes';
COMMENT ON FUNCTION uuid_cmp_ulid(uuid, ulid) IS 'btree cross-type comparison with ulid: -1, 0 or 1 (byte order)';

CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_eq_uuid,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_ne_uuid,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_lt_uuid,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_le_uuid,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_gt_uuid,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_ge_uuid,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR = (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_eq_ulid,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ne_ulid,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_lt_ulid,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_le_ulid,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_gt_ulid,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ge_ulid,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON OPERATOR = (ulid, uuid) IS 'equal, comparing the bytes';
COMMENT ON OPERATOR <> (ulid, uuid) IS 'not equal, comparing the bytes';
COMMENT ON OPERATOR < (ulid, uuid) IS 'less than, comparing the bytes';
COMMENT ON OPERATOR <= (ulid, uuid) IS 'less than or equal, comparing the bytes';
COMMENT ON OPERATOR > (ulid, uuid) IS 'greater than, comparing the bytes';
COMMENT ON OPERATOR >= (ulid, uuid) IS 'greater than or equal, comparing the bytes';
COMMENT ON OPERATOR = (uuid, ulid) IS 'equal, comparing the bytes';
COMMENT ON OPERATOR <> (uuid, ulid) IS 'not equal, comparing the bytes';
COMMENT ON OPERATOR < (uuid, ulid) IS 'less than, comparing the bytes';
COMMENT ON OPERATOR <= (uuid, ulid) IS 'less than or equal, comparing the bytes';
COMMENT ON OPERATOR > (uuid, ulid) IS 'greater than, comparing the bytes';
COMMENT ON OPERATOR >= (uuid, ulid) IS 'greater than or equal, comparing the bytes';

-----------------------------------------------------------------------------
-- Operator classes: btree, hash, BRIN
-----------------------------------------------------------------------------

CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 ulid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

-- Skip support (btree support function 6) exists from PostgreSQL 18 on.
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 180000 THEN
        EXECUTE $sql$
            CREATE FUNCTION ulid_skipsupport(internal) RETURNS void
                AS 'uuid_skipsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE
        $sql$;
        EXECUTE $sql$
            COMMENT ON FUNCTION ulid_skipsupport(internal) IS 'btree skip support (core uuid_skipsupport)'
        $sql$;
        EXECUTE $sql$
            ALTER OPERATOR FAMILY ulid_ops USING btree
                ADD FUNCTION 6 (ulid) ulid_skipsupport(internal)
        $sql$;
    END IF;
END
$$;

CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ulid_hash(ulid),
    FUNCTION 2 ulid_hash_extended(ulid, bigint);

-- The cross-type operators with uuid join the default btree and hash
-- families, with core's own uuid operators and support functions so that
-- the families are complete (amvalidate() checks every type pair): a btree
-- or hash index on ulid then serves a uuid comparison, a hash join or hash
-- partition pruning hashes the uuid side with uuid_hash, which equals
-- ulid_hash on the same bytes.  uuid's own default families are untouched.
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
    OPERATOR 1 < (ulid, uuid),
    OPERATOR 2 <= (ulid, uuid),
    OPERATOR 3 = (ulid, uuid),
    OPERATOR 4 >= (ulid, uuid),
    OPERATOR 5 > (ulid, uuid),
    FUNCTION 1 (ulid, uuid) ulid_cmp_uuid(ulid, uuid),
    OPERATOR 1 < (uuid, ulid),
    OPERATOR 2 <= (uuid, ulid),
    OPERATOR 3 = (uuid, ulid),
    OPERATOR 4 >= (uuid, ulid),
    OPERATOR 5 > (uuid, ulid),
    FUNCTION 1 (uuid, ulid) uuid_cmp_ulid(uuid, ulid),
    OPERATOR 1 pg_catalog.< (uuid, uuid),
    OPERATOR 2 pg_catalog.<= (uuid, uuid),
    OPERATOR 3 pg_catalog.= (uuid, uuid),
    OPERATOR 4 pg_catalog.>= (uuid, uuid),
    OPERATOR 5 pg_catalog.> (uuid, uuid),
    FUNCTION 1 (uuid, uuid) pg_catalog.uuid_cmp(uuid, uuid);

ALTER OPERATOR FAMILY ulid_ops USING hash ADD
    OPERATOR 1 = (ulid, uuid),
    OPERATOR 1 = (uuid, ulid),
    OPERATOR 1 pg_catalog.= (uuid, uuid),
    FUNCTION 1 (uuid, uuid) pg_catalog.uuid_hash(uuid),
    FUNCTION 2 (uuid, uuid) pg_catalog.uuid_hash_extended(uuid, bigint);

COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'default btree ordering of ulid: byte order = time order, with sortsupport (abbreviated keys) and deduplication';
COMMENT ON OPERATOR FAMILY ulid_ops USING btree IS 'btree ordering of ulid and of uuid (the same bytes, the same order), so a ulid index serves comparisons with a uuid';
COMMENT ON OPERATOR CLASS ulid_ops USING hash IS 'default hash of ulid: hash indexes, hash joins and hash partitioning (extended hash)';
COMMENT ON OPERATOR FAMILY ulid_ops USING hash IS 'hash equality of ulid and of uuid (the same bytes hash alike), so a ulid hash index, hash join or hash partition serves a uuid';

CREATE OPERATOR CLASS ulid_minmax_ops DEFAULT FOR TYPE ulid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal),
    STORAGE ulid;

CREATE OPERATOR CLASS ulid_minmax_multi_ops FOR TYPE ulid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(internal, internal, internal, integer),
    FUNCTION 4 pg_catalog.brin_minmax_multi_union(internal, internal, internal),
    FUNCTION 5 pg_catalog.brin_minmax_multi_options(internal),
    FUNCTION 11 pg_catalog.brin_minmax_multi_distance_uuid(internal, internal),
    STORAGE ulid;

CREATE OPERATOR CLASS ulid_bloom_ops FOR TYPE ulid USING brin AS
    OPERATOR 1 =,
    FUNCTION 1 pg_catalog.brin_bloom_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_bloom_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_bloom_consistent(internal, internal, internal, integer),
    FUNCTION 4 pg_catalog.brin_bloom_union(internal, internal, internal),
    FUNCTION 5 pg_catalog.brin_bloom_options(internal),
    FUNCTION 11 ulid_hash(ulid),
    STORAGE ulid;

COMMENT ON OPERATOR CLASS ulid_minmax_ops USING brin IS 'default BRIN of ulid: the smallest and largest ULID of each block range (time ranges of append-mostly tables)';
COMMENT ON OPERATOR FAMILY ulid_minmax_ops USING brin IS 'BRIN minmax of ulid';
COMMENT ON OPERATOR CLASS ulid_minmax_multi_ops USING brin IS 'BRIN of ulid with several min/max intervals per block range (tolerates out-of-order rows)';
COMMENT ON OPERATOR FAMILY ulid_minmax_multi_ops USING brin IS 'BRIN minmax-multi of ulid';
COMMENT ON OPERATOR CLASS ulid_bloom_ops USING brin IS 'BRIN bloom filter of ulid: equality lookups in large tables';
COMMENT ON OPERATOR FAMILY ulid_bloom_ops USING brin IS 'BRIN bloom of ulid';

-----------------------------------------------------------------------------
-- Aggregates
-----------------------------------------------------------------------------

-- The state is internal (a pseudo-type) on purpose: Citus then pushes min(id)
-- and max(id) to each shard as themselves, where SORTOP reads the shard's
-- index, instead of worker_partial_agg() over every row of every shard (it
-- does that for an extension aggregate with a combine function and a
-- non-pseudo state).  COMBINEFUNC, SERIALFUNC and DESERIALFUNC keep
-- parallel (partial) aggregation; SSPACE tells the planner the state is small.
-- The state and combine functions of each are one C function.
CREATE FUNCTION ulid_max_trans(internal, ulid) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_max_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION ulid_min_trans(internal, ulid) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_min_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION ulid_max_combine(internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_max_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION ulid_min_combine(internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_min_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION ulid_minmax_final(internal) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_minmax_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- the state is a ulid: its 16 bytes are the serialized state
CREATE FUNCTION ulid_minmax_serialize(internal) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ulid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_minmax_deserialize(bytea, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_max_trans(internal, ulid) IS 'state function of max(ulid)';
COMMENT ON FUNCTION ulid_min_trans(internal, ulid) IS 'state function of min(ulid)';
COMMENT ON FUNCTION ulid_max_combine(internal, internal) IS 'combine function of max(ulid) (parallel aggregation)';
COMMENT ON FUNCTION ulid_min_combine(internal, internal) IS 'combine function of min(ulid) (parallel aggregation)';
COMMENT ON FUNCTION ulid_minmax_final(internal) IS 'final function of min(ulid) and max(ulid)';
COMMENT ON FUNCTION ulid_minmax_serialize(internal) IS 'serial function of min(ulid) and max(ulid) (parallel aggregation)';
COMMENT ON FUNCTION ulid_minmax_deserialize(bytea, internal) IS 'deserial function of min(ulid) and max(ulid) (parallel aggregation)';

CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_max_trans, STYPE = internal, SSPACE = 16, FINALFUNC = ulid_minmax_final,
    COMBINEFUNC = ulid_max_combine, SERIALFUNC = ulid_minmax_serialize,
    DESERIALFUNC = ulid_minmax_deserialize, SORTOP = >, PARALLEL = SAFE
);
CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_min_trans, STYPE = internal, SSPACE = 16, FINALFUNC = ulid_minmax_final,
    COMBINEFUNC = ulid_min_combine, SERIALFUNC = ulid_minmax_serialize,
    DESERIALFUNC = ulid_minmax_deserialize, SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(ulid) IS 'largest (latest) ULID; uses a btree index, also on each Citus shard';
COMMENT ON AGGREGATE min(ulid) IS 'smallest (earliest) ULID; uses a btree index, also on each Citus shard';

-----------------------------------------------------------------------------
-- Generators
-----------------------------------------------------------------------------

-- Parallel restricted: the per-backend order lives in the leader.
CREATE FUNCTION gen_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_ulid' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION gen_random_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_random_ulid' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION gen_ulid(at timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_ulid_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid() IS 'new ULID: current time and CSPRNG randomness, strictly increasing within this session';
COMMENT ON FUNCTION gen_random_ulid() IS 'new ULID: current time and 80 fresh random bits, no order within a millisecond';
COMMENT ON FUNCTION gen_ulid(timestamptz) IS 'new random ULID stamped with the given time (back-filling)';

-- RFC 9562 UUIDv7 (PostgreSQL 18's layout: a 12-bit sub-millisecond
-- fraction) from the same per-backend random buffer; a UUIDv7 is a valid ULID.
-- gen_uuidv7() and gen_typeid() keep a per-backend order, as gen_ulid()
-- does, hence PARALLEL RESTRICTED; gen_uuidv7(at) has no state.
CREATE FUNCTION gen_uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'gen_uuidv7' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION gen_uuidv7(at timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'gen_uuidv7_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION gen_typeid(prefix text) RETURNS text
    AS 'MODULE_PATHNAME', 'gen_typeid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION gen_uuidv7() IS 'new UUIDv7 (12-bit sub-millisecond fraction, as PostgreSQL 18''s uuidv7()): current time and CSPRNG randomness, strictly increasing within this session';
COMMENT ON FUNCTION gen_uuidv7(timestamptz) IS 'new random UUIDv7 stamped with the given time, to the microsecond (back-filling)';
COMMENT ON FUNCTION gen_typeid(text) IS 'new TypeID of a UUIDv7, as the TypeID spec recommends: prefix_ + the 26 characters of gen_uuidv7()';

-----------------------------------------------------------------------------
-- Reading ULIDs back and building them
-----------------------------------------------------------------------------

CREATE FUNCTION ulid_time(ulid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_unix_ms(ulid) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_unix_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_random(ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ulid_random' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_parts(unix_ms bigint, randomness bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_parts' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_lower(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_upper(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_parts(id ulid,
        OUT unix_ms bigint, OUT ts timestamptz, OUT time_chars text,
        OUT random_chars text, OUT randomness bytea)
    AS 'MODULE_PATHNAME', 'ulid_parts' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_time(ulid) IS 'the time part, exact to the millisecond';
COMMENT ON FUNCTION ulid_unix_ms(ulid) IS 'the time part as Unix milliseconds';
COMMENT ON FUNCTION ulid_random(ulid) IS 'the 10 random bytes';
COMMENT ON FUNCTION ulid_from_parts(bigint, bytea) IS 'ULID from Unix milliseconds (0..2^48-1) and 10 random bytes';
COMMENT ON FUNCTION ulid_lower(timestamptz) IS 'smallest ULID of that millisecond (randomness all 0): a range-scan bound';
COMMENT ON FUNCTION ulid_upper(timestamptz) IS 'largest ULID of that millisecond (randomness all 1): a range-scan bound';
COMMENT ON FUNCTION ulid_parts(ulid) IS 'the structure of a ULID: time and random parts and what they mean';

-----------------------------------------------------------------------------
-- Casts
-----------------------------------------------------------------------------

CREATE FUNCTION ulid_from_bytea(bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_to_bytea(ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ulid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_from_bytea(bytea) IS 'ULID from exactly 16 bytes (the bytea -> ulid cast)';
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS 'the 16 bytes of a ULID (the ulid -> bytea cast)';
-- Immutable: a timestamp (without time zone) is read and written as UTC
-- wall time, whatever the session's TimeZone (unlike timestamptz ->
-- timestamp, which is stable).
CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS timestamp
    AS 'MODULE_PATHNAME', 'ulid_to_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_timestamp(timestamp) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_timestamp(ulid) IS 'the time part as UTC wall time, independent of TimeZone (the ulid -> timestamp cast)';
COMMENT ON FUNCTION ulid_from_timestamp(timestamp) IS 'smallest ULID of that millisecond, the timestamp read as UTC (the timestamp -> ulid cast)';

-- ulid and uuid share their bytes: both ways on assignment (uuid -> ulid
-- since 1.3, issue 43), so every driver's native UUID stores into a ulid
-- column with no adapter; neither is implicit, so operators and functions
-- are chosen as before.  A random (v4) UUID stored this way has a
-- meaningless time: the README gives an opt-in CHECK that refuses it.
CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea);
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid);
CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_time(ulid);
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_lower(timestamptz);
CREATE CAST (ulid AS timestamp) WITH FUNCTION ulid_to_timestamp(ulid);
CREATE CAST (timestamp AS ulid) WITH FUNCTION ulid_from_timestamp(timestamp);
-- Strings store into a ulid column on assignment (JDBC setString, ORMs that
-- bind text or varchar); they still compare only after an explicit cast, as
-- assignment casts play no part in choosing an operator.  ulid -> text and
-- varchar are PostgreSQL's automatic I/O conversions (also on assignment).
CREATE CAST (text AS ulid) WITH INOUT AS ASSIGNMENT;
CREATE CAST (varchar AS ulid) WITH INOUT AS ASSIGNMENT;

COMMENT ON CAST (ulid AS uuid) IS 'binary-compatible, on assignment';
COMMENT ON CAST (uuid AS ulid) IS 'binary-compatible, on assignment';
COMMENT ON CAST (bytea AS ulid) IS 'exactly 16 bytes';
COMMENT ON CAST (ulid AS bytea) IS 'the 16 bytes';
COMMENT ON CAST (ulid AS timestamptz) IS 'the time part (ulid_time)';
COMMENT ON CAST (timestamptz AS ulid) IS 'smallest ULID of that millisecond (ulid_lower)';
COMMENT ON CAST (ulid AS timestamp) IS 'the time part as UTC wall time (ulid_to_timestamp)';
COMMENT ON CAST (timestamp AS ulid) IS 'smallest ULID of that millisecond, read as UTC (ulid_from_timestamp)';
COMMENT ON CAST (text AS ulid) IS 'text input (ulid_in), on assignment';
COMMENT ON CAST (varchar AS ulid) IS 'text input (ulid_in), on assignment';

-----------------------------------------------------------------------------
-- Shared generator state (gen_monotonic_ulid and its operation)
-----------------------------------------------------------------------------

-- Needs shared memory: shared_preload_libraries = 'ulid', or the DSM registry
-- on PostgreSQL 17+.  PARALLEL SAFE (unlike gen_ulid()): the state lives in
-- shared memory, which parallel workers see as their leader does, so a value
-- returned in a worker is also above every value returned before on the server.
CREATE FUNCTION gen_monotonic_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_monotonic_ulid' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION gen_monotonic_ulid() IS 'ULID strictly greater than every value any backend of the server returned before, also across restarts and crashes';

-- PARALLEL RESTRICTED: it writes the floor file, which belongs in the leader;
-- restricted rather than unsafe so that the query computing its argument
-- (SELECT ulid_monotonic_advance(max(id)) FROM t) can still scan in parallel.
CREATE FUNCTION ulid_monotonic_advance(ulid) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_monotonic_advance' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_monotonic_advance(ulid) IS 'make every later gen_monotonic_ulid() value greater than this one, also after a restart (superuser only)';
REVOKE ALL ON FUNCTION ulid_monotonic_advance(ulid) FROM PUBLIC;

-- Undoes ulid_monotonic_advance(); PARALLEL RESTRICTED like it (it writes
-- the floor file).
CREATE FUNCTION ulid_monotonic_reset() RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_monotonic_reset' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_monotonic_reset() IS 'undo ulid_monotonic_advance(): gen_monotonic_ulid() forgets its own floor and follows the clock again (superuser only; WARNING: ids issued since the advance may repeat)';
REVOKE ALL ON FUNCTION ulid_monotonic_reset() FROM PUBLIC;

-- The way back from a damaged floor file; PARALLEL RESTRICTED (it writes it).
CREATE FUNCTION ulid_floor_repair(above timestamptz, lower boolean DEFAULT false) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_floor_repair' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_floor_repair(timestamptz, boolean) IS 'rewrite the restart floor file so that every generator issues above this time (with lower, also below the floor it had, with a WARNING); the way back from a damaged, missing or far-future file (superuser only)';
REVOKE ALL ON FUNCTION ulid_floor_repair(timestamptz, boolean) FROM PUBLIC;

-- Readable by whoever may read the view (checked at run time: superusers,
-- pg_monitor members, roles granted SELECT on the view).
CREATE FUNCTION ulid_generator_state(
        OUT kind text, OUT layout text, OUT node bigint,
        OUT last_tick bigint, OUT last_time timestamptz, OUT sequence bigint,
        OUT last_id text, OUT issued bigint, OUT borrows bigint,
        OUT waits bigint, OUT failures bigint, OUT reclaims bigint,
        OUT state_floor timestamptz, OUT persisted_floor timestamptz)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'ulid_generator_state' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION ulid_generator_state() IS 'one row per live shared generator state (the ulid_generator_state view; readable by superusers, pg_monitor and roles granted SELECT on the view)';

-- The node this server mints Snowflake and COSID_80 ids on and the nodes it
-- owns (ulid.node_id or its Citus group id, and ulid.node_ids).  Volatile:
-- a reload changes it within a transaction.
CREATE FUNCTION ulid_node_identity(
        OUT node_id bigint, OUT source text, OUT owned_nodes text, OUT problem text)
    RETURNS record
    AS 'MODULE_PATHNAME', 'ulid_node_identity' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION ulid_node_identity() IS 'this server''s node id (NULL when none), where it comes from (ulid.node_id_source), every node it owns (its node id and ulid.node_ids) and why it has no node id';

-- the view also shows the owned set (a server-wide value, as persisted_floor)
CREATE VIEW ulid_generator_state AS
    SELECT s.*, i.owned_nodes FROM ulid_generator_state() s, ulid_node_identity() i;
COMMENT ON VIEW ulid_generator_state IS 'one row per live shared generator state: kind, layout, node, last tick and id, sequence, counts, states that gave way, its own floor (advanced), the server-wide persisted floor and the nodes this server owns';
REVOKE ALL ON ulid_generator_state FROM PUBLIC;
GRANT SELECT ON ulid_generator_state TO pg_monitor;

-----------------------------------------------------------------------------
-- Snowflake layouts and generator
-----------------------------------------------------------------------------

-- A layout is data: the full definition behind a format-version byte, never
-- a preset name, so stored layouts keep their meaning.  One parser and one
-- validator serve the input function and both constructors.
CREATE TYPE snowflake_layout;

CREATE FUNCTION snowflake_layout_in(cstring) RETURNS snowflake_layout
    AS 'MODULE_PATHNAME', 'snowflake_layout_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_layout_out(snowflake_layout) RETURNS cstring
    AS 'MODULE_PATHNAME', 'snowflake_layout_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_layout_recv(internal) RETURNS snowflake_layout
    AS 'MODULE_PATHNAME', 'snowflake_layout_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_layout_send(snowflake_layout) RETURNS bytea
    AS 'MODULE_PATHNAME', 'snowflake_layout_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE snowflake_layout (
    INPUT = snowflake_layout_in,
    OUTPUT = snowflake_layout_out,
    RECEIVE = snowflake_layout_recv,
    SEND = snowflake_layout_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended,
    CATEGORY = 'U'
);

COMMENT ON TYPE snowflake_layout IS 'a Snowflake bit layout: time bits, unit and epoch, node fields, sequence, sign bit, order and sequence reset';
COMMENT ON FUNCTION snowflake_layout_in(cstring) IS 'text input of snowflake_layout (a preset such as twitter, or custom(...))';
COMMENT ON FUNCTION snowflake_layout_out(snowflake_layout) IS 'text output of snowflake_layout (the preset form when the definition is a preset)';
COMMENT ON FUNCTION snowflake_layout_recv(internal) IS 'binary input of snowflake_layout (version byte and definition, validated)';
COMMENT ON FUNCTION snowflake_layout_send(snowflake_layout) IS 'binary output of snowflake_layout (version byte and definition)';

-- Equal definitions have equal bytes: core's bytea comparison and varlena
-- hashing serve.  = is what matters (comparisons, DISTINCT, GROUP BY,
-- joins); the order is the stored bytes' order, arbitrary but stable, so
-- layouts can also be sorted, counted DISTINCT and indexed.
CREATE FUNCTION snowflake_layout_eq(snowflake_layout, snowflake_layout) RETURNS boolean
    AS 'byteaeq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_ne(snowflake_layout, snowflake_layout) RETURNS boolean
    AS 'byteane' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_lt(snowflake_layout, snowflake_layout) RETURNS boolean
    AS 'bytealt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_le(snowflake_layout, snowflake_layout) RETURNS boolean
    AS 'byteale' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_gt(snowflake_layout, snowflake_layout) RETURNS boolean
    AS 'byteagt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_ge(snowflake_layout, snowflake_layout) RETURNS boolean
    AS 'byteage' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_cmp(snowflake_layout, snowflake_layout) RETURNS integer
    AS 'byteacmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_hash(snowflake_layout) RETURNS integer
    AS 'hashvarlena' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_layout_hash_extended(snowflake_layout, bigint) RETURNS bigint
    AS 'hashvarlenaextended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (
    LEFTARG = snowflake_layout, RIGHTARG = snowflake_layout, PROCEDURE = snowflake_layout_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = snowflake_layout, RIGHTARG = snowflake_layout, PROCEDURE = snowflake_layout_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = snowflake_layout, RIGHTARG = snowflake_layout, PROCEDURE = snowflake_layout_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = snowflake_layout, RIGHTARG = snowflake_layout, PROCEDURE = snowflake_layout_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = snowflake_layout, RIGHTARG = snowflake_layout, PROCEDURE = snowflake_layout_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = snowflake_layout, RIGHTARG = snowflake_layout, PROCEDURE = snowflake_layout_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
CREATE OPERATOR CLASS snowflake_layout_ops DEFAULT FOR TYPE snowflake_layout USING btree AS
    OPERATOR 1 < ,
    OPERATOR 2 <= ,
    OPERATOR 3 = ,
    OPERATOR 4 >= ,
    OPERATOR 5 > ,
    FUNCTION 1 snowflake_layout_cmp(snowflake_layout, snowflake_layout);
CREATE OPERATOR CLASS snowflake_layout_hash_ops DEFAULT FOR TYPE snowflake_layout USING hash AS
    OPERATOR 1 = ,
    FUNCTION 1 snowflake_layout_hash(snowflake_layout),
    FUNCTION 2 snowflake_layout_hash_extended(snowflake_layout, bigint);
COMMENT ON OPERATOR CLASS snowflake_layout_ops USING btree IS 'default btree of snowflake_layout: the arbitrary but stable order of stored definitions';
COMMENT ON OPERATOR FAMILY snowflake_layout_ops USING btree IS 'btree of snowflake_layout';
COMMENT ON OPERATOR CLASS snowflake_layout_hash_ops USING hash IS 'default hash of snowflake_layout: a layout''s definition';
COMMENT ON OPERATOR FAMILY snowflake_layout_hash_ops USING hash IS 'hash of snowflake_layout';

COMMENT ON FUNCTION snowflake_layout_eq(snowflake_layout, snowflake_layout) IS 'same definition';
COMMENT ON FUNCTION snowflake_layout_ne(snowflake_layout, snowflake_layout) IS 'different definitions';
COMMENT ON FUNCTION snowflake_layout_lt(snowflake_layout, snowflake_layout) IS 'before, in the arbitrary but stable order of stored definitions';
COMMENT ON FUNCTION snowflake_layout_le(snowflake_layout, snowflake_layout) IS 'before or equal, in the arbitrary but stable order of stored definitions';
COMMENT ON FUNCTION snowflake_layout_gt(snowflake_layout, snowflake_layout) IS 'after, in the arbitrary but stable order of stored definitions';
COMMENT ON FUNCTION snowflake_layout_ge(snowflake_layout, snowflake_layout) IS 'after or equal, in the arbitrary but stable order of stored definitions';
COMMENT ON FUNCTION snowflake_layout_cmp(snowflake_layout, snowflake_layout) IS 'btree support: the order of stored definitions';
COMMENT ON FUNCTION snowflake_layout_hash(snowflake_layout) IS 'hash of a layout''s definition';
COMMENT ON FUNCTION snowflake_layout_hash_extended(snowflake_layout, bigint) IS 'seeded 64-bit hash of a layout''s definition';
COMMENT ON OPERATOR = (snowflake_layout, snowflake_layout) IS 'same definition';
COMMENT ON OPERATOR <> (snowflake_layout, snowflake_layout) IS 'different definitions';
COMMENT ON OPERATOR < (snowflake_layout, snowflake_layout) IS 'before, in the order of stored definitions';
COMMENT ON OPERATOR <= (snowflake_layout, snowflake_layout) IS 'before or equal, in the order of stored definitions';
COMMENT ON OPERATOR > (snowflake_layout, snowflake_layout) IS 'after, in the order of stored definitions';
COMMENT ON OPERATOR >= (snowflake_layout, snowflake_layout) IS 'after or equal, in the order of stored definitions';

-- Constructors.  snowflake_layout('twitter') with a literal is the type's
-- input function (a function-style cast); with a text value it is the first
-- constructor.  Both read the same text form, so they agree.
CREATE FUNCTION snowflake_layout(name text, epoch timestamptz DEFAULT NULL,
        node_bits integer DEFAULT NULL) RETURNS snowflake_layout
    AS 'MODULE_PATHNAME', 'snowflake_layout_from_name' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION snowflake_layout(time_bits integer, unit text, epoch timestamptz, fields json,
        sequence_bits integer, sign_bit boolean DEFAULT true,
        sequence_above_node boolean DEFAULT false, sequence_reset text DEFAULT 'zero')
    RETURNS snowflake_layout
    AS 'MODULE_PATHNAME', 'snowflake_layout_custom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_layout_diagram(snowflake_layout) RETURNS text
    AS 'MODULE_PATHNAME', 'snowflake_layout_diagram' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION snowflake_layout(text, timestamptz, integer) IS 'a layout from its text form (a preset name such as twitter), with the preset parameters epoch (sonyflake, CosId presets) and node_bits (scru64)';
COMMENT ON FUNCTION snowflake_layout(integer, text, timestamptz, json, integer, boolean, boolean, text) IS 'a custom layout: time bits, unit (ms, 10ms, 256ms, s), epoch, node fields as a json object in order, sequence bits, sign bit, order, sequence reset (zero, random, carry)';
COMMENT ON FUNCTION snowflake_layout_diagram(snowflake_layout) IS 'the bits of a layout as a printed diagram, and its time unit and epoch';

-- Reading ids back: integer arithmetic, exact to the layout's unit.
CREATE FUNCTION snowflake_time(id bigint, layout snowflake_layout) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_unix_ms(id bigint, layout snowflake_layout) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_unix_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_node(id bigint, layout snowflake_layout) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_node' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_field(id bigint, layout snowflake_layout, field text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_field' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_sequence(id bigint, layout snowflake_layout) RETURNS integer
    AS 'MODULE_PATHNAME', 'snowflake_sequence' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_parts(id bigint, layout snowflake_layout) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'snowflake_parts' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_pack(layout snowflake_layout, ts timestamptz, node bigint, sequence bigint)
    RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_pack' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_lower(layout snowflake_layout, ts timestamptz) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_upper(layout snowflake_layout, ts timestamptz) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION snowflake_time(bigint, snowflake_layout) IS 'the time of an id (the start of its tick)';
COMMENT ON FUNCTION snowflake_unix_ms(bigint, snowflake_layout) IS 'the time of an id as Unix milliseconds';
COMMENT ON FUNCTION snowflake_node(bigint, snowflake_layout) IS 'all node fields of an id together';
COMMENT ON FUNCTION snowflake_field(bigint, snowflake_layout, text) IS 'one field of an id: a node field by name, or time (ticks since the epoch), node or sequence';
COMMENT ON FUNCTION snowflake_sequence(bigint, snowflake_layout) IS 'the sequence of an id';
COMMENT ON FUNCTION snowflake_parts(bigint, snowflake_layout) IS 'an id''s time (UTC), unix_ms, each node field by name and sequence, as jsonb';
COMMENT ON FUNCTION snowflake_pack(snowflake_layout, timestamptz, bigint, bigint) IS 'build an id from a time (floored to its tick), a node and a sequence';
COMMENT ON FUNCTION snowflake_lower(snowflake_layout, timestamptz) IS 'smallest id of the tick holding a time: a range-scan bound';
COMMENT ON FUNCTION snowflake_upper(snowflake_layout, timestamptz) IS 'largest id of the tick holding a time: a range-scan bound';

-- Text forms of Snowflake ids (SPEC section 4), each with its exact inverse.
CREATE FUNCTION snowflake_friendly(id bigint, layout snowflake_layout, zone text DEFAULT 'UTC')
    RETURNS text
    AS 'MODULE_PATHNAME', 'snowflake_friendly' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_from_friendly(friendly text, layout snowflake_layout, zone text DEFAULT 'UTC')
    RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_from_friendly' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru64_text(id bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'scru64_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru64_from_text(text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'scru64_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION snowflake_friendly(bigint, snowflake_layout, text) IS 'CosId friendly form yyyyMMddHHmmssSSS-node-seq, local time in zone';
COMMENT ON FUNCTION snowflake_from_friendly(text, snowflake_layout, text) IS 'the id of a friendly form; rejects times off a tick and local times skipped or repeated in zone';
COMMENT ON FUNCTION scru64_text(bigint) IS 'SCRU64''s 12-character lowercase Base36 text';
COMMENT ON FUNCTION scru64_from_text(text) IS 'the id of SCRU64 text (12 Base36 characters, any case)';

-- CosId's codec chain (SPEC section 4): an ordered jsonb array of items.
-- Immutable: none reads the clock.  A "source": "now" date prefix takes its
-- time from the four-argument form's last argument (the caller passes now()
-- or clock_timestamp()); the three-argument form refuses such a codec.
CREATE FUNCTION snowflake_encode(id bigint, layout snowflake_layout, codec jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'snowflake_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_encode(id bigint, layout snowflake_layout, codec jsonb, now timestamptz) RETURNS text
    AS 'MODULE_PATHNAME', 'snowflake_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_decode(encoded text, layout snowflake_layout, codec jsonb) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_encode(bigint, snowflake_layout, jsonb) IS 'CosId codec chain: the id''s text through an ordered jsonb list of items (radix or friendly first, then prefix, suffix, date_prefix); refuses "source": "now" date prefixes';
COMMENT ON FUNCTION snowflake_encode(bigint, snowflake_layout, jsonb, timestamptz) IS 'CosId codec chain, with the time of "source": "now" date prefixes given (pass now() or clock_timestamp())';
COMMENT ON FUNCTION snowflake_decode(text, snowflake_layout, jsonb) IS 'the exact inverse of snowflake_encode: the id of a text the same layout and codec write';

-- COSID_80 (SPEC section 4): 44-bit Unix ms, 20-bit node, 16-bit sequence,
-- text only (15 Base62 characters at fixed widths, sorting like the id).
CREATE FUNCTION cosid80_parts(id text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'cosid80_parts' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cosid80_time(id text) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'cosid80_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cosid80_friendly(id text, zone text DEFAULT 'UTC') RETURNS text
    AS 'MODULE_PATHNAME', 'cosid80_friendly' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cosid80_from_friendly(friendly text, zone text DEFAULT 'UTC') RETURNS text
    AS 'MODULE_PATHNAME', 'cosid80_from_friendly' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cosid80_parts(text) IS 'a COSID_80 id''s time (UTC), unix_ms, node and sequence, as jsonb';
COMMENT ON FUNCTION cosid80_time(text) IS 'the time of a COSID_80 id';
COMMENT ON FUNCTION cosid80_friendly(text, text) IS 'COSID_80 friendly form yyyyMMddHHmmssSSS-NNNNNNN-SSSSS, local time in zone';
COMMENT ON FUNCTION cosid80_from_friendly(text, text) IS 'the COSID_80 id of a friendly form; rejects local times skipped or repeated in zone';

-- Generating.  One shared state per (bit structure, node): ids from it
-- strictly increase across every backend.  PARALLEL SAFE, like
-- gen_monotonic_ulid(): the state lives in shared memory and workers see
-- the leader's ulid.node_id, so an id minted in a worker keeps the order.
-- A NULL layout mints nothing (STRICT; the two-argument C function returns
-- NULL for it); a NULL node is this server's node, as cosid80_next(NULL) is
-- (its DEFAULT NULL cannot tell a NULL from an omitted node: issue 32).
CREATE FUNCTION snowflake_next(layout snowflake_layout) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_next' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_next(layout snowflake_layout, node bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_next_node' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_next(snowflake_layout) IS 'the next Snowflake id of a layout on this server''s node (ulid.node_id), strictly increasing across backends and restarts';
COMMENT ON FUNCTION snowflake_next(snowflake_layout, bigint) IS 'the next Snowflake id of a layout on the given node (all node fields together; NULL: this server''s node, ulid.node_id), strictly increasing across backends and restarts';

-- PARALLEL RESTRICTED, like ulid_monotonic_advance(): it writes the floor file.
CREATE FUNCTION snowflake_advance(layout snowflake_layout, node bigint, id bigint) RETURNS void
    AS 'MODULE_PATHNAME', 'snowflake_advance' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION snowflake_advance(snowflake_layout, bigint, bigint) IS 'make every later snowflake_next(layout, node) id greater than this id, also after a restart (superuser only)';
REVOKE ALL ON FUNCTION snowflake_advance(snowflake_layout, bigint, bigint) FROM PUBLIC;

-- Undoes snowflake_advance(); PARALLEL RESTRICTED like it.
CREATE FUNCTION snowflake_reset(layout snowflake_layout, node bigint) RETURNS void
    AS 'MODULE_PATHNAME', 'snowflake_reset' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION snowflake_reset(snowflake_layout, bigint) IS 'undo snowflake_advance(): the state of (layout, node) forgets its own floor and follows the clock again (superuser only; WARNING: ids issued since the advance may repeat)';
REVOKE ALL ON FUNCTION snowflake_reset(snowflake_layout, bigint) FROM PUBLIC;

-- COSID_80 on the same generator: one shared state per node, every
-- guarantee of snowflake_next().  Not STRICT: a NULL node is ulid.node_id.
CREATE FUNCTION cosid80_next(node bigint DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'cosid80_next' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION cosid80_next(bigint) IS 'the next COSID_80 id (15 Base62 characters) on a node (default ulid.node_id), strictly increasing across backends and restarts';
-- like snowflake_advance() and snowflake_reset()
CREATE FUNCTION cosid80_advance(node bigint, id text) RETURNS void
    AS 'MODULE_PATHNAME', 'cosid80_advance' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION cosid80_advance(bigint, text) IS 'make every later cosid80_next(node) id greater than this id, also after a restart (superuser only)';
REVOKE ALL ON FUNCTION cosid80_advance(bigint, text) FROM PUBLIC;
CREATE FUNCTION cosid80_reset(node bigint) RETURNS void
    AS 'MODULE_PATHNAME', 'cosid80_reset' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION cosid80_reset(bigint) IS 'undo cosid80_advance(): the node''s state forgets its own floor and follows the clock again (superuser only; WARNING: ids issued since the advance may repeat)';
REVOKE ALL ON FUNCTION cosid80_reset(bigint) FROM PUBLIC;

-----------------------------------------------------------------------------
-- Text codecs
-----------------------------------------------------------------------------

-- Every codec is immutable and parallel safe and has an exact inverse.
-- Decoders raise 22P02 for malformed text and 22003 for values that do not
-- fit.  Base62 and radix > 36 text sorts like the value only under
-- COLLATE "C".

-- Not strict: a NULL width means no padding (a strict function would
-- return NULL whenever the default NULL width is used).
CREATE FUNCTION radix_encode(id bigint, radix int DEFAULT 62, width int DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_radix_encode_sql' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION radix_decode(text, radix int DEFAULT 62) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_radix_decode_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION radix_encode(bigint, int, int) IS 'the unsigned 64-bit value of id in base 2-62 (0-9A-Za-z; lowercase up to 36), left-padded with 0 to width';
COMMENT ON FUNCTION radix_decode(text, int) IS 'inverse of radix_encode: base 2-62 text (case-insensitive up to 36) as the unsigned 64-bit value in a bigint';

CREATE FUNCTION ulid_to_base62(ulid) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_to_base62' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_base62(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_base62' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_base62(ulid) IS 'the ULID as 22 Base62 characters (0-9A-Za-z), fixed width';
COMMENT ON FUNCTION ulid_from_base62(text) IS 'inverse of ulid_to_base62: 22 Base62 characters to a ULID';

CREATE FUNCTION ulid_to_gsid(id ulid, prefix text, namespace bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_to_gsid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gsid_to_ulid(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'gsid_to_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gsid_prefix(text) RETURNS text
    AS 'MODULE_PATHNAME', 'gsid_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gsid_namespace(text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'gsid_namespace' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- Volatile (a new id on every call) and parallel restricted, as gen_ulid().
CREATE FUNCTION gen_gsid(prefix text, namespace bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'gen_gsid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_to_gsid(ulid, text, bigint) IS 'GSID text: prefix_ + Base62 time (8) + namespace (6) + randomness (14)';
COMMENT ON FUNCTION gsid_to_ulid(text) IS 'the ULID of a GSID (prefix and namespace stripped)';
COMMENT ON FUNCTION gsid_prefix(text) IS 'the prefix of a GSID';
COMMENT ON FUNCTION gsid_namespace(text) IS 'the namespace (0..2^32-1) of a GSID';
COMMENT ON FUNCTION gen_gsid(text, bigint) IS 'a new GSID: ulid_to_gsid(gen_ulid(), prefix, namespace)';

CREATE FUNCTION ulid_to_typeid(id ulid, prefix text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_to_typeid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_to_ulid(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'typeid_to_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_prefix(text) RETURNS text
    AS 'MODULE_PATHNAME', 'typeid_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_typeid(ulid, text) IS 'TypeID v0.3 text: prefix_ + 26 lowercase Crockford Base32 characters (no separator for an empty prefix)';
COMMENT ON FUNCTION typeid_to_ulid(text) IS 'the 128 bits of a TypeID as a ULID';
COMMENT ON FUNCTION typeid_prefix(text) IS 'the prefix of a TypeID ('''' when it has none)';

CREATE FUNCTION ulid_parse(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_parse' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_try_parse(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_try_parse' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_parse(text) IS 'a ULID from any of its text forms: ULID, UUID, Base62, TypeID or GSID';
COMMENT ON FUNCTION ulid_try_parse(text) IS 'as ulid_parse, but NULL for text that is no ULID';

-----------------------------------------------------------------------------
-- issue 24: drop-in names (SPEC section 4, "Drop-in names")
-----------------------------------------------------------------------------
-- PostgreSQL 18's uuidv7(), uuidv7(shift), uuidv4(), uuid_extract_timestamp()
-- and uuid_extract_version(), and pg_uuidv7 1.6's five functions, created on
-- every major in the extension's schema.  Nothing in pg_catalog is shadowed:
-- pg_catalog is searched first (unless a search_path names it later), so
-- where core has a name (uuid_extract_* on 17; all five on 18+) an
-- unqualified call is core's, and only a schema-qualified one (ext.uuidv7())
-- reaches these.  They are created on 18+ too, not only where core lacks
-- them: a column default or view made on 15-17 refers to this function
-- (pg_dump writes it schema-qualified, public.uuidv7()), so a dump restored
-- on 18, or pg_upgrade to 18, needs it to exist; there it gives what core's
-- gives.  The same script on every major also keeps an updated install
-- equal to a fresh one.  Every later reference to these five in this
-- script is schema-qualified (@extschema@): unqualified, on 17/18+ it would
-- name core's function (a COMMENT ON would change core's comment).
--
-- uuidv7() and uuid_generate_v7() are gen_uuidv7() itself (one C function,
-- one per-backend order), hence parallel restricted as it is; core's and
-- pg_uuidv7's are parallel safe.  pg_uuidv7 marks its readers STABLE: here
-- they are IMMUTABLE (a UUID's time depends on nothing else), so generated
-- columns and index expressions take them; it marks uuid_timestamptz_to_v7()
-- and uuid_timestamp_to_v7() STABLE although without zero they return random
-- values: here they are VOLATILE, and a planner support function folds a call
-- with zero => true (the constant) into the bound it returns, so WHERE id >=
-- uuid_timestamptz_to_v7(..., true) still bounds an index scan.
CREATE FUNCTION uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'gen_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_shift' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv4() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv4' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_uuid_extract_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_extract_version(uuid) RETURNS smallint
    AS 'MODULE_PATHNAME', 'ulid_uuid_extract_version' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuidv7() IS 'PostgreSQL 18''s uuidv7() on every major: gen_uuidv7(), a new UUIDv7 strictly increasing within this session (on 18+ an unqualified call is core''s)';
COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS 'PostgreSQL 18''s uuidv7(shift) on every major: a new UUIDv7 of the current time plus shift (on 18+ an unqualified call is core''s)';
COMMENT ON FUNCTION @extschema@.uuidv4() IS 'PostgreSQL 18''s uuidv4() on every major: a new random UUID (version 4), as gen_random_uuid() (on 18+ an unqualified call is core''s)';
COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS 'PostgreSQL 18''s uuid_extract_timestamp(): the time of a version 1, 6 or 7 UUID, else NULL (on 17+ an unqualified call is core''s; 17''s reads version 1 only, 18''s 1 and 7)';
COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS 'PostgreSQL 18''s uuid_extract_version(): the version of an RFC 9562 UUID, else NULL (on 17+ an unqualified call is core''s)';

-- pg_uuidv7 1.6's names
CREATE FUNCTION uuidv7_from_time_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_from_time_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_generate_v7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'gen_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero boolean DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuid_timestamptz_to_v7' LANGUAGE C VOLATILE STRICT PARALLEL SAFE
    SUPPORT uuidv7_from_time_support;
CREATE FUNCTION uuid_v7_to_timestamp(uuid) RETURNS timestamp
    AS 'MODULE_PATHNAME', 'ulid_to_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_timestamp_to_v7(timestamp, zero boolean DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuid_timestamp_to_v7' LANGUAGE C VOLATILE STRICT PARALLEL SAFE
    SUPPORT uuidv7_from_time_support;
COMMENT ON FUNCTION uuidv7_from_time_support(internal) IS 'planner support: folds uuid_timestamptz_to_v7(ts, true) and uuid_timestamp_to_v7(ts, true) into the bound they return';
COMMENT ON FUNCTION uuid_generate_v7() IS 'pg_uuidv7''s uuid_generate_v7(): gen_uuidv7(), a new UUIDv7 strictly increasing within this session';
COMMENT ON FUNCTION uuid_v7_to_timestamptz(uuid) IS 'pg_uuidv7''s uuid_v7_to_timestamptz(): the first 48 bits as a time, exact to the millisecond (uuidv7_time)';
COMMENT ON FUNCTION uuid_timestamptz_to_v7(timestamptz, boolean) IS 'pg_uuidv7''s uuid_timestamptz_to_v7(): a new random UUIDv7 of that time, or with zero the smallest UUIDv7 of its millisecond (uuidv7_lower)';
COMMENT ON FUNCTION uuid_v7_to_timestamp(uuid) IS 'pg_uuidv7''s uuid_v7_to_timestamp(): the first 48 bits as a UTC wall time, exact to the millisecond';
COMMENT ON FUNCTION uuid_timestamp_to_v7(timestamp, boolean) IS 'pg_uuidv7''s uuid_timestamp_to_v7(): as uuid_timestamptz_to_v7, the timestamp read as UTC';

-- For uuid columns holding UUIDv7s, what ulid_time/ulid_lower/ulid_upper
-- are for ulid: immutable, for range scans and partition bounds
CREATE FUNCTION uuidv7_time(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_lower(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_upper(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_time(uuid) IS 'the time of a UUIDv7 (its first 48 bits), exact to the millisecond';
COMMENT ON FUNCTION uuidv7_lower(timestamptz) IS 'smallest UUIDv7 of that millisecond (all bits after the time 0 but version and variant): a range-scan bound';
COMMENT ON FUNCTION uuidv7_upper(timestamptz) IS 'largest UUIDv7 of that millisecond (all bits after the time 1 but version and variant): a range-scan bound';
-- issue 22, issue 30: one call after a restore or a logical move
-- Finds every column of the current database whose default calls
-- gen_monotonic_ulid(), snowflake_next() or cosid80_next() (under the casts
-- a column type change leaves) and advances that generator's state above
-- the column's largest value (plus margin), all at once or not at all.  In
-- C (src/advance_tables.c): the defaults are matched on their expression
-- trees, never evaluated, and the largest value is read through the access
-- methods without running any code of the table's owner.  Issue 40: it
-- trusts no tenant (ids more than a minute ahead only from tables named in
-- trusted; tables and schemas can be left out).
-- PARALLEL UNSAFE: it advances (writes the floor file and WAL).
CREATE FUNCTION ulid_advance_from_tables(margin interval DEFAULT '0', include_far_ahead boolean DEFAULT false,
        trusted regclass[] DEFAULT '{}', exclude regclass[] DEFAULT '{}', exclude_schemas regnamespace[] DEFAULT '{}')
RETURNS TABLE (table_name regclass, column_name name, generator text, advanced_to text, note text)
AS 'MODULE_PATHNAME', 'ulid_advance_from_tables'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_advance_from_tables(interval, boolean, regclass[], regclass[], regnamespace[]) IS 'after a restore or a logical move: advance every generator a column default calls above the column''s largest id plus margin; ids more than a minute ahead of the clock only for trusted tables (superuser only)';
REVOKE ALL ON FUNCTION ulid_advance_from_tables(interval, boolean, regclass[], regclass[], regnamespace[]) FROM PUBLIC;

-----------------------------------------------------------------------------
-- issue 23: the node ids of a Citus cluster
-----------------------------------------------------------------------------

-- issue 40: the server behind each node id, as ulid_check_node_ids() first
-- saw it: its system identifier (pg_control_system(), which every role may
-- call; a promoted standby keeps its primary's, a new server has its own)
-- and its name and port in Citus's pg_dist_node.  A node id that another
-- server mints on later (Citus gives a group freed by citus_remove_node to
-- the server added with citus_add_node(..., groupid => N), while the removed
-- one may still mint on it) is reported until a superuser deletes its row.
-- Rows are written when a superuser runs the check; every role may read
-- them (nothing here is secret, nor readable only by some).  Not a dumped
-- configuration table: a restored coordinator records its own cluster anew.
-- In a schema of its own, as the keys are, so that schema tools and ORMs
-- reading the application's schema (Alembic, Rails) never see it.
CREATE SCHEMA ulid_nodes;
COMMENT ON SCHEMA ulid_nodes IS 'the ulid extension''s record of the server first seen on each node id (ulid_nodes.servers)';
GRANT USAGE ON SCHEMA ulid_nodes TO PUBLIC;
CREATE TABLE ulid_nodes.servers (
    node_id bigint PRIMARY KEY,
    system_identifier bigint NOT NULL,
    node_name text NOT NULL,
    node_port integer NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON ulid_nodes.servers FROM PUBLIC;
GRANT SELECT ON ulid_nodes.servers TO PUBLIC;
COMMENT ON TABLE ulid_nodes.servers IS 'the server (system identifier, name, port) ulid_check_node_ids() first saw minting on each node id; delete a row to accept the server that mints there now';

-- The layouts this database's column defaults mint on with the server's
-- node id (snowflake_next(layout), cosid80_next()), each with its largest
-- node and its columns: ulid_check_node_ids() and ulid_health() name a node
-- id that does not fit one.  A layout's node bits are the bits of its
-- diagram's fields other than sign, unused, time and sequence (reserved
-- names).
CREATE FUNCTION ulid_node_id_layouts(OUT layout text, OUT max_node bigint, OUT columns text)
    RETURNS SETOF record
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
SELECT f.layout, f.max_node,
       min(f.col) || CASE WHEN count(*) > 1 THEN format(' (and %s more)', count(*) - 1) ELSE '' END
  FROM (SELECT x.layout, format('%s.%I', d.adrelid::regclass, a.attname) AS col,
               CASE WHEN x.layout = 'COSID_80' THEN 1048575
                    ELSE (SELECT (2::numeric ^ sum(b[2]::int) - 1)::bigint
                            FROM regexp_matches(split_part(@extschema@.snowflake_layout_diagram(x.layout::@extschema@.snowflake_layout), E'\n', 1),
                                                '\| ([a-z_][a-z0-9_]*) (\d+) ', 'g') b
                           WHERE b[1] NOT IN ('sign', 'unused', 'time', 'sequence')) END AS max_node
          FROM pg_attrdef d
          JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum AND NOT a.attisdropped,
               regexp_matches(pg_get_expr(d.adbin, d.adrelid),
                              'snowflake_next\(''((?:[^'']|'''')*)''::(?:(?:[a-z_][a-z0-9_$]*|"(?:[^"]|"")+")\.)?snowflake_layout\)|cosid80_(next)\((?:NULL::bigint)?\)', 'g') r,
               LATERAL (SELECT CASE WHEN r[2] IS NOT NULL THEN 'COSID_80' ELSE replace(r[1], '''''', '''') END) x(layout)
         WHERE EXISTS (SELECT FROM pg_depend p
                        WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid
                          AND p.refclassid = 'pg_proc'::regclass
                          AND p.refobjid IN ('@extschema@.snowflake_next(@extschema@.snowflake_layout)'::regprocedure,
                                             '@extschema@.cosid80_next(bigint)'::regprocedure))) f
 GROUP BY f.layout, f.max_node
 ORDER BY f.layout
$fn$;
COMMENT ON FUNCTION ulid_node_id_layouts() IS 'the layouts this database''s column defaults mint on with the server''s node id (snowflake_next(layout), cosid80_next()): each with the largest node id it holds and its columns';

-- Every node of a Citus cluster, asked through Citus for its node identity:
-- one row per node, shared when its owned set meets another node's, and a
-- problem when it has no node id or when its node id does not fit a layout
-- that a column default of this database mints on with the node id
-- (ulid_node_id_layouts(): Citus hands new nodes new group ids, so group
-- ids outgrow small layouts), or when another server minted on its node id
-- when the check first saw it (ulid_nodes.servers; shared is then true too).
-- PL/pgSQL, so that nothing refers to Citus before it runs (Citus need not
-- be installed); the extension's schema is looked up, not taken from the
-- search_path.
CREATE FUNCTION ulid_check_node_ids(
        OUT node_name text, OUT node_port integer, OUT node_id bigint, OUT source text,
        OUT owned_nodes text, OUT shared boolean, OUT problem text)
    RETURNS SETOF record
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    ext_schema name;
    cmd text;
    n record;
    was record;
    may_record boolean := has_table_privilege('ulid_nodes.servers', 'INSERT');
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'ulid_check_node_ids() checks a Citus cluster, and Citus is not installed in the database "%"', current_database()
            USING ERRCODE = '55000',
                  DETAIL = 'It asks every node of the cluster for its node id through Citus (run_command_on_all_nodes).',
                  HINT = 'Run it on the Citus coordinator, in the database with the citus extension. On any server, SELECT * FROM ulid_node_identity() shows its own node id and owned nodes.';
    END IF;
    IF (SELECT groupid FROM pg_dist_local_group) IS DISTINCT FROM 0 THEN
        RAISE EXCEPTION 'ulid_check_node_ids() runs on the Citus coordinator, and this node is a worker (Citus group %)',
                (SELECT groupid FROM pg_dist_local_group)
            USING ERRCODE = '55000',
                  HINT = 'Connect to the coordinator (group 0) and run it there.';
    END IF;
    SELECT ns.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace ns ON ns.oid = e.extnamespace WHERE e.extname = 'ulid';
    cmd := format('SELECT row_to_json(i)::text FROM (SELECT u.*, c.system_identifier FROM %I.ulid_node_identity() u, pg_catalog.pg_control_system() c) i', ext_schema);
    FOR n IN
        WITH answers AS (
            SELECT coalesce(d.nodename, current_setting('citus.local_hostname')) AS name,
                   coalesce(d.nodeport, current_setting('port')::integer) AS port,
                   r.success, r.result
            FROM run_command_on_all_nodes(cmd) r
            LEFT JOIN pg_dist_node d ON d.nodeid = r.nodeid
        ), nodes AS (
            SELECT a.name, a.port,
                   CASE WHEN a.success THEN (a.result::json ->> 'node_id')::bigint END AS id,
                   CASE WHEN a.success THEN a.result::json ->> 'source' END AS src,
                   CASE WHEN a.success THEN a.result::json ->> 'owned_nodes' END AS owned,
                   CASE WHEN a.success THEN (a.result::json ->> 'system_identifier')::bigint END AS sysid,
                   CASE WHEN a.success THEN a.result::json ->> 'problem'
                        ELSE 'could not ask the node: ' || a.result END AS why
            FROM answers a
        ), ranges AS (
            SELECT nd.name, nd.port,
                   int8range(split_part(x, '-', 1)::bigint,
                             coalesce(nullif(split_part(x, '-', 2), ''), split_part(x, '-', 1))::bigint,
                             '[]') AS r
            FROM nodes nd, unnest(string_to_array(nullif(nd.owned, ''), ',')) x
        )
        SELECT nd.name, nd.port, nd.id, nd.src, nd.owned, nd.sysid,
               EXISTS (SELECT 1 FROM ranges a JOIN ranges b ON a.r && b.r
                       WHERE a.name = nd.name AND a.port = nd.port
                         AND (b.name, b.port) <> (nd.name, nd.port)) AS shared,
               nd.why
        FROM nodes nd
        ORDER BY nd.name, nd.port
    LOOP
        node_name := n.name;
        node_port := n.port;
        node_id := n.id;
        source := n.src;
        owned_nodes := n.owned;
        shared := n.shared;
        -- the layouts of this database's defaults that cannot hold the node id
        SELECT nullif(concat_ws('; ', n.why, string_agg(format('node id %s does not fit the layout %s (nodes 0 to %s) that the default of %s mints on',
                                                               n.id, l.layout, l.max_node, l.columns), '; ' ORDER BY l.layout)), '')
          INTO problem
          FROM @extschema@.ulid_node_id_layouts() l
         WHERE n.id > l.max_node;
        -- the server first seen on this node id, when it was another one
        IF n.id IS NOT NULL AND n.sysid IS NOT NULL THEN
            IF may_record THEN
                INSERT INTO ulid_nodes.servers AS s (node_id, system_identifier, node_name, node_port)
                VALUES (n.id, n.sysid, n.name, n.port) ON CONFLICT ON CONSTRAINT servers_pkey DO NOTHING;
            END IF;
            SELECT * INTO was FROM ulid_nodes.servers s
             WHERE s.node_id = n.id AND s.system_identifier <> n.sysid;
            IF FOUND THEN
                shared := true;
                problem := concat_ws('; ', problem,
                    format('node id %s was another server''s when first seen: %s:%s, system identifier %s (this one''s is %s); '
                           'if that server still runs (a node removed with citus_remove_node keeps minting on its group), both mint equal ids: '
                           'stop it, or set ulid.node_id_source = ''setting'' there; then DELETE FROM ulid_nodes.servers WHERE node_id = %s records this server',
                           n.id, was.node_name, was.node_port, was.system_identifier, n.sysid, n.id));
            END IF;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$fn$;
COMMENT ON FUNCTION ulid_check_node_ids() IS 'on a Citus coordinator: every node''s name, port, node id, its source, the nodes it owns, whether another node owns one of them too (or another server did: ulid_nodes.servers), and its problem: why it has no node id, a column default''s layout that its node id does not fit, or the other server first seen on it (recorded when a superuser runs it)';

-----------------------------------------------------------------------------
-- issue 36: public faces of ids (keys, UUIDv47, masks, Sqids, base32hex)
-----------------------------------------------------------------------------

-- Keys hold no secret in SQL: a key made by name is derived from the
-- keyring root (the file ulid_keyring in the data directory, or the output
-- of ulid.keyring_command), an imported one is stored only wrapped under
-- it; src/keys.c says how.  The table lives in a schema of its own, as
-- pgsodium's and pg_cron's do, so that schema tools and ORMs reading the
-- application's schema never see it.  Owned by the superuser creating the
-- extension (the bootstrap superuser when a database owner installs it).
-- Every role reads it (nothing in it is secret; pg_dump by any role reads
-- it); PUBLIC may INSERT only so that any role restores its own dump (an
-- empty COPY), and a trigger refuses each row but a superuser's.  A
-- superuser's pg_dump holds the rows (names, wrapped imports), any other
-- role's none.
CREATE SCHEMA ulid_keyring;
COMMENT ON SCHEMA ulid_keyring IS 'the named keys of the ulid extension''s masks (ulid_keyring.keys)';
GRANT USAGE ON SCHEMA ulid_keyring TO PUBLIC;
CREATE TABLE ulid_keyring.keys (
    name text PRIMARY KEY CHECK (octet_length(name) BETWEEN 1 AND 63),
    created timestamptz NOT NULL DEFAULT now(),
    wrapped bytea CHECK (octet_length(wrapped) = 24),
    fingerprint bytea NOT NULL CHECK (octet_length(fingerprint) = 8)
);
COMMENT ON TABLE ulid_keyring.keys IS 'the named keys of the masks (ulid_key_create, ulid_key_drop): no secret; a key is made from the keyring root by its name, or imported (wrapped: its secret wrapped under the root); fingerprint: verified against the root';
REVOKE ALL ON ulid_keyring.keys FROM PUBLIC;
GRANT SELECT, INSERT ON ulid_keyring.keys TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('ulid_keyring.keys',
    'WHERE (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)');

-- Only superusers add, change or remove rows (rows a logical replication
-- worker applies are skipped: keys never travel by replication); each
-- changed row (also a restore's COPY), and TRUNCATE, makes every backend
-- drop its cache of the keys, and a statement that changes no row nothing.
CREATE FUNCTION ulid_keys_trigger() RETURNS trigger
    AS 'MODULE_PATHNAME', 'ulid_keys_trigger' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_keys_trigger() IS 'the triggers of ulid_keyring.keys: each row is a superuser''s (rows applied by logical replication are skipped); after each changed row, every backend forgets the keys it cached';
CREATE TRIGGER ulid_keys_superuser BEFORE INSERT OR UPDATE OR DELETE ON ulid_keyring.keys
    FOR EACH ROW EXECUTE FUNCTION ulid_keys_trigger();
ALTER TABLE ulid_keyring.keys ENABLE ALWAYS TRIGGER ulid_keys_superuser;
CREATE TRIGGER ulid_keys_changed AFTER INSERT OR UPDATE OR DELETE ON ulid_keyring.keys
    FOR EACH ROW EXECUTE FUNCTION ulid_keys_trigger();
CREATE TRIGGER ulid_keys_truncated AFTER TRUNCATE ON ulid_keyring.keys
    FOR EACH STATEMENT EXECUTE FUNCTION ulid_keys_trigger();

-- Superusers only, checked at run time too.
CREATE FUNCTION ulid_key_create(name text, secret bytea DEFAULT NULL) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_key_create' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_key_create(text, bytea) IS 'create a named key for the masks: made from the keyring root by its name, or (secret: 16 bytes) imported, stored wrapped under the root; superuser only';
REVOKE ALL ON FUNCTION ulid_key_create(text, bytea) FROM PUBLIC;
CREATE FUNCTION ulid_key_drop(name text) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_key_drop' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_key_drop(text) IS 'drop a named key: masks made with it no longer unmask (a key made by name comes back the same when created again); superuser only';
REVOKE ALL ON FUNCTION ulid_key_drop(text) FROM PUBLIC;
-- ulid_check_local_keys(): this server's keys; ulid_check_keys(): on a
-- Citus coordinator every node's (through run_command_on_all_nodes), each
-- compared with the coordinator's, elsewhere this server's.  PL/pgSQL, so
-- that nothing refers to Citus before it runs.
CREATE FUNCTION ulid_check_local_keys(OUT name text, OUT imported boolean, OUT fingerprint bytea, OUT problem text)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'ulid_check_keys' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_check_local_keys() IS 'this server''s keys with their fingerprints, and what is wrong with each (NULL: the keyring root verifies it); superusers and pg_monitor';
REVOKE ALL ON FUNCTION ulid_check_local_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ulid_check_local_keys() TO pg_monitor;
CREATE FUNCTION ulid_check_keys(OUT node_name text, OUT node_port integer, OUT name text,
        OUT imported boolean, OUT fingerprint bytea, OUT problem text)
    RETURNS SETOF record
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    ext_schema name;
BEGIN
    SELECT ns.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace ns ON ns.oid = e.extnamespace WHERE e.extname = 'ulid';
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        IF (SELECT groupid FROM pg_dist_local_group) = 0 THEN
            RETURN QUERY EXECUTE format($q$
                WITH answers AS (
                    SELECT coalesce(d.nodename, current_setting('citus.local_hostname')) AS nname,
                           coalesce(d.nodeport, current_setting('port')::integer) AS nport, r.success, r.result
                    FROM run_command_on_all_nodes(%L) r LEFT JOIN pg_dist_node d ON d.nodeid = r.nodeid
                ), keys AS (
                    SELECT a.nname, a.nport, j.name, j.imported, decode(substr(j.fingerprint, 3), 'hex') AS fp, j.problem
                    FROM answers a, json_to_recordset(a.result::json) j(name text, imported boolean, fingerprint text, problem text)
                    WHERE a.success
                ), coord AS (SELECT * FROM %I.ulid_check_local_keys()),
                pairs AS (
                    SELECT a.nname, a.nport, x.name FROM answers a,
                        (SELECT keys.name FROM keys UNION SELECT coord.name FROM coord) x
                    WHERE a.success
                )
                SELECT p.nname, p.nport, p.name, coalesce(k.imported, c.imported), k.fp,
                       CASE WHEN k.name IS NULL THEN 'the key is missing on this node'
                            WHEN c.name IS NULL THEN 'the coordinator has no such key'
                            WHEN k.problem IS NOT NULL THEN k.problem
                            WHEN k.fp IS DISTINCT FROM c.fingerprint THEN 'its fingerprint differs from the coordinator''s'
                       END
                FROM pairs p
                LEFT JOIN keys k ON k.nname = p.nname AND k.nport = p.nport AND k.name = p.name
                LEFT JOIN coord c ON c.name = p.name
                UNION ALL
                SELECT a.nname, a.nport, NULL, NULL, NULL, 'could not ask the node: ' || a.result
                FROM answers a WHERE NOT a.success
                ORDER BY 3, 1, 2$q$,
                format('SELECT coalesce(json_agg(k), ''[]'')::text FROM %I.ulid_check_local_keys() k', ext_schema),
                ext_schema);
            RETURN;
        END IF;
    END IF;
    RETURN QUERY EXECUTE format('SELECT NULL::text, NULL::integer, k.name, k.imported, k.fingerprint, k.problem FROM %I.ulid_check_local_keys() k ORDER BY k.name', ext_schema);
END
$fn$;
COMMENT ON FUNCTION ulid_check_keys() IS 'the keys and their fingerprints: on a Citus coordinator one row per node and key, with what is wrong (missing on the node, another fingerprint than the coordinator''s, a root that does not verify it); elsewhere this server''s (node_name NULL); superusers and pg_monitor';
REVOKE ALL ON FUNCTION ulid_check_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ulid_check_keys() TO pg_monitor;

-- The masks read a key that may be dropped and created again with another
-- secret: STABLE, not IMMUTABLE, so that no index, generated column or
-- cached plan keeps a mask computed with a secret that is gone.  Using a
-- key is a grant: EXECUTE on these functions is revoked from PUBLIC, and a
-- superuser grants it to the roles that may mask and unmask.
CREATE FUNCTION uuidv47_encode(id uuid, key text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv47_encode_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv47_encode(uuid, text) IS 'the UUIDv47 facade of a UUIDv7: its time hidden by SipHash-2-4 under the key, shown as a version 4 UUID (byte for byte the UUIDv47 reference''s)';
REVOKE ALL ON FUNCTION uuidv47_encode(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuidv47_decode(id uuid, key text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv47_decode_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv47_decode(uuid, text) IS 'the UUIDv7 behind a UUIDv47 facade made with the key';
REVOKE ALL ON FUNCTION uuidv47_decode(uuid, text) FROM PUBLIC;
CREATE FUNCTION ulid_mask(id ulid, key text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_mask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_mask(ulid, text) IS 'a ULID with every bit hidden under the key (AES-128 of its 16 bytes): time, randomness and order';
REVOKE ALL ON FUNCTION ulid_mask(ulid, text) FROM PUBLIC;
CREATE FUNCTION ulid_unmask(id ulid, key text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_unmask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_unmask(ulid, text) IS 'the ULID behind a ulid_mask() made with the key';
REVOKE ALL ON FUNCTION ulid_unmask(ulid, text) FROM PUBLIC;
CREATE FUNCTION snowflake_mask(id bigint, layout snowflake_layout, key text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_snowflake_mask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_mask(bigint, snowflake_layout, text) IS 'a Snowflake id with its time, node and sequence hidden under the key: another valid id of the layout (a keyed permutation of its bits)';
REVOKE ALL ON FUNCTION snowflake_mask(bigint, snowflake_layout, text) FROM PUBLIC;
CREATE FUNCTION snowflake_unmask(id bigint, layout snowflake_layout, key text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_snowflake_unmask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_unmask(bigint, snowflake_layout, text) IS 'the Snowflake id behind a snowflake_mask() made with the layout and key';
REVOKE ALL ON FUNCTION snowflake_unmask(bigint, snowflake_layout, text) FROM PUBLIC;

-- Sqids (sqids.org) with the specification's default blocklist, fixed in
-- this version of the extension: IMMUTABLE.
CREATE FUNCTION sqids_encode(numbers bigint[],
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_sqids_encode_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_encode(bigint[], text, integer) IS 'the Sqids id of a list of numbers (0 to 2^63 - 1), at least min_length long, with no word of the default blocklist';
CREATE FUNCTION sqids_decode(id text,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0) RETURNS bigint[]
    AS 'MODULE_PATHNAME', 'ulid_sqids_decode_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_decode(text, text, integer) IS 'the numbers of a Sqids id (as the specification decodes; a character outside the alphabet, or an id shorter than min_length, is an error)';

-- RFC 4648 base32hex, as PostgreSQL 19's encode(bytea, 'base32hex')
CREATE FUNCTION ulid_to_base32hex(id ulid) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_to_base32hex' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_base32hex(ulid) IS 'RFC 4648 base32hex text of the 16 bytes, 26 characters 0-9 A-V: PostgreSQL 19''s rtrim(encode(id::uuid::bytea, ''base32hex''), ''='')';
CREATE FUNCTION ulid_from_base32hex(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_base32hex' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_from_base32hex(text) IS 'a ULID from its base32hex text (either case, with or without its six =)';

-----------------------------------------------------------------------------
-- issue 40: one health check for operators
-----------------------------------------------------------------------------
-- One row per problem this server can see (none when healthy), each with
-- its fix (src/health.c lists the checks).  Superusers and pg_monitor only,
-- checked at run time too.  PARALLEL UNSAFE: it catches an error in a
-- subtransaction (the node-id check).
CREATE FUNCTION ulid_health(OUT check_name text, OUT severity text, OUT detail text, OUT fix text)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'ulid_health' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_health() IS 'one row per problem this server can see (floor file, preload, advanced states, capacity, node id), with its severity and fix; no rows when healthy (superusers and pg_monitor)';
REVOKE ALL ON FUNCTION ulid_health() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ulid_health() TO pg_monitor;

-----------------------------------------------------------------------------
-- 1.3, issue 41: paging by id that never skips a row (src/stable_bound.c)
-----------------------------------------------------------------------------
-- STABLE: one statement's bound, evaluated once as an index condition
-- (WHERE id > $cursor AND id < ulid_stable_bound()); every evaluation is a
-- correct bound for the statement's snapshot, so a plan that evaluates it
-- per row pages correctly too.
CREATE FUNCTION ulid_stable_bound() RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_stable_bound' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION ulid_stable_bound() IS 'a gen_monotonic_ulid() id such that no row with a smaller id that this statement cannot see can still commit: page with WHERE id > $cursor AND id < ulid_stable_bound()';
CREATE FUNCTION snowflake_stable_bound(layout snowflake_layout, node bigint DEFAULT NULL) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_stable_bound' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_stable_bound(snowflake_layout, bigint) IS 'a snowflake_next() id of the layout and node (NULL: this server''s node) such that no row with a smaller id that this statement cannot see can still commit';
CREATE FUNCTION cosid80_stable_bound(node bigint DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'cosid80_stable_bound' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cosid80_stable_bound(bigint) IS 'a cosid80_next() id of the node (NULL: this server''s node) such that no row with a smaller id that this statement cannot see can still commit';
