package api_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// barcodeEnv is a user (fx) with a DEPOSIT-US node, an ACH-US node and a
// deleted DEPOSIT-US node, plus a second user with a node of their own.
type barcodeEnv struct {
	fake    *synapsefake.Server
	fx      testkit.Fixture
	ach     synapsefake.Node
	deleted synapsefake.Node
	other   testkit.Fixture
}

func newBarcodeEnv(t testing.TB, opts ...synapsefake.Option) barcodeEnv {
	t.Helper()
	fake := synapsefake.NewServer(t, opts...)
	env := barcodeEnv{fake: fake, fx: testkit.NewFixture(t, fake, 5000)}
	env.ach = fake.MustAddNode(t, env.fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", AccountNum: "123456789", RoutingNum: "051000017"})
	env.deleted = fake.MustAddNode(t, env.fx.User.ID, synapsefake.NodeSeed{Nickname: "Closed"})
	r := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: barcodeNodePath(env.fx.User.ID, env.deleted.ID), Header: env.fx.Headers})
	if r.Status != 200 {
		t.Fatalf("DELETE node: status %d: %s", r.Status, r.Raw)
	}
	env.other = testkit.NewFixture(t, fake, 0)
	return env
}

// barcodeSnapshot is the inspectable state a barcode call must not change.
type barcodeSnapshot struct {
	Users map[string]synapsefake.User
	Nodes map[string]synapsefake.Node
}

func (env barcodeEnv) snapshot(t testing.TB) barcodeSnapshot {
	t.Helper()
	s := barcodeSnapshot{Users: map[string]synapsefake.User{}, Nodes: map[string]synapsefake.Node{}}
	for _, id := range []string{env.fx.User.ID, env.other.User.ID} {
		u, ok := env.fake.User(id)
		if !ok {
			t.Fatalf("User(%s) not found", id)
		}
		s.Users[id] = u
	}
	for _, id := range []string{env.fx.Node.ID, env.ach.ID, env.deleted.ID, env.other.Node.ID} {
		n, ok := env.fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		s.Nodes[id] = n
	}
	return s
}

func (env barcodeEnv) wantUnchanged(t testing.TB, before barcodeSnapshot) {
	t.Helper()
	if diff := cmp.Diff(before, env.snapshot(t)); diff != "" {
		t.Errorf("store changed by a barcode call (-before +after):\n%s", diff)
	}
}

func barcodeNodePath(userID, nodeID string) string { return "/users/" + userID + "/nodes/" + nodeID }

func barcodePath(userID, nodeID string) string { return barcodeNodePath(userID, nodeID) + "/barcode" }

func barcodeBody(amount any, currency string, retailerID any) map[string]any {
	return map[string]any{"amount": map[string]any{"amount": amount, "currency": currency}, "retailer_id": retailerID}
}

var (
	barcodeHexID = regexp.MustCompile(`^[0-9a-f]{24}$`)
	digitsOnly   = regexp.MustCompile(`^[0-9]+$`)
)

// luhnValid reports whether the last digit of s is the Luhn check digit of the others.
func luhnValid(s string) bool {
	sum := 0
	for i := range len(s) {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// itfDigitOf maps the five elements of an Interleaved 2 of 5 digit (N
// narrow, W wide) to the digit.
var itfDigitOf = map[string]byte{
	"NNWWN": '0', "WNNNW": '1', "NWNNW": '2', "WWNNN": '3', "NNWNW": '4',
	"WNWNN": '5', "NWWNN": '6', "NNNWW": '7', "WNNWN": '8', "NWNWN": '9',
}

// readITF checks that img is a black-on-white 1D barcode, wider than tall,
// and reads it as Interleaved 2 of 5.
func readITF(img image.Image) (string, error) {
	b := img.Bounds()
	if b.Dx() <= b.Dy() || b.Dy() <= 0 {
		return "", fmt.Errorf("image is %dx%d, want width > height > 0", b.Dx(), b.Dy())
	}
	black := func(x, y int) (bool, error) {
		r, g, bl, a := img.At(x, y).RGBA()
		switch {
		case a == 0xffff && r == 0 && g == 0 && bl == 0:
			return true, nil
		case a == 0xffff && r == 0xffff && g == 0xffff && bl == 0xffff:
			return false, nil
		}
		return false, fmt.Errorf("pixel (%d,%d) is %v, neither black nor white", x, y, img.At(x, y))
	}
	row := func(y int) (string, error) {
		var sb strings.Builder
		for x := b.Min.X; x < b.Max.X; x++ {
			k, err := black(x, y)
			if err != nil {
				return "", err
			}
			sb.WriteByte(map[bool]byte{true: '1', false: '0'}[k])
		}
		return sb.String(), nil
	}
	mid := b.Min.Y + b.Dy()/2
	bars, err := row(mid)
	if err != nil {
		return "", err
	}
	blank := strings.Repeat("0", b.Dx())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		r, err := row(y)
		if err != nil {
			return "", err
		}
		if r != bars && r != blank {
			return "", fmt.Errorf("row %d differs from the middle row and is not blank: not a 1D barcode", y)
		}
	}
	// Runs of equal pixels along the middle row.
	var runs []int
	for i := 0; i < len(bars); {
		j := i
		for j < len(bars) && bars[j] == bars[i] {
			j++
		}
		runs = append(runs, j-i)
		i = j
	}
	if bars[0] != '0' || bars[len(bars)-1] != '0' || len(runs) < 3 {
		return "", fmt.Errorf("middle row has no quiet zones: %s", bars)
	}
	quietL, quietR, els := runs[0], runs[len(runs)-1], runs[1:len(runs)-1]
	narrow := els[0]
	for _, w := range els {
		narrow = min(narrow, w)
	}
	if quietL < 10*narrow || quietR < 10*narrow {
		return "", fmt.Errorf("quiet zones %d and %d px, want at least 10 narrow elements of %d px", quietL, quietR, narrow)
	}
	var ws strings.Builder
	for _, w := range els {
		switch {
		case w == narrow:
			ws.WriteByte('N')
		case w >= 2*narrow && w <= 3*narrow:
			ws.WriteByte('W')
		default:
			return "", fmt.Errorf("element of %d px is neither narrow (%d px) nor wide (2 to 3 times)", w, narrow)
		}
	}
	code := ws.String()
	if (len(code)-7)%10 != 0 || !strings.HasPrefix(code, "NNNN") || !strings.HasSuffix(code, "WNN") {
		return "", fmt.Errorf("elements %s are not start NNNN, pairs of digits, stop WNN", code)
	}
	var digits []byte
	for p := code[4 : len(code)-3]; p != ""; p = p[10:] {
		var barEls, spaceEls []byte
		for k := range 5 {
			barEls, spaceEls = append(barEls, p[2*k]), append(spaceEls, p[2*k+1])
		}
		d1, ok1 := itfDigitOf[string(barEls)]
		d2, ok2 := itfDigitOf[string(spaceEls)]
		if !ok1 || !ok2 {
			return "", fmt.Errorf("elements %s encode no pair of digits", p[:10])
		}
		digits = append(digits, d1, d2)
	}
	return string(digits), nil
}

// checkBarcodeFields replaces the values of _id, barcode and barcode_base64
// in a copy of body by "ok" when they are well formed and by what is wrong
// otherwise, so that the whole body can be compared with cmp.Diff.
func checkBarcodeFields(body map[string]any) map[string]any {
	out := maps.Clone(body)
	if id, ok := out["_id"].(string); ok && barcodeHexID.MatchString(id) {
		out["_id"] = "ok"
	}
	code, _ := out["barcode"].(string)
	switch {
	case !digitsOnly.MatchString(code) || len(code) != 30:
		// left as is: the diff shows it
	case !luhnValid(code):
		out["barcode"] = "check digit wrong: " + code
	default:
		out["barcode"] = "ok"
	}
	if b64, ok := out["barcode_base64"].(string); ok {
		out["barcode_base64"] = checkBarcodeImage(b64, code)
	}
	return out
}

// checkBarcodeImage is "ok" when b64 is standard base64 of a PNG of an
// Interleaved 2 of 5 barcode of digits, and says what is wrong otherwise.
func checkBarcodeImage(b64, digits string) string {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "not standard base64: " + err.Error()
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return "not a PNG: " + err.Error()
	}
	got, err := readITF(img)
	if err != nil {
		return err.Error()
	}
	if got != digits {
		return fmt.Sprintf("image encodes %s, barcode is %s", got, digits)
	}
	return "ok"
}

func TestBarcode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		scopes []string // of the caller's key; every scope when nil
		body   any
	}{
		{name: "deposit node", body: barcodeBody(20.5, "USD", 1)},
		{name: "key with NODE|GET only", scopes: []string{"NODE|GET"}, body: barcodeBody(20.5, "USD", 1)},
		{name: "one cent", body: barcodeBody(0.01, "USD", 42)},
		{name: "amount above the balance", body: barcodeBody(1000000, "USD", 7)},
		{name: "large retailer id", body: barcodeBody(99.99, "USD", int64(1)<<53)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newBarcodeEnv(t)
			h := env.fx.Headers
			if tc.scopes != nil {
				h = testkit.UserHeaders(env.fake, env.fake.OAuthKey(env.fx.User.ID, testkit.TestFingerprint, tc.scopes...))
			}
			before := env.snapshot(t)
			r := testkit.Do(t, env.fake, testkit.Call{Method: "POST", Path: barcodePath(env.fx.User.ID, env.fx.Node.ID), Header: h, Body: tc.body})
			if r.Status != 200 {
				t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
			}
			want := map[string]any{"_id": "ok", "barcode": "ok", "barcode_base64": "ok", "success": true}
			if diff := cmp.Diff(want, checkBarcodeFields(r.Body)); diff != "" {
				t.Errorf("answer (-want +got):\n%s\nbody: %.300s", diff, r.Raw)
			}
			env.wantUnchanged(t, before)
		})
	}
}

// TestBarcodeIsDeterministic wants the barcode to follow from the id, the
// amount and the retailer: servers with the same id seed answer the same
// call alike, and a different amount or retailer gives another barcode.
func TestBarcodeIsDeterministic(t *testing.T) {
	t.Parallel()
	base := barcodeBody(20.5, "USD", 1)
	for _, tc := range []struct {
		name string
		body any
		same bool
	}{
		{name: "same call", body: base, same: true},
		{name: "amount differs", body: barcodeBody(20.51, "USD", 1)},
		{name: "retailer differs", body: barcodeBody(20.5, "USD", 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			answer := func(body any) map[string]any {
				env := newBarcodeEnv(t, synapsefake.WithIDSeed(7))
				r := testkit.Do(t, env.fake, testkit.Call{Method: "POST", Path: barcodePath(env.fx.User.ID, env.fx.Node.ID), Header: env.fx.Headers, Body: body})
				if r.Status != 200 {
					t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
				}
				return r.Body
			}
			a, b := answer(base), answer(tc.body)
			if a["_id"] != b["_id"] {
				t.Fatalf("_id %v and %v differ on servers with the same seed", a["_id"], b["_id"])
			}
			if tc.same {
				if diff := cmp.Diff(a, b); diff != "" {
					t.Errorf("same call on same-seeded servers answered differently (-first +second):\n%s", diff)
				}
				return
			}
			if a["barcode"] == b["barcode"] {
				t.Errorf("barcode %v for both calls, want them to differ", a["barcode"])
			}
		})
	}
}

func TestBarcodeIsNewOnEachCall(t *testing.T) {
	t.Parallel()
	env := newBarcodeEnv(t)
	c := testkit.Call{Method: "POST", Path: barcodePath(env.fx.User.ID, env.fx.Node.ID), Header: env.fx.Headers, Body: barcodeBody(20, "USD", 1)}
	a, b := testkit.Do(t, env.fake, c), testkit.Do(t, env.fake, c)
	if a.Status != 200 || b.Status != 200 {
		t.Fatalf("statuses %d and %d, want 200: %s %s", a.Status, b.Status, a.Raw, b.Raw)
	}
	if a.Body["_id"] == b.Body["_id"] || a.Body["barcode"] == b.Body["barcode"] {
		t.Errorf("two calls answered _id %v, %v and barcode %v, %v; want each new", a.Body["_id"], b.Body["_id"], a.Body["barcode"], b.Body["barcode"])
	}
}

func TestBarcodeErrors(t *testing.T) {
	t.Parallel()
	valid := barcodeBody(20, "USD", 1)
	own := func(env barcodeEnv) string { return barcodePath(env.fx.User.ID, env.fx.Node.ID) }
	without := func(name string) func(env barcodeEnv) map[string]string {
		return func(env barcodeEnv) map[string]string {
			h := maps.Clone(env.fx.Headers)
			delete(h, name)
			return h
		}
	}
	for _, tc := range []struct {
		name      string
		method    string                                 // POST when ""
		path      func(env barcodeEnv) string            // own deposit node when nil
		header    func(env barcodeEnv) map[string]string // env.fx.headers when nil
		body      any
		status    int
		errorCode string
		code      string
	}{
		// The node.
		{name: "ACH-US node", path: func(env barcodeEnv) string { return barcodePath(env.fx.User.ID, env.ach.ID) }, body: valid,
			status: 409, errorCode: "400", code: "invalid_node_type"},
		{name: "deleted node", path: func(env barcodeEnv) string { return barcodePath(env.fx.User.ID, env.deleted.ID) }, body: valid,
			status: 409, errorCode: "410", code: "node_inactive"},
		{name: "unknown node", path: func(env barcodeEnv) string { return barcodePath(env.fx.User.ID, "0123456789abcdef01234567") }, body: valid,
			status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "another user's node under own path", path: func(env barcodeEnv) string { return barcodePath(env.fx.User.ID, env.other.Node.ID) },
			body: valid, status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "another user's path", path: func(env barcodeEnv) string { return barcodePath(env.other.User.ID, env.other.Node.ID) },
			body: valid, status: 401, errorCode: "300", code: "unauthorized_user"},

		// The body.
		{name: "currency EUR", body: barcodeBody(20, "EUR", 1), status: 409, errorCode: "400", code: "unsupported_currency"},
		{name: "amount 0", body: barcodeBody(0, "USD", 1), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount negative", body: barcodeBody(-5, "USD", 1), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount below a cent", body: barcodeBody(0.001, "USD", 1), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "half a cent", body: barcodeBody(0.005, "USD", 1), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount with three decimals", body: barcodeBody(10.005, "USD", 1), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount over MaxAmountCents", body: barcodeBody(1e12, "USD", 1), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount a string", body: barcodeBody("20", "USD", 1), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "amount not an object", body: map[string]any{"amount": 20, "retailer_id": 1}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "amount missing", body: map[string]any{"retailer_id": 1}, status: 400, errorCode: "200", code: "missing_amount"},
		{name: "amount.amount missing", body: map[string]any{"amount": map[string]any{"currency": "USD"}, "retailer_id": 1},
			status: 400, errorCode: "200", code: "missing_amount"},
		{name: "currency missing", body: map[string]any{"amount": map[string]any{"amount": 20}, "retailer_id": 1},
			status: 400, errorCode: "200", code: "missing_currency"},
		{name: "currency a number", body: map[string]any{"amount": map[string]any{"amount": 20, "currency": 840}, "retailer_id": 1},
			status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "retailer_id missing", body: map[string]any{"amount": map[string]any{"amount": 20, "currency": "USD"}},
			status: 400, errorCode: "200", code: "missing_retailer_id"},
		{name: "retailer_id 0", body: barcodeBody(20, "USD", 0), status: 400, errorCode: "200", code: "invalid_retailer_id"},
		{name: "retailer_id negative", body: barcodeBody(20, "USD", -3), status: 400, errorCode: "200", code: "invalid_retailer_id"},
		{name: "retailer_id fractional", body: barcodeBody(20, "USD", 1.5), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "retailer_id a string", body: barcodeBody(20, "USD", "1"), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "malformed JSON", body: `{"amount": {"amount": 20,`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "array body", body: `[]`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "empty body", body: ``, status: 400, errorCode: "200", code: "invalid_json"},

		// The credentials.
		{name: "unknown oauth key", header: func(env barcodeEnv) map[string]string { return testkit.UserHeaders(env.fake, "oauth_nope") }, body: valid,
			status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "missing X-SP-USER", header: without("X-SP-USER"), body: valid, status: 400, errorCode: "200", code: "missing_user_credentials"},
		{name: "missing X-SP-USER-IP", header: without("X-SP-USER-IP"), body: valid, status: 400, errorCode: "200", code: "missing_user_ip"},
		{name: "wrong gateway", header: func(env barcodeEnv) map[string]string {
			h := maps.Clone(env.fx.Headers)
			h["X-SP-GATEWAY"] = "client_id_x|client_secret_y"
			return h
		}, body: valid, status: 401, errorCode: "100", code: "invalid_client_credentials"},
		{name: "key without NODE|GET", header: func(env barcodeEnv) map[string]string {
			return testkit.UserHeaders(env.fake, env.fake.OAuthKey(env.fx.User.ID, testkit.TestFingerprint, "NODE|PATCH", "NODES|GET", "TRANS|POST"))
		}, body: valid, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "GET", method: "GET", status: 409, errorCode: "410", code: "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newBarcodeEnv(t)
			c := testkit.Call{Method: "POST", Path: own(env), Header: env.fx.Headers, Body: tc.body}
			if tc.method != "" {
				c.Method = tc.method
			}
			if tc.path != nil {
				c.Path = tc.path(env)
			}
			if tc.header != nil {
				c.Header = tc.header(env)
			}
			before := env.snapshot(t)
			r := testkit.Do(t, env.fake, c)
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			if hc := r.Body["http_code"]; hc != fmt.Sprint(r.Status) {
				t.Errorf("http_code %v differs from the HTTP status %d", hc, r.Status)
			}
			env.wantUnchanged(t, before)
		})
	}
}
