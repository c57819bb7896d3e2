// Package ulidpg is the PostgreSQL ulid type (the ulid extension) for pgx v4.
//
//	err := ulidpg.Register(ctx, conn)   // per connection; pgxpool: AfterConnect: ulidpg.Register
//
// After it, ulid and ulid[] are known to the connection (their OIDs differ per
// database): a ulid parameter takes a [16]byte or any 16-byte array type
// (such as google/uuid's UUID), a []byte of 16 bytes, a pgtype.UUID or a
// ULID, and sends the 16 binary bytes, also in CopyFrom; a ulid result scans
// into a string (the ULID text), a [16]byte, a pgtype.UUID or a ULID; ulid[]
// into and from []string.  pgx sends a Go string as it is: ULID text works
// in queries (any case), a UUID's text needs $1::uuid, and CopyFrom needs the
// bytes (Parse).  Nothing but ulid and ulid[] changes: other parameters are
// encoded as without Register.  ULID is also a sql.Scanner, a driver.Valuer,
// and marshals as its text (encoding/json, encoding.TextMarshaler).
package ulidpg

import (
	"context"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ULID is a ulid value; its zero value is SQL NULL (Status Undefined).
type ULID struct {
	Bytes  [16]byte
	Status pgtype.Status
}

// Register looks up ulid and ulid[] in the connected database and registers
// them with the connection's ConnInfo.  The lookup uses the simple protocol
// (no prepared statement), so it works behind pgbouncer in transaction mode
// whatever the connection's statement cache.
func Register(ctx context.Context, conn *pgx.Conn) error {
	var oid, arrayOID uint32
	err := conn.QueryRow(ctx, "SELECT oid, typarray FROM pg_type WHERE oid = to_regtype('ulid')",
		pgx.QuerySimpleProtocol(true)).Scan(&oid, &arrayOID)
	if errors.Is(err, pgx.ErrNoRows) {
		return errors.New("ulidpg: type ulid not found: CREATE EXTENSION ulid first")
	} else if err != nil {
		return err
	}
	ci := conn.ConnInfo()
	ci.RegisterDataType(pgtype.DataType{Value: &ULID{}, Name: "ulid", OID: oid})
	ci.RegisterDataType(pgtype.DataType{
		Value: pgtype.NewArrayType("_ulid", oid, func() pgtype.ValueTranscoder { return &ULID{} }),
		Name:  "_ulid", OID: arrayOID,
	})
	return nil
}

// Parse reads a ULID's 26 Crockford Base32 characters (any case) or a
// UUID's text (the same 16 bytes).
func Parse(s string) ([16]byte, error) {
	var b [16]byte
	if len(s) == 36 || len(s) == 32 {
		if h, err := hex.DecodeString(strings.ReplaceAll(s, "-", "")); err == nil && len(h) == 16 {
			copy(b[:], h)
			return b, nil
		}
	}
	if len(s) != 26 {
		return b, fmt.Errorf("ulidpg: %q is not a ULID (26 characters) nor a UUID", s)
	}
	var hi, lo uint64 // 128 bits, 5 at a time
	for i := 0; i < 26; i++ {
		v := strings.IndexByte(alphabet, upper(s[i]))
		if v < 0 || (i == 0 && v > 7) {
			return b, fmt.Errorf("ulidpg: %q is not a ULID (character %d)", s, i+1)
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(v)
	}
	for i := 0; i < 8; i++ {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	return b, nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// Format writes 16 bytes as the 26-character ULID text.
func Format(b [16]byte) string {
	var hi, lo uint64
	for i := 0; i < 8; i++ {
		hi = hi<<8 | uint64(b[i])
		lo = lo<<8 | uint64(b[8+i])
	}
	var out [26]byte
	for i := 25; i >= 0; i-- { // the lowest 5 bits, then shift the 128 bits right by 5
		out[i] = alphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// String is the ULID text ("" for NULL).
func (u ULID) String() string {
	if u.Status != pgtype.Present {
		return ""
	}
	return Format(u.Bytes)
}

// Set takes a string, [16]byte (or any 16-byte array type), []byte,
// pgtype.UUID, ULID, or nil.
func (u *ULID) Set(src interface{}) error {
	switch v := src.(type) {
	case nil:
		*u = ULID{Status: pgtype.Null}
	case ULID:
		*u = v
	case *ULID:
		if v == nil {
			*u = ULID{Status: pgtype.Null}
		} else {
			*u = *v
		}
	case string:
		b, err := Parse(v)
		if err != nil {
			return err
		}
		*u = ULID{Bytes: b, Status: pgtype.Present}
	case *string:
		if v == nil {
			*u = ULID{Status: pgtype.Null}
			return nil
		}
		return u.Set(*v)
	case []byte:
		if v == nil {
			*u = ULID{Status: pgtype.Null}
			return nil
		}
		if len(v) != 16 {
			return fmt.Errorf("ulidpg: a ULID is 16 bytes, not %d", len(v))
		}
		*u = ULID{Status: pgtype.Present}
		copy(u.Bytes[:], v)
	case pgtype.UUID:
		*u = ULID{Bytes: v.Bytes, Status: v.Status}
	default:
		r := reflect.ValueOf(src)
		if r.Kind() == reflect.Array && r.Len() == 16 && r.Type().Elem().Kind() == reflect.Uint8 {
			*u = ULID{Status: pgtype.Present}
			reflect.Copy(reflect.ValueOf(u.Bytes[:]), r)
			return nil
		}
		return fmt.Errorf("ulidpg: cannot convert %T to a ULID", src)
	}
	return nil
}

// Get is the ULID text, nil for NULL.
func (u ULID) Get() interface{} {
	switch u.Status {
	case pgtype.Present:
		return u.String()
	case pgtype.Null:
		return nil
	default:
		return u.Status
	}
}

// AssignTo scans into *string, *[16]byte, *[]byte, *pgtype.UUID or *ULID.
func (u *ULID) AssignTo(dst interface{}) error {
	if u.Status != pgtype.Present {
		if u.Status == pgtype.Null {
			switch v := dst.(type) {
			case **string:
				*v = nil
				return nil
			case *pgtype.UUID:
				*v = pgtype.UUID{Status: pgtype.Null}
				return nil
			case *ULID:
				*v = *u
				return nil
			}
		}
		return fmt.Errorf("ulidpg: cannot assign a NULL ulid to %T", dst)
	}
	switch v := dst.(type) {
	case *string:
		*v = u.String()
	case **string:
		s := u.String()
		*v = &s
	case *[16]byte:
		*v = u.Bytes
	case *[]byte:
		*v = append([]byte(nil), u.Bytes[:]...)
	case *pgtype.UUID:
		*v = pgtype.UUID{Bytes: u.Bytes, Status: pgtype.Present}
	case *ULID:
		*v = *u
	default:
		return fmt.Errorf("ulidpg: cannot assign a ulid to %T", dst)
	}
	return nil
}

func (u *ULID) DecodeText(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		*u = ULID{Status: pgtype.Null}
		return nil
	}
	return u.Set(string(src))
}

func (u *ULID) DecodeBinary(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		*u = ULID{Status: pgtype.Null}
		return nil
	}
	return u.Set(src)
}

func (u ULID) EncodeText(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	switch u.Status {
	case pgtype.Null:
		return nil, nil
	case pgtype.Undefined:
		return nil, errors.New("ulidpg: cannot encode an undefined ULID")
	}
	return append(buf, u.String()...), nil
}

func (u ULID) EncodeBinary(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	switch u.Status {
	case pgtype.Null:
		return nil, nil
	case pgtype.Undefined:
		return nil, errors.New("ulidpg: cannot encode an undefined ULID")
	}
	return append(buf, u.Bytes[:]...), nil
}

// Scan and Value: database/sql (pgx's stdlib) reads and writes the text.
func (u *ULID) Scan(src interface{}) error {
	switch v := src.(type) {
	case nil:
		*u = ULID{Status: pgtype.Null}
		return nil
	case string:
		return u.Set(v)
	case []byte:
		if len(v) == 16 {
			return u.Set(v)
		}
		return u.Set(string(v))
	}
	return fmt.Errorf("ulidpg: cannot scan %T", src)
}

func (u ULID) Value() (driver.Value, error) {
	if u.Status != pgtype.Present {
		return nil, nil
	}
	return u.String(), nil
}

// MarshalJSON is the ULID text as a JSON string, null for NULL.
func (u ULID) MarshalJSON() ([]byte, error) {
	switch u.Status {
	case pgtype.Present:
		return json.Marshal(u.String())
	case pgtype.Null:
		return []byte("null"), nil
	}
	return nil, errors.New("ulidpg: cannot marshal an undefined ULID")
}

// UnmarshalJSON takes a JSON string (a ULID in any case, or a UUID's text)
// or null.
func (u *ULID) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*u = ULID{Status: pgtype.Null}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("ulidpg: a ULID is a JSON string: %w", err)
	}
	return u.Set(s)
}

// MarshalText is the ULID text (empty for NULL), also for JSON map keys.
func (u ULID) MarshalText() ([]byte, error) {
	switch u.Status {
	case pgtype.Present:
		return []byte(u.String()), nil
	case pgtype.Null:
		return []byte{}, nil
	}
	return nil, errors.New("ulidpg: cannot marshal an undefined ULID")
}

// UnmarshalText takes a ULID (any case) or a UUID's text; empty is NULL.
func (u *ULID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*u = ULID{Status: pgtype.Null}
		return nil
	}
	return u.Set(string(b))
}
