-- The ulid extension as a list: one line per member object (and per
-- operator and support function of its operator families), with everything
-- an install or upgrade script decides about it: function signature,
-- argument names and defaults, volatility, parallel safety, strictness,
-- SECURITY DEFINER, leakproofness, cost, rows, settings, language, symbol or
-- body, planner support; type layout and I/O functions; view definitions;
-- operator properties; operator class defaults and key types; operator
-- family members; aggregate definitions; cast contexts; owners (any owner
-- but the extension's is named); privileges; comments; and the extension's
-- own relocatability and configuration tables.  Two databases hold the same
-- extension when this lists the same lines (test/upgrade/run.sh,
-- test/scenarios/lifecycle.sh).
WITH ext AS (
    SELECT oid, extowner FROM pg_extension WHERE extname = 'ulid'
), members AS (
    SELECT d.classid, d.objid, d.objsubid FROM pg_depend d, ext
    WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
), family_members AS (
    SELECT 'pg_amop'::regclass::oid, o.oid, 0 FROM pg_amop o
    JOIN members m ON m.classid = 'pg_opfamily'::regclass AND m.objid = o.amopfamily
    UNION ALL
    SELECT 'pg_amproc'::regclass::oid, p.oid, 0 FROM pg_amproc p
    JOIN members m ON m.classid = 'pg_opfamily'::regclass AND m.objid = p.amprocfamily
), objects AS (
    SELECT * FROM members UNION ALL SELECT * FROM family_members
), owners AS (
    SELECT 'pg_proc'::regclass::oid AS classid, oid AS objid, proowner AS owner FROM pg_proc
    UNION ALL SELECT 'pg_type'::regclass, oid, typowner FROM pg_type
    UNION ALL SELECT 'pg_class'::regclass, oid, relowner FROM pg_class
    UNION ALL SELECT 'pg_operator'::regclass, oid, oprowner FROM pg_operator
    UNION ALL SELECT 'pg_opclass'::regclass, oid, opcowner FROM pg_opclass
    UNION ALL SELECT 'pg_opfamily'::regclass, oid, opfowner FROM pg_opfamily
)
SELECT 'extension ulid' || format(' [relocatable=%s config=%s]', extrelocatable,
                                  (SELECT array_agg(c::regclass ORDER BY c::regclass::text) FROM unnest(extconfig) c))
FROM pg_extension WHERE extname = 'ulid'
UNION ALL
SELECT pg_describe_object(o.classid, o.objid, o.objsubid)
    || coalesce((SELECT format(' [args (%s) %s %s strict=%s secdef=%s leakproof=%s cost=%s rows=%s config=%s returns %s%s, %s %s %s support=%s, acl %s]',
                               pg_get_function_arguments(p.oid), provolatile, proparallel, proisstrict, prosecdef,
                               proleakproof, procost, prorows, proconfig,
                               CASE WHEN proretset THEN 'setof ' ELSE '' END, prorettype::regtype,
                               (SELECT lanname FROM pg_language WHERE oid = prolang), probin, prosrc, prosupport, proacl)
                 FROM pg_proc p WHERE o.classid = 'pg_proc'::regclass AND p.oid = o.objid), '')
    || coalesce((SELECT format(' [%s %s acl %s columns %s: %s]', relkind, relpersistence, relacl,
                               (SELECT string_agg(format('%s %s', attname, atttypid::regtype), ', ' ORDER BY attnum)
                                FROM pg_attribute WHERE attrelid = c.oid AND attnum > 0 AND NOT attisdropped),
                               CASE WHEN relkind = 'v' THEN pg_get_viewdef(c.oid) END)
                 FROM pg_class c WHERE o.classid = 'pg_class'::regclass AND c.oid = o.objid), '')
    || coalesce((SELECT format(' [%s %s %s returns %s hashes=%s merges=%s commutator %s negator %s]', oprcode, oprrest, oprjoin,
                               oprresult::regtype, oprcanhash, oprcanmerge, oprcom::regoperator, oprnegate::regoperator)
                 FROM pg_operator p WHERE o.classid = 'pg_operator'::regclass AND p.oid = o.objid), '')
    || coalesce((SELECT format(' [%s %s %s %s category %s preferred=%s in %s out %s recv %s send %s modin %s modout %s analyze %s acl %s]',
                               typlen, typbyval, typalign, typstorage, typcategory, typispreferred,
                               typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze, typacl)
                 FROM pg_type t WHERE o.classid = 'pg_type'::regclass AND t.oid = o.objid), '')
    || coalesce((SELECT format(' [default=%s for %s key %s]', opcdefault, opcintype::regtype, opckeytype::regtype)
                 FROM pg_opclass c WHERE o.classid = 'pg_opclass'::regclass AND c.oid = o.objid), '')
    || coalesce((SELECT format(' [purpose %s sortfamily %s]', amoppurpose, amopsortfamily)
                 FROM pg_amop a WHERE o.classid = 'pg_amop'::regclass AND a.oid = o.objid), '')
    || coalesce((SELECT format(' [kind %s trans %s(%s, space %s, init %s) final %s modify %s combine %s serial %s deserial %s sortop %s]',
                               aggkind, aggtransfn::regprocedure, aggtranstype::regtype, aggtransspace, agginitval,
                               aggfinalfn, aggfinalmodify, aggcombinefn, aggserialfn, aggdeserialfn, aggsortop::regoperator)
                 FROM pg_aggregate a WHERE o.classid = 'pg_proc'::regclass AND a.aggfnoid = o.objid), '')
    || coalesce((SELECT format(' [%s %s %s]', castfunc::regprocedure, castcontext, castmethod)
                 FROM pg_cast c WHERE o.classid = 'pg_cast'::regclass AND c.oid = o.objid), '')
    || coalesce((SELECT ' owner ' || r.rolname FROM owners w JOIN pg_roles r ON r.oid = w.owner, ext
                 WHERE w.classid = o.classid AND w.objid = o.objid AND w.owner <> ext.extowner), '')
    || coalesce(' -- ' || obj_description(o.objid, o.classid::regclass::name), '')
FROM objects o
ORDER BY 1;
