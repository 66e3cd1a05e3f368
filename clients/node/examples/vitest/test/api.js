// Calls of the fake's v3.1 API over HTTP with fetch, as an app makes them:
// the platform's X-SP-GATEWAY, X-SP-USER (oauth_key|fingerprint, or
// |fingerprint before there is a key) and X-SP-USER-IP.

/**
 * One API call; resolves to {status, body}.
 * @param {import('synapsefake').Platform} platform
 */
export async function api(platform, method, path, { user = '', body } = {}) {
  const res = await fetch(platform.baseUrl + path, {
    method,
    headers: {
      'X-SP-GATEWAY': platform.gateway,
      'X-SP-USER': user,
      'X-SP-USER-IP': '127.0.0.1',
      'Content-Type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The sign-up flow (docs/api.md): POST /users, then POST /oauth/{user_id} with the refresh token. */
export async function signUp(platform, fingerprint = 'device-1') {
  const made = await api(platform, 'POST', '/users', {
    user: `|${fingerprint}`,
    body: {
      logins: [{ email: 'ann@example.com' }],
      phone_numbers: ['901.111.1111'],
      legal_names: ['Ann Example'],
      extra: { supp_id: 'my-user-42', cip_tag: 1, is_business: false },
    },
  });
  if (made.status !== 200) throw new Error(`POST /users: ${made.status} ${JSON.stringify(made.body)}`);
  const user = made.body;
  const oauth = await api(platform, 'POST', `/oauth/${user._id}`, { user: `|${fingerprint}`, body: { refresh_token: user.refresh_token } });
  if (oauth.status !== 200) throw new Error(`POST /oauth: ${oauth.status} ${JSON.stringify(oauth.body)}`);
  return { user, key: oauth.body.oauth_key, userHeader: `${oauth.body.oauth_key}|${fingerprint}` };
}

/** A DEPOSIT-US checking node and an ACH-US landlord node for the user; their ids. */
export async function twoNodes(platform, user, userHeader) {
  const checking = await api(platform, 'POST', `/users/${user._id}/nodes`, {
    user: userHeader, body: { type: 'DEPOSIT-US', info: { nickname: 'Checking' } },
  });
  const landlord = await api(platform, 'POST', `/users/${user._id}/nodes`, {
    user: userHeader,
    body: { type: 'ACH-US', info: { nickname: 'Landlord', account_num: '123456786', routing_num: '051000017', type: 'PERSONAL', class: 'CHECKING' } },
  });
  return { checking: checking.body.nodes[0]._id, landlord: landlord.body.nodes[0]._id };
}

/** POST .../trans: amount dollars from one node to an ACH-US node; the transaction. */
export async function pay(platform, user, userHeader, from, to, amount) {
  const r = await api(platform, 'POST', `/users/${user._id}/nodes/${from}/trans`, {
    user: userHeader,
    body: { to: { type: 'ACH-US', id: to }, amount: { amount, currency: 'USD' }, extra: { ip: '127.0.0.1', note: 'Rent' } },
  });
  if (r.status !== 200) throw new Error(`POST trans: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The median of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

