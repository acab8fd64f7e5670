// Real clients of incremental delivery (@defer and @stream) against a
// running graft router serving the incremental example: Apollo Client 4
// with GraphQL17Alpha9Handler (multipart/mixed;incrementalSpec=v0.2) and
// with Defer20220824Handler (deferSpec=20220824), Apollo Client 3
// (deferSpec=20220824) and urql (plain multipart/mixed, or event stream).
//
// Environment:
//   GRAFT_GRAPHQL_URL  the GraphQL endpoint, e.g. http://127.0.0.1:8080/graphql
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { GraphQL17Alpha9Handler, Defer20220824Handler } from '@apollo/client/incremental';
import * as AC3 from '@apollo/client-3/core/index.js';
import { Client, fetchExchange } from '@urql/core';

const url = process.env.GRAFT_GRAPHQL_URL;

const deferQuery = `query Deferred {
  fastField
  item(id: "1") {
    id
    ... @defer(label: "slow") { slowField(delayMs: 150) }
  }
}`;

const streamQuery = `query Streamed {
  items(count: 3, delayMs: 40) @stream(initialCount: 1) { id name }
}`;

const fullDefer = { fastField: 'fast', item: { __typename: 'Item', id: '1', slowField: 'slow 1' } };

// watch collects the data an Apollo Client query emits until it is
// complete.
function watch(client, query) {
  return new Promise((resolve, reject) => {
    const seen = [];
    const sub = client.watchQuery({ query: gql(query), fetchPolicy: 'network-only' }).subscribe({
      next: (r) => {
        if (r.error) {
          sub.unsubscribe();
          reject(r.error);
          return;
        }
        if (r.data) seen.push(structuredClone(r.data));
        if (!r.loading && r.dataState !== 'streaming') {
          sub.unsubscribe();
          resolve(seen);
        }
      },
      error: reject,
    });
  });
}

function ac4(handler) {
  return new ApolloClient({ link: new HttpLink({ uri: url }), cache: new InMemoryCache(), incrementalHandler: handler });
}

for (const [name, handler] of [['GraphQL17Alpha9Handler', () => new GraphQL17Alpha9Handler()], ['Defer20220824Handler', () => new Defer20220824Handler()]]) {
  test(`Apollo Client 4 with ${name}: @defer`, async () => {
    const seen = await watch(ac4(handler()), deferQuery);
    assert.ok(seen.length >= 2, `want a partial result first, got ${JSON.stringify(seen)}`);
    assert.equal(seen[0].fastField, 'fast');
    assert.equal(seen[0].item.slowField, undefined);
    assert.deepEqual(seen.at(-1), fullDefer);
  });
}

test('Apollo Client 4 with GraphQL17Alpha9Handler: @stream', async () => {
  const seen = await watch(ac4(new GraphQL17Alpha9Handler()), streamQuery);
  assert.ok(seen.length >= 2, `want partial lists first, got ${JSON.stringify(seen)}`);
  assert.equal(seen[0].items.length, 1);
  assert.deepEqual(seen.at(-1).items.map((i) => i.name), ['Item 1', 'Item 2', 'Item 3']);
});

test('Apollo Client 3: @defer', async () => {
  const client = new AC3.ApolloClient({ link: new AC3.HttpLink({ uri: url }), cache: new AC3.InMemoryCache() });
  const seen = await new Promise((resolve, reject) => {
    const out = [];
    const sub = client.watchQuery({ query: AC3.gql(deferQuery), fetchPolicy: 'network-only' }).subscribe({
      next: (r) => {
        if (r.data) out.push(structuredClone(r.data));
        if (r.data?.item?.slowField) {
          sub.unsubscribe();
          resolve(out);
        }
      },
      error: reject,
    });
  });
  assert.ok(seen.length >= 2, `want a partial result first, got ${JSON.stringify(seen)}`);
  assert.equal(seen[0].item.slowField, undefined);
  assert.deepEqual(seen.at(-1), fullDefer);
});

// urqlResults runs query with urql and collects its results until the
// last. urql sends queries over GET when they fit in a URL, so the
// preflight header lets them through cmd/graft's CSRF prevention.
function urqlResults(query, extra) {
  const headers = { 'client-require-preflight': '1', ...extra?.headers };
  const client = new Client({ url, exchanges: [fetchExchange], fetchOptions: { headers }, requestPolicy: 'network-only' });
  return new Promise((resolve, reject) => {
    const out = [];
    const { unsubscribe } = client.query(query, {}).subscribe((r) => {
      if (r.error) {
        reject(r.error);
        return;
      }
      out.push(structuredClone(r.data));
      if (!r.hasNext) {
        resolve(out);
        setTimeout(() => unsubscribe?.(), 0);
      }
    });
  });
}

for (const [name, fetchOptions] of [['its own Accept header (event stream)', undefined], ['multipart/mixed', { headers: { accept: 'multipart/mixed' } }]]) {
  test(`urql with ${name}: @defer and @stream`, async () => {
    let seen = await urqlResults(deferQuery, fetchOptions);
    assert.ok(seen.length >= 2, `want a partial result first, got ${JSON.stringify(seen)}`);
    assert.equal(seen[0].item.slowField, undefined);
    assert.equal(seen.at(-1).item.slowField, 'slow 1');
    seen = await urqlResults(streamQuery, fetchOptions);
    assert.equal(seen[0].items.length, 1);
    assert.deepEqual(seen.at(-1).items.map((i) => i.name), ['Item 1', 'Item 2', 'Item 3']);
  });
}
