// Control's calls against the real binary that the other files leave out:
// the returns of returns, and transactions by userId or nodeId.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { startFake } = require('synapsefake');
const { needsBinary } = require('./helpers.js');

const WORLD = {
  users: [{
    name: 'ann', legal_names: ['Ann Example'], permission: 'SEND-AND-RECEIVE',
    nodes: [
      { name: 'checking', balance: '500.00' },
      { name: 'bank', type: 'ACH-US', account_num: '123456789', routing_num: '021000021' },
    ],
  }],
  transactions: [
    { name: 'created', from: 'checking', to: 'bank', amount: 10 },
    { name: 'returned', from: 'bank', to: 'checking', amount: 30, date: '-2d', status: 'RETURNED', code: 'R01' },
  ],
};

test('dishonorReturn and contestDishonor; transactions by userId, nodeId, or their first spelling', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  const platform = await fake.createPlatform();
  const c = platform.control;
  const world = await c.loadWorld(WORLD);
  const tx = world.transactions;

  const dishonored = await c.dishonorReturn(tx.returned, 'R68');
  assert.equal(dishonored._id, tx.returned);
  const contested = await c.contestDishonor(tx.returned, 'R73');
  assert.equal(contested._id, tx.returned);
  const refused = await c.dishonorReturn(tx.created, 'R68').then(() => null, (e) => e);
  assert.deepEqual([refused.status, refused.errorCode, refused.code], [409, '410', 'not_returned']);

  const byUser = (await c.transactions({ userId: world.users.ann })).map((x) => x._id).sort();
  assert.deepEqual(byUser, [tx.created, tx.returned].sort());
  assert.deepEqual((await c.transactions({ userID: world.users.ann })).map((x) => x._id).sort(), byUser);
  assert.deepEqual((await c.transactions({ nodeId: world.nodes.bank, limit: 1 })).length, 1);
  assert.deepEqual((await c.transactions({ nodeID: world.nodes.bank })).length, 2);
  await assert.rejects(c.transactions({}), /^TypeError: give exactly one of userId and nodeId$/);
  await assert.rejects(c.transactions({ userId: 'a', nodeId: 'b' }), /^TypeError: give exactly one of userId and nodeId$/);
});
