package bank

import "testing"

// TestSecretHexHoldsTheIdentity: stores of one seed but another client id
// or incarnation draw other credentials (secretHex) from the same id
// stream, which they leave where randomHex would: the ids drawn after
// them are the seed's. The same identity draws the same ones.
func TestSecretHexHoldsTheIdentity(t *testing.T) {
	type identity struct {
		clientID    string
		incarnation uint64
	}
	draw := func(id identity) (secrets []string, ids []string) {
		st := newStore(7)
		st.secrets = secretsKey(id.clientID, id.incarnation)
		for _, n := range []int{20, 32} {
			s := st.secretHex(n)
			if len(s) != 2*n {
				t.Fatalf("secretHex(%d) = %q: %d hex digits, want %d", n, s, len(s), 2*n)
			}
			secrets = append(secrets, s)
			ids = append(ids, st.newID())
		}
		return secrets, ids
	}
	plain := newStore(7)
	var want []string
	for _, n := range []int{20, 32} {
		plain.randomHex(n)
		want = append(want, plain.newID())
	}
	base := identity{"client_c", 1}
	baseSecrets, _ := draw(base)
	for _, tc := range []struct {
		id   identity
		same bool
	}{{base, true}, {identity{"client_d", 1}, false}, {identity{"client_c", 2}, false}, {identity{"", 0}, false}} {
		secrets, ids := draw(tc.id)
		for i := range secrets {
			if (secrets[i] == baseSecrets[i]) != tc.same {
				t.Errorf("%v: secret %d %s, %v's %s: same %v, want %v", tc.id, i, secrets[i], base, baseSecrets[i], !tc.same, tc.same)
			}
			if ids[i] != want[i] {
				t.Errorf("%v: id %d after a secret is %s, want %s (the seed's)", tc.id, i, ids[i], want[i])
			}
		}
	}
}
