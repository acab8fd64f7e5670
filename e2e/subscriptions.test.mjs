// Real subscription clients against a running graft router serving the
// chat example: the graphql-ws client, the graphql-sse client in both
// modes, and Apollo Client with GraphQLWsLink and with plain HttpLink
// (multipart subscriptions).
//
// Environment:
//   GRAFT_GRAPHQL_URL  the GraphQL endpoint, e.g. http://127.0.0.1:8080/graphql
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';

const url = process.env.GRAFT_GRAPHQL_URL;
const wsUrl = url.replace(/^http/, 'ws');

const countdown = 'subscription { countdown(from: 3) }';

async function collect(iterable) {
  const out = [];
  for await (const result of iterable) out.push(result);
  return out;
}

// post runs a mutation over plain HTTP.
async function post(room, text) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($room: String!, $text: String!) { postMessage(room: $room, author: "e2e", text: $text) { id } }',
      variables: { room, text },
    }),
  });
  assert.equal(res.status, 200);
}

// firstMessage subscribes with subscribe(onNext) and posts to room until
// the subscription delivers, since a subscription starts asynchronously.
async function firstMessage(room, subscribe) {
  let got;
  const stop = subscribe((m) => { got ??= m; });
  for (let i = 0; got === undefined && i < 200; i++) {
    await post(room, 'hello ' + i);
    await new Promise((r) => setTimeout(r, 25));
  }
  stop();
  assert.ok(got, 'no message arrived');
  return got;
}

function apolloCountdown(client) {
  return new Promise((resolve, reject) => {
    const values = [];
    client.subscribe({ query: gql(countdown) }).subscribe({
      next: (r) => (r.errors ? reject(new Error(JSON.stringify(r.errors))) : values.push(r.data.countdown)),
      error: reject,
      complete: () => resolve(values),
    });
  });
}

test('graphql-ws client: countdown, messages, and an error for a bad subscription', async () => {
  const client = createWsClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    const results = await collect(client.iterate({ query: countdown }));
    assert.deepEqual(results.map((r) => r.data.countdown), [3, 2, 1, 0]);
    const m = await firstMessage('ws', (onNext) =>
      client.subscribe({ query: 'subscription { messageAdded(room: "ws") { room author } }' }, {
        next: (r) => onNext(r.data.messageAdded), error: () => {}, complete: () => {},
      }));
    assert.deepEqual(m, { room: 'ws', author: 'e2e' });
    await assert.rejects(collect(client.iterate({ query: 'subscription { nope }' })), (errs) => {
      assert.equal(errs[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      return true;
    });
    const q = await collect(client.iterate({ query: '{ messages(room: "ws", last: 1) { room } }' }));
    assert.deepEqual(q, [{ data: { messages: [{ room: 'ws' }] } }]);
  } finally {
    await client.dispose();
  }
});

for (const singleConnection of [false, true]) {
  test(`graphql-sse client (${singleConnection ? 'single' : 'distinct'} connection mode): countdown and messages`, async () => {
    const client = createSseClient({ url, singleConnection, retryAttempts: 0 });
    try {
      const results = await collect(client.iterate({ query: countdown }));
      assert.deepEqual(results.map((r) => r.data.countdown), [3, 2, 1, 0]);
      const room = singleConnection ? 'sse1' : 'sse2';
      const m = await firstMessage(room, (onNext) =>
        client.subscribe({ query: `subscription { messageAdded(room: "${room}") { room } }` }, {
          next: (r) => onNext(r.data.messageAdded), error: () => {}, complete: () => {},
        }));
      assert.deepEqual(m, { room });
    } finally {
      client.dispose();
    }
  });
}

test('Apollo Client with GraphQLWsLink: countdown', async () => {
  const ws = createWsClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  const client = new ApolloClient({ link: new GraphQLWsLink(ws), cache: new InMemoryCache() });
  try {
    assert.deepEqual(await apolloCountdown(client), [3, 2, 1, 0]);
  } finally {
    await ws.dispose();
  }
});

test('Apollo Client with HttpLink (multipart subscriptions): countdown and a validation error', async () => {
  const client = new ApolloClient({ link: new HttpLink({ uri: url }), cache: new InMemoryCache() });
  assert.deepEqual(await apolloCountdown(client), [3, 2, 1, 0]);
  // Apollo Client 4 reports errors in the result's error field.
  const err = await new Promise((resolve, reject) => {
    client.subscribe({ query: gql`subscription { countdown(from: "x") }` }).subscribe({
      next: (r) => (r.error ? resolve(r.error) : reject(new Error('data without an error'))),
      error: resolve,
      complete: () => reject(new Error('completed without an error')),
    });
  });
  // The 400 application/graphql-response+json body reaches the client.
  assert.match(String(err.message) + JSON.stringify(err.errors ?? err.result ?? ''), /Int cannot represent|GRAPHQL_VALIDATION_FAILED/);
});
