package ulidpg

import "testing"

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
