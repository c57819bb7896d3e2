// Go with pgx v4 (Debian's golang-github-jackc-pgx-v4-dev, built offline in
// GOPATH mode) against ulid: strings, pgtype.UUID, ulid[] scanning,
// CopyFrom, generic plans and the simple protocol.  pgx prepares every
// query, learns that $1 is a ulid (an OID it does not know) and sends Go
// strings as text, binary encoders (pgtype.UUID) as binary: the 16 raw bytes
// a binary ulid is.  What needs a recipe is checked as such: the pitfall
// (the exact error) and the recipe (README, "Go (pgx)").  Prints ok / not ok.
//
//	ulid_pgx PORT DATABASE
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

var failed int

func check(desc string, expected, actual interface{}) {
	if reflect.DeepEqual(expected, actual) {
		fmt.Printf("ok - %s\n", desc)
	} else {
		failed++
		fmt.Printf("not ok - %s (expected %v, got %v)\n", desc, expected, actual)
	}
}

// sqlstate: the SQLSTATE of a server error, "client: ..." for an error pgx
// raises itself, "ok" for none
func sqlstate(err error) string {
	var pgErr *pgconn.PgError
	if err == nil {
		return "ok"
	}
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return "client: " + err.Error()
}

var ulidRe = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}$`)

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=postgres dbname=%s", os.Args[1], os.Args[2]))
	if err != nil {
		fmt.Printf("not ok - connect: %v\n", err)
		os.Exit(1)
	}
	defer conn.Close(ctx)
	must := func(_ pgconn.CommandTag, err error) {
		if err != nil {
			fmt.Printf("not ok - setup: %v\n", err)
			os.Exit(1)
		}
	}
	must(conn.Exec(ctx, `CREATE TABLE x (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int,
		sf bigint DEFAULT snowflake_next('twitter'))`))

	// strings
	var id string
	err = conn.QueryRow(ctx, "INSERT INTO x (n) VALUES (1) RETURNING id").Scan(&id)
	check("INSERT ... RETURNING id into a string: the ULID text", true, err == nil && ulidRe.MatchString(id))
	var n int
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", id).Scan(&n)
	check("WHERE id = $1 with a string", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", strings.ToLower(id)).Scan(&n)
	check("WHERE id = $1 with a lower-case string", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	var utext string
	must(nil, conn.QueryRow(ctx, "SELECT $1::ulid::uuid::text", id).Scan(&utext))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", utext).Scan(&n)
	check("WHERE id = $1 with a UUID string: 22P02 (the pitfall)", "22P02", sqlstate(err))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1::uuid", utext).Scan(&n)
	check("WHERE id = $1::uuid with a UUID string (the recipe)", "ok", sqlstate(err))

	// pgtype.UUID: 16 binary bytes against the inferred ulid parameter
	var u pgtype.UUID
	must(nil, conn.QueryRow(ctx, "SELECT id::uuid FROM x WHERE id = $1", id).Scan(&u))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", u).Scan(&n)
	check("WHERE id = $1 with pgtype.UUID", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	var u2 pgtype.UUID
	must(nil, conn.QueryRow(ctx, "SELECT gen_ulid()::uuid").Scan(&u2))
	var back string
	err = conn.QueryRow(ctx, "INSERT INTO x (id, n) VALUES ($1, 2) RETURNING id::uuid::text", u2).Scan(&back)
	check("INSERT with pgtype.UUID and no cast (typed ulid by the server: no 42804)", "ok true",
		fmt.Sprint(sqlstate(err), " ", err == nil && strings.ReplaceAll(back, "-", "") == fmt.Sprintf("%x", u2.Bytes)))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", u.Bytes).Scan(&n)
	check("WHERE id = $1 with a [16]byte: pgx cannot encode it for ulid (the pitfall)", true,
		err != nil && strings.Contains(err.Error(), "cannot encode") || err != nil && strings.Contains(err.Error(), "Cannot encode"))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1::uuid", u.Bytes).Scan(&n)
	check("WHERE id = $1::uuid with a [16]byte (the recipe)", "ok 1", fmt.Sprint(sqlstate(err), " ", n))

	// lists and ulid[]
	var ids []string
	must(nil, conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id)::text[] FROM x").Scan(&ids))
	var cnt int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM x WHERE id = ANY($1)", ids).Scan(&cnt)
	check("id = ANY($1) with a []string", "ok 2", fmt.Sprint(sqlstate(err), " ", cnt))
	var direct []string
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM x").Scan(&direct)
	check("ulid[] into a []string: pgx does not know the array type (the pitfall)", true,
		err != nil && strings.Contains(err.Error(), "unknown oid"))
	var ta pgtype.TextArray
	var fromTA []string
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM x").Scan(&ta)
	if err == nil {
		err = ta.AssignTo(&fromTA)
	}
	check("ulid[] into a pgtype.TextArray, then AssignTo []string (the recipe)", ids, fromTA)
	check("array_agg(id)::text[] into a []string (the other recipe)", "2 true true", fmt.Sprint(len(ids), " ", ulidRe.MatchString(ids[0]), " ", ulidRe.MatchString(ids[len(ids)-1])))

	// CopyFrom: binary COPY
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"x"}, []string{"id", "n"},
		pgx.CopyFromRows([][]interface{}{{"01HTQW311N1KR5G0Y75M3EF00H", 3}}))
	check("CopyFrom with a string id: 22P03, 26 bytes of text sent as binary (the pitfall)", "22P03", sqlstate(err))
	var u3 pgtype.UUID
	must(nil, conn.QueryRow(ctx, "SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid").Scan(&u3))
	rows := [][]interface{}{{u3, 3}}
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"x"}, []string{"id", "n"}, pgx.CopyFromRows(rows))
	check("CopyFrom with pgtype.UUID ids (the recipe)", "ok 1", fmt.Sprint(sqlstate(err), " ", copied))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = '01HTQW311N1KR5G0Y75M3EF00H'").Scan(&n)
	check("... the copied row has that ULID", "ok 3", fmt.Sprint(sqlstate(err), " ", n))
	copied, err = conn.CopyFrom(ctx, pgx.Identifier{"x"}, []string{"n"}, pgx.CopyFromRows([][]interface{}{{4}, {5}}))
	check("CopyFrom leaving id to its default", "ok 2", fmt.Sprint(sqlstate(err), " ", copied))

	// generic plans: a prepared statement under force_generic_plan
	must(conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"))
	_, err = conn.Prepare(ctx, "byid", "SELECT n FROM x WHERE id = $1")
	found := 0
	for i := 0; i < 7 && err == nil; i++ {
		if err = conn.QueryRow(ctx, "byid", id).Scan(&n); err == nil && n == 1 {
			found++
		}
	}
	var generic int64
	must(nil, conn.QueryRow(ctx, "SELECT generic_plans FROM pg_prepared_statements WHERE name = 'byid'").Scan(&generic))
	check("prepared statement x7 under force_generic_plan", "ok 7 7", fmt.Sprint(sqlstate(err), " ", found, " ", generic))
	must(conn.Exec(ctx, "RESET plan_cache_mode"))

	// the simple protocol inlines parameters as literals
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", pgx.QuerySimpleProtocol(true), id).Scan(&n)
	check("simple protocol with a string", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", pgx.QuerySimpleProtocol(true), u).Scan(&n)
	check("simple protocol with pgtype.UUID: inlined as UUID text, 22P02 (the pitfall)", "22P02", sqlstate(err))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1::uuid", pgx.QuerySimpleProtocol(true), u).Scan(&n)
	check("simple protocol with pgtype.UUID and $1::uuid (the recipe)", "ok 1", fmt.Sprint(sqlstate(err), " ", n))

	// binary results: the 16 raw bytes
	var raw []byte
	err = conn.QueryRow(ctx, "SELECT id FROM x WHERE id = $1", pgx.QueryResultFormats{pgx.BinaryFormatCode}, id).Scan(&raw)
	check("binary result format into []byte: the 16 bytes of the uuid form", fmt.Sprintf("%x", u.Bytes), fmt.Sprintf("%x", raw))

	// Snowflake ids and times
	var sf int64
	err = conn.QueryRow(ctx, "SELECT sf FROM x WHERE id = $1", id).Scan(&sf)
	check("snowflake_next() default into an int64 (above 2^53, exact)", "ok true", fmt.Sprint(sqlstate(err), " ", sf > 1<<53))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE sf = $1", sf).Scan(&n)
	check("WHERE sf = $1 with an int64", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	var t time.Time
	err = conn.QueryRow(ctx, "SELECT ulid_time(id) FROM x WHERE id = $1", id).Scan(&t)
	check("ulid_time(id) into a time.Time, near now", "ok true", fmt.Sprint(sqlstate(err), " ", time.Since(t) < time.Minute))

	if failed > 0 {
		os.Exit(1)
	}
}
