package synapsefake_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

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
		send func(t *testing.T, fake *synapsefake.Server, fx fixture, nickname string) response
	}{
		{"POST nodes", func(t *testing.T, fake *synapsefake.Server, fx fixture, nickname string) response {
			return do(t, fake, call{method: "POST", path: nodesPath(fx.user.ID), header: fx.headers,
				body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": nickname}}})
		}},
		{"PATCH nickname", func(t *testing.T, fake *synapsefake.Server, fx fixture, nickname string) response {
			return do(t, fake, call{method: "PATCH", path: nodePath(fx.user.ID, fx.node.ID), header: fx.headers,
				body: map[string]any{"nickname": nickname}})
		}},
		{"PATCH info.nickname", func(t *testing.T, fake *synapsefake.Server, fx fixture, nickname string) response {
			return do(t, fake, call{method: "PATCH", path: nodePath(fx.user.ID, fx.node.ID), header: fx.headers,
				body: map[string]any{"info": map[string]any{"nickname": nickname}}})
		}},
		{"control POST nodes", func(t *testing.T, fake *synapsefake.Server, fx fixture, nickname string) response {
			return ctlSend(t, fake.Client(), "POST", ctlRoot(fake)+"/_fake/users/"+fx.user.ID+"/nodes", nil,
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
				fx := newFixture(t, fake, 0)
				before := inspectNodes(t, fake, []string{fx.user.ID})
				r := route.send(t, fake, fx, tc.nickname)
				if !tc.ok {
					wantErrorStatus(t, r, http.StatusBadRequest, "200", "nickname_too_long")
					e, _ := r.body["error"].(map[string]any)
					if en := fmt.Sprint(e["en"]); !strings.Contains(en, "at most 256 characters") {
						t.Errorf("error.en %q does not give the limit", en)
					}
					wantUnchanged(t, fake, before)
					return
				}
				if r.status != http.StatusOK {
					t.Fatalf("status %d: %s", r.status, r.raw)
				}
				u, _ := fake.User(fx.user.ID)
				n, _ := fake.Node(u.NodeIDs[len(u.NodeIDs)-1])
				if n.Nickname != tc.nickname {
					t.Errorf("stored nickname is %d characters, want the %d sent", len([]rune(n.Nickname)), len([]rune(tc.nickname)))
				}
			})
		}
	}
}
