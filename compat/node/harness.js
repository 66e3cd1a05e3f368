// The checks' shared harness: counting, reporting and the shape assertions
// both client suites use. One process runs both suites (compat.js), so
// the closing "N passed, M failed" line covers them all.
'use strict';

const assert = require('node:assert/strict');

let passed = 0;
let failed = 0;

// errorDetail says what a failed call answered: an axios error (synapsenode),
// a superagent error or a {status, body} object (synapsepay), or any error.
function errorDetail(err) {
  if (err && err.response && err.response.data !== undefined) {
    return `HTTP ${err.response.status} ${JSON.stringify(err.response.data)}`;
  }
  if (err && err.response && err.response.body !== undefined) {
    return `HTTP ${err.status} ${JSON.stringify(err.response.body)}`;
  }
  if (err && err.status && err.body !== undefined) {
    return `HTTP ${err.status} ${JSON.stringify(err.body)}`;
  }
  return (err && err.message) || String(err);
}

// check runs one named check; a failure is reported and counted, and the run
// goes on (a later check that needs the missing state fails too).
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   - ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL - ${name}: ${errorDetail(err).split('\n').join('\n       ')}`);
  }
}

function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

function fail(message) {
  failed++;
  console.log(`FAIL - ${message}`);
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

// wantTypes asserts the JSON type of each named field of obj ('a.b' paths).
function wantTypes(obj, types) {
  for (const [path, want] of Object.entries(types)) {
    const got = path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
    assert.equal(typeOf(got), want, `${path} is ${typeOf(got)} (${JSON.stringify(got)}), want ${want}`);
  }
}

// wantList asserts the list wrapper of the spec's FIDELITY.md around items/countKey;
// count, when given, is the expected count and page's length.
function wantList(data, items, countKey, count) {
  assert.ok(isObject(data), 'body is a JSON object');
  assert.equal(data.error_code, '0');
  assert.equal(data.http_code, '200');
  assert.equal(data.success, true);
  wantTypes(data, { limit: 'number', page_count: 'number', [items]: 'array', [countKey]: 'number' });
  if (count !== undefined) {
    assert.equal(data[countKey], count, `${countKey}`);
    assert.equal(data[items].length, count, `${items}.length`);
  }
}

// wantError asserts the error envelope of an HTTP answer.
function wantError(status, data, wantStatus, wantCode, wantErrorCode) {
  assert.equal(status, wantStatus, `status ${status} ${JSON.stringify(data)}`);
  assert.equal(data.success, false);
  assert.equal(data.http_code, String(wantStatus));
  assert.equal(data.error_code, wantCode);
  wantTypes(data, { 'error.en': 'string' });
  if (wantErrorCode !== undefined) assert.equal(data.error.code, wantErrorCode);
}

// The base document both suites file: the documented KYC body (samples.md).
function baseDocument(email, phone, name) {
  return {
    email,
    phone_number: phone,
    ip: '127.0.0.1',
    name,
    alias: 'Compat',
    entity_type: 'M',
    entity_scope: 'Arts & Entertainment',
    day: 2,
    month: 5,
    year: 1989,
    address_street: '1 Market St',
    address_city: 'SF',
    address_subdivision: 'CA',
    address_postal_code: '94105',
    address_country_code: 'US',
    virtual_docs: [{ document_value: '2222', document_type: 'SSN' }],
    physical_docs: [{ document_value: 'data:image/gif;base64,SUQs==', document_type: 'GOVT_ID' }],
    social_docs: [{ document_value: 'https://www.facebook.com/compat', document_type: 'FACEBOOK' }],
  };
}

module.exports = {
  assert, check, finish, fail, isObject, typeOf, wantTypes, wantList, wantError, baseDocument,
};
