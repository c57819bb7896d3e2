package ulidpg

import (
	"database/sql"
	"database/sql/driver"
	"encoding"
	"encoding/json"
	"testing"

	"github.com/jackc/pgtype"
)

// the interfaces of issue 43 (F5), checked at compile time
var (
	_ json.Marshaler           = ULID{}
	_ json.Unmarshaler         = (*ULID)(nil)
	_ encoding.TextMarshaler   = ULID{}
	_ encoding.TextUnmarshaler = (*ULID)(nil)
	_ sql.Scanner              = (*ULID)(nil)
	_ driver.Valuer            = ULID{}
)

func TestText(t *testing.T) {
	b, err := Parse("01htqw311n1kr5g0y75m3ef00h")
	if err != nil || Format(b) != "01HTQW311N1KR5G0Y75M3EF00H" {
		t.Fatalf("round trip: %v %v", Format(b), err)
	}
	u, err := Parse("018eafc1-8435-0cf0-5803-c72d06e78011")
	if err != nil || u != b {
		t.Fatalf("a UUID's text is the same bytes: %x %v", u, err)
	}
	for _, bad := range []string{"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01HTQW311I1KR5G0Y75M3EF00H", "01HTQW311N"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if Format([16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}) != "7ZZZZZZZZZZZZZZZZZZZZZZZZZ" {
		t.Error("the largest ULID")
	}
}

// issue 43 (F5): json.Marshal gave {"Bytes":[...],"Status":2}
func TestJSON(t *testing.T) {
	var u ULID
	if err := u.Set("018eafc1-8435-0cf0-5803-c72d06e78011"); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(map[string]interface{}{"id": u, "p": &u, "null": ULID{Status: pgtype.Null}})
	if want := `{"id":"01HTQW311N1KR5G0Y75M3EF00H","null":null,"p":"01HTQW311N1KR5G0Y75M3EF00H"}`; err != nil || string(got) != want {
		t.Errorf("json.Marshal: %s %v, want %s", got, err, want)
	}
	got, err = json.Marshal(map[ULID]int{u: 1})
	if want := `{"01HTQW311N1KR5G0Y75M3EF00H":1}`; err != nil || string(got) != want {
		t.Errorf("json.Marshal of a map key: %s %v, want %s", got, err, want)
	}
	var back struct{ ID, Lower, Nil ULID }
	err = json.Unmarshal([]byte(`{"ID":"01HTQW311N1KR5G0Y75M3EF00H","Lower":"01htqw311n1kr5g0y75m3ef00h","Nil":null}`), &back)
	if err != nil || back.ID != u || back.Lower != u || back.Nil.Status != pgtype.Null {
		t.Errorf("json.Unmarshal: %+v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`"ABCDEFGHIJKLMNOP"`), &back.ID); err == nil {
		t.Error("json.Unmarshal took 16 characters as a ULID")
	}
	if _, err := json.Marshal(ULID{}); err == nil {
		t.Error("json.Marshal of an undefined ULID")
	}
	text, err := u.MarshalText()
	var v ULID
	if err != nil || string(text) != "01HTQW311N1KR5G0Y75M3EF00H" || v.UnmarshalText(text) != nil || v != u {
		t.Errorf("MarshalText/UnmarshalText: %s %v %v", text, err, v)
	}
}

// database/sql: Scan takes the text or 16 bytes, Value gives the text
func TestSQL(t *testing.T) {
	var a, b, c ULID
	if err := a.Scan("01htqw311n1kr5g0y75m3ef00h"); err != nil {
		t.Fatal(err)
	}
	if err := b.Scan([]byte{0x01, 0x8e, 0xaf, 0xc1, 0x84, 0x35, 0x0c, 0xf0, 0x58, 0x03, 0xc7, 0x2d, 0x06, 0xe7, 0x80, 0x11}); err != nil || b != a {
		t.Errorf("Scan of 16 bytes: %v %v", b, err)
	}
	if err := c.Scan(nil); err != nil || c.Status != pgtype.Null {
		t.Errorf("Scan of NULL: %v %v", c, err)
	}
	if v, err := a.Value(); err != nil || v != "01HTQW311N1KR5G0Y75M3EF00H" {
		t.Errorf("Value: %v %v", v, err)
	}
	if v, err := c.Value(); err != nil || v != nil {
		t.Errorf("Value of NULL: %v %v", v, err)
	}
}
