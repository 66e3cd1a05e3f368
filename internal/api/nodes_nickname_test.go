package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// maxNickname is the longest node nickname the fake takes, in characters.
const maxNickname = 256

// TestNodeNicknameLength: every way to name a node takes up to 256
// characters (not bytes) and refuses one more with 400 / "200", changing
// nothing.
func TestNodeNicknameLength(t *testing.T) {
	t.Parallel()
	routes := []struct {
		name string
		send func(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, nickname string) testkit.Response
	}{
		{"POST nodes", func(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, nickname string) testkit.Response {
			return testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers,
				Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": nickname}}})
		}},
		{"PATCH nickname", func(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, nickname string) testkit.Response {
			return testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers,
				Body: map[string]any{"nickname": nickname}})
		}},
		{"PATCH info.nickname", func(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, nickname string) testkit.Response {
			return testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers,
				Body: map[string]any{"info": map[string]any{"nickname": nickname}}})
		}},
		{"control POST nodes", func(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, nickname string) testkit.Response {
			return testkit.CtlSend(t, fake.Client(), "POST", testkit.CtlRoot(fake)+"/_fake/users/"+fx.User.ID+"/nodes", nil,
				map[string]any{"nickname": nickname})
		}},
	}
	for _, route := range routes {
		for _, tc := range []struct {
			name     string
			nickname string
			ok       bool
		}{
			{"256 ASCII characters", strings.Repeat("n", maxNickname), true},
			{"256 two-byte characters", strings.Repeat("é", maxNickname), true},
			{"257 characters", strings.Repeat("n", maxNickname+1), false},
			{"257 two-byte characters", strings.Repeat("é", maxNickname+1), false},
			{"64 KiB", strings.Repeat("n", 64<<10), false},
		} {
			t.Run(route.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				fake := synapsefake.NewServer(t)
				fx := testkit.NewFixture(t, fake, 0)
				before := inspectNodes(t, fake, []string{fx.User.ID})
				r := route.send(t, fake, fx, tc.nickname)
				if !tc.ok {
					wantErrorStatus(t, r, http.StatusBadRequest, "200", "nickname_too_long")
					e, _ := r.Body["error"].(map[string]any)
					if en := fmt.Sprint(e["en"]); !strings.Contains(en, "at most 256 characters") {
						t.Errorf("error.en %q does not give the limit", en)
					}
					wantUnchanged(t, fake, before)
					return
				}
				if r.Status != http.StatusOK {
					t.Fatalf("status %d: %s", r.Status, r.Raw)
				}
				u, _ := fake.User(fx.User.ID)
				n, _ := fake.Node(u.NodeIDs[len(u.NodeIDs)-1])
				if n.Nickname != tc.nickname {
					t.Errorf("stored nickname is %d characters, want the %d sent", len([]rune(n.Nickname)), len([]rune(tc.nickname)))
				}
			})
		}
	}
}
