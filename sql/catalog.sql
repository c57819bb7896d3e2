-- Pins the volatility, strictness, parallel safety and leakproofness of
-- every function of the extension: a change here must be deliberate.
-- The extension's schema is searched first, so that its functions named as
-- core's (uuidv7() and others, core's on 17/18+: uuid_dropin.sql) print
-- unqualified on every major.  The drop-in names are created on every major
-- and never shadow pg_catalog: sql/ulid.sql says why, uuid_dropin.sql checks.
SET search_path = public, pg_catalog;
SELECT p.oid::regprocedure AS function, p.provolatile AS vol, p.proparallel AS par,
       p.proisstrict AS strict, p.proleakproof AS leakproof
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND d.deptype = 'e' AND d.classid = 'pg_proc'::regclass
  AND p.proname <> 'ulid_skipsupport'   -- exists on 18+ only
ORDER BY p.oid::regprocedure::text;

-- the aggregates: min and max(ulid) keep an internal (pseudo-type) state, so
-- that Citus pushes them to each shard as themselves (index-backed there)
-- rather than as worker_partial_agg(); SORTOP makes them index-backed on
-- PostgreSQL, the combine, serial and deserial functions parallel
\x on
SELECT a.aggfnoid::regprocedure AS aggregate, a.aggtransfn, a.aggtranstype::regtype,
       a.aggtransspace, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn,
       a.aggsortop::regoperator, a.agginitval
FROM pg_depend d JOIN pg_aggregate a ON a.aggfnoid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND d.deptype = 'e' AND d.classid = 'pg_proc'::regclass
ORDER BY 1::text;
\x off

-- every function, aggregate, operator, type, cast, operator class and
-- operator family has a comment
SELECT d.classid::regclass AS catalog, pg_describe_object(d.classid, d.objid, 0) AS object
FROM pg_depend d
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND d.classid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass, 'pg_cast'::regclass,
                    'pg_opclass'::regclass, 'pg_opfamily'::regclass)
  AND obj_description(d.objid, d.classid::regclass::text) IS NULL
  -- array types, and the row type of a view (an extension member on 17+ only),
  -- are described by their element type and by the view
  AND NOT (d.classid = 'pg_type'::regclass
           AND (SELECT typelem <> 0 OR typrelid <> 0 FROM pg_type WHERE oid = d.objid))
ORDER BY 2;

-- the comments of the operator classes and families (a check that they
-- exist would pass on any text)
SELECT pg_describe_object(d.classid, d.objid, 0) AS object,
       obj_description(d.objid, d.classid::regclass::text) AS comment
FROM pg_depend d
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND d.classid IN ('pg_opclass'::regclass, 'pg_opfamily'::regclass)
ORDER BY 1;

-- every operator class (with its family) passes its access method's
-- validator (amvalidate reports a problem as an INFO line and returns false): the
-- ulid btree and hash families, which also hold the cross-type operators
-- with uuid, are complete for every pair of ulid and uuid
SELECT pg_describe_object(d.classid, d.objid, 0) AS object, amvalidate(d.objid) AS valid
FROM pg_depend d
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND d.classid = 'pg_opclass'::regclass
ORDER BY 1;

-- the operators of the extension and what the planner needs of them
SELECT o.oid::regoperator AS operator, o.oprcode::regproc AS function,
       o.oprcom::regoperator AS commutator, o.oprnegate::regoperator AS negator,
       o.oprrest AS restrict, o.oprjoin AS join, o.oprcanhash AS hashes, o.oprcanmerge AS merges
FROM pg_depend d JOIN pg_operator o ON o.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND d.deptype = 'e' AND d.classid = 'pg_operator'::regclass
ORDER BY o.oid::regoperator::text;

-- no function body depends on search_path: every function is C or internal,
-- or pins search_path to pg_catalog, pg_temp (ulid_check_node_ids(), which
-- must not refer to Citus before it runs)
SELECT p.oid::regprocedure AS not_c_or_internal
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
JOIN pg_language l ON l.oid = p.prolang
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND d.deptype = 'e' AND d.classid = 'pg_proc'::regclass
  AND p.prokind <> 'a' AND l.lanname NOT IN ('c', 'internal')
  AND p.proconfig IS DISTINCT FROM '{"search_path=pg_catalog, pg_temp"}';
SELECT p.oid::regprocedure AS pinned_search_path, l.lanname, p.proconfig
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
JOIN pg_language l ON l.oid = p.prolang
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND d.deptype = 'e' AND d.classid = 'pg_proc'::regclass AND p.proconfig IS NOT NULL;

-- the extension is trusted: a database owner installs it (SPEC section 6;
-- test/scenarios/trusted.sh); creating it as superuser stays possible
SELECT version, trusted, superuser FROM pg_available_extension_versions WHERE name = 'ulid' ORDER BY version;
RESET search_path;
