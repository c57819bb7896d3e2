// The test program of ulidpg (test/scenarios/client_go.sh): pgx v4 (Debian's
// golang-github-jackc-pgx-v4-dev, built offline in GOPATH mode) against a
// server with the ulid extension, first without ulidpg.Register (the gaps,
// with their exact errors), then with it.  Prints ok / not ok lines.
//
//	test PORT DATABASE
//	test PGBOUNCER_PORT DATABASE pgbouncer   (behind pgbouncer, transaction mode)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	ulidpg "github.com/ulid-pg/ulid/clients/go"
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

const known = "01HTQW311N1KR5G0Y75M3EF00H"
const knownUUID = "018eafc1-8435-0cf0-5803-c72d06e78011"

// untouched (issue 43): UUIDs ([16]byte, pgtype.UUID, a UUID's text) and
// strings into uuid, text and varchar columns, bytes into bytea; what each
// column then holds as text, or the error, so that runs before and after
// Register compare
func untouched(ctx context.Context, conn *pgx.Conn) []string {
	raw := [16]byte{0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50}
	cases := []struct {
		col string
		val interface{}
	}{
		{"u", raw}, {"u", pgtype.UUID{Bytes: raw, Status: pgtype.Present}}, {"u", knownUUID},
		{"t", raw}, {"t", knownUUID}, {"t", known}, {"v", pgtype.UUID{Bytes: raw, Status: pgtype.Present}},
		{"v", knownUUID}, {"v", strings.ToLower(known)}, {"b", raw[:]}, {"b", []byte(known)},
	}
	var out []string
	for _, c := range cases {
		as := c.col + "::text"
		if c.col == "b" {
			as = "encode(b, 'hex')"
		}
		var got string
		err := conn.QueryRow(ctx, "INSERT INTO untouched ("+c.col+") VALUES ($1) RETURNING "+as, c.val).Scan(&got)
		if err != nil {
			got = "error " + sqlstate(err)
		}
		out = append(out, got)
	}
	return out
}

// behindPgbouncer: Register and ulid[] through pgbouncer in transaction
// mode (two server connections), four connections at once, so that their
// statements cross server connections
func behindPgbouncer(ctx context.Context, dsn string) {
	each := func(desc, extra string, work func(conn *pgx.Conn) error) {
		var wg sync.WaitGroup
		got := make([]string, 4)
		for i := range got {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				conn, err := pgx.Connect(ctx, dsn+extra)
				if err == nil {
					defer conn.Close(ctx)
					err = work(conn)
				}
				got[i] = sqlstate(err)
			}(i)
		}
		wg.Wait()
		check(desc, []string{"ok", "ok", "ok", "ok"}, got)
	}
	// the lookup in Register used pgx's statement cache: "prepared statement
	// lrupsc_1_0 does not exist" (26000) once it ran on another server connection
	each("behind pgbouncer, the default statement cache: 4 connections at once, ulidpg.Register x3 each", "",
		func(conn *pgx.Conn) error {
			for r := 0; r < 3; r++ {
				if err := ulidpg.Register(ctx, conn); err != nil {
					return err
				}
			}
			return nil
		})
	// (statement_cache_capacity=0 is not enough: pgx v4 then prepares an
	// unnamed statement in a round trip of its own, which pgbouncer may
	// route to another server connection than the Bind: 26000 for 2 of 4)
	each("behind pgbouncer, prefer_simple_protocol=true (the README): Register, then ulid[] into []string x3", " prefer_simple_protocol=true",
		func(conn *pgx.Conn) error {
			if err := ulidpg.Register(ctx, conn); err != nil {
				return err
			}
			for r := 0; r < 3; r++ {
				var ids []string
				if err := conn.QueryRow(ctx, "SELECT ARRAY[$1::ulid, $2]", known, strings.ToLower(known)).Scan(&ids); err != nil {
					return err
				}
				if !reflect.DeepEqual(ids, []string{known, known}) {
					return fmt.Errorf("read %v", ids)
				}
			}
			return nil
		})
}

func main() {
	ctx := context.Background()
	if len(os.Args) > 3 && os.Args[3] == "pgbouncer" {
		behindPgbouncer(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=postgres dbname=%s", os.Args[1], os.Args[2]))
		if failed > 0 {
			os.Exit(1)
		}
		return
	}
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
		sf bigint DEFAULT snowflake_next('twitter'), tags ulid[])`))
	var n int
	var id string

	// without ulidpg: the gaps
	var direct []string
	err = conn.QueryRow(ctx, "SELECT ARRAY[$1::ulid]", known).Scan(&direct)
	check("without Register: ulid[] into a []string fails (unknown oid)", true, err != nil && strings.Contains(err.Error(), "unknown oid"))
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"x"}, []string{"id", "n"}, pgx.CopyFromRows([][]interface{}{{known, 3}}))
	check("without Register: CopyFrom with a string id is 22P03 (26 bytes of text sent as binary)", "22P03", sqlstate(err))
	u := [16]byte{0x01, 0x8e, 0xaf, 0xc1, 0x84, 0x35, 0x0c, 0xf0, 0x58, 0x03, 0xc7, 0x2d, 0x06, 0xe7, 0x80, 0x11}
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", u).Scan(&n)
	check("without Register: a [16]byte parameter cannot be encoded", true, err != nil && strings.Contains(strings.ToLower(err.Error()), "cannot encode"))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", knownUUID).Scan(&n)
	check("without Register: a UUID string is 22P02", "22P02", sqlstate(err))

	must(conn.Exec(ctx, "CREATE TABLE untouched (u uuid, t text, v varchar, b bytea)"))
	before := untouched(ctx, conn)
	check("without Register: UUIDs, strings and bytes into uuid, text, varchar and bytea columns", knownUUID+" "+known,
		before[2]+" "+before[5])
	check("ulidpg.Register(ctx, conn)", "ok", sqlstate(ulidpg.Register(ctx, conn)))
	check("with Register: the same rows and errors (nothing but ulid changes)", before, untouched(ctx, conn))

	// strings
	err = conn.QueryRow(ctx, "INSERT INTO x (n) VALUES (1) RETURNING id").Scan(&id)
	check("INSERT ... RETURNING id into a string: the ULID text", true, err == nil && ulidRe.MatchString(id))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", id).Scan(&n)
	check("WHERE id = $1 with a string", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", strings.ToLower(id)).Scan(&n)
	check("WHERE id = $1 with a lower-case string", "ok 1", fmt.Sprint(sqlstate(err), " ", n))

	// UUIDs: [16]byte, pgtype.UUID, UUID strings
	var back string
	err = conn.QueryRow(ctx, "INSERT INTO x (id, n) VALUES ($1, 2) RETURNING id", u).Scan(&back)
	check("INSERT with a [16]byte (google/uuid's UUID is one)", "ok "+known, sqlstate(err)+" "+back)
	var ub [16]byte
	err = conn.QueryRow(ctx, "SELECT id FROM x WHERE id = $1::uuid", knownUUID).Scan(&ub)
	check("the ulid scans into a [16]byte (a UUID string still needs $1::uuid: pgx sends strings as they are)", "ok true", fmt.Sprint(sqlstate(err), " ", ub == u))
	var pu pgtype.UUID
	err = conn.QueryRow(ctx, "SELECT id FROM x WHERE n = 2").Scan(&pu)
	check("a ulid scans into a pgtype.UUID", "ok true", fmt.Sprint(sqlstate(err), " ", pu.Bytes == u))
	var ut string
	err = conn.QueryRow(ctx, "SELECT id::uuid::text FROM x WHERE id = $1", pu).Scan(&ut)
	check("a pgtype.UUID parameter; id::uuid is the same UUID", "ok "+knownUUID, sqlstate(err)+" "+ut)
	var v ulidpg.ULID
	err = conn.QueryRow(ctx, "SELECT id FROM x WHERE n = 2").Scan(&v)
	check("a ulidpg.ULID scans and prints", "ok "+known, sqlstate(err)+" "+v.String())
	js, err := json.Marshal(map[string]interface{}{"id": v})
	check("json.Marshal of a ulidpg.ULID is its text (issue 43, F5)", `ok {"id":"`+known+`"}`, sqlstate(err)+" "+string(js))

	// ulid[]
	var ids []string
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM x").Scan(&ids)
	check("ulid[] into a []string", "ok 2 "+known, fmt.Sprint(sqlstate(err), " ", len(ids), " ", ids[0]))
	_, err = conn.Exec(ctx, "UPDATE x SET tags = $1 WHERE id = $2", ids, id)
	var tags []string
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT tags FROM x WHERE id = $1", id).Scan(&tags)
	}
	check("a []string into a ulid[] column, and back", "ok "+fmt.Sprint(ids), sqlstate(err)+" "+fmt.Sprint(tags))
	var cnt int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM x WHERE id = ANY($1)", ids).Scan(&cnt)
	check("id = ANY($1) with a []string", "ok 2", fmt.Sprint(sqlstate(err), " ", cnt))

	// CopyFrom (binary COPY): ids as [16]byte (ulidpg.Parse) or ulidpg.ULID
	// values; pgx writes a string as it is (26 bytes: 22P03)
	j, _ := ulidpg.Parse("01htqw311n1kr5g0y75m3ef00j")
	var k ulidpg.ULID
	_ = k.Set("018eafc1-8435-0cf0-5803-c72d06e78013")
	rows := [][]interface{}{{j, 3}, {k, 4}}
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"x"}, []string{"id", "n"}, pgx.CopyFromRows(rows))
	check("CopyFrom with a [16]byte id (ulidpg.Parse) and a ulidpg.ULID id", "ok 2", fmt.Sprint(sqlstate(err), " ", copied))
	err = conn.QueryRow(ctx, "SELECT string_agg(id::text, ',' ORDER BY n) FROM x WHERE n IN (3, 4)").Scan(&back)
	check("... the copied rows have those ULIDs", "ok 01HTQW311N1KR5G0Y75M3EF00J,01HTQW311N1KR5G0Y75M3EF00K", sqlstate(err)+" "+back)
	copied, err = conn.CopyFrom(ctx, pgx.Identifier{"x"}, []string{"n"}, pgx.CopyFromSlice(100, func(i int) ([]interface{}, error) {
		return []interface{}{100 + i}, nil
	}))
	check("CopyFrom of 100 rows leaving id to its default", "ok 100", fmt.Sprint(sqlstate(err), " ", copied))

	// generic plans: a prepared statement under force_generic_plan
	must(conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"))
	_, err = conn.Prepare(ctx, "byid", "SELECT n FROM x WHERE id = $1")
	found := 0
	for i := 0; i < 7 && err == nil; i++ {
		if err = conn.QueryRow(ctx, "byid", id).Scan(&n); err == nil && n == 1 {
			found++
		}
	}
	check("prepared statement x7 under force_generic_plan", "ok 7", fmt.Sprint(sqlstate(err), " ", found))
	must(conn.Exec(ctx, "RESET plan_cache_mode"))

	// the simple protocol inlines parameters as text literals
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", pgx.QuerySimpleProtocol(true), id).Scan(&n)
	check("simple protocol with a string", "ok 1", fmt.Sprint(sqlstate(err), " ", n))
	err = conn.QueryRow(ctx, "SELECT n FROM x WHERE id = $1", pgx.QuerySimpleProtocol(true), pu).Scan(&n)
	check("simple protocol with pgtype.UUID: inlined as UUID text, 22P02 (a pitfall that stays: write $1::uuid)", "22P02", sqlstate(err))

	// Snowflake ids and times
	var sf int64
	err = conn.QueryRow(ctx, "SELECT sf FROM x WHERE id = $1", id).Scan(&sf)
	check("snowflake_next() default into an int64 (above 2^53, exact)", "ok true", fmt.Sprint(sqlstate(err), " ", sf > 1<<53))
	var t time.Time
	err = conn.QueryRow(ctx, "SELECT ulid_time(id) FROM x WHERE id = $1", id).Scan(&t)
	check("ulid_time(id) into a time.Time, near now", "ok true", fmt.Sprint(sqlstate(err), " ", time.Since(t) < time.Minute))

	if failed > 0 {
		os.Exit(1)
	}
}
