// The client matrix: the GraphQL clients people use, each against the
// ready-to-run server (cmd/graft with its default settings) serving the
// chat example, with queries, mutations, variables, errors, persisted
// queries and subscriptions where the client has them. Every client keeps
// its own default Accept header, so content negotiation is tested as each
// of them really talks.
//
// Environment:
//   GRAFT_GRAPHQL_URL  the GraphQL endpoint, e.g. http://127.0.0.1:8080/graphql
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as apollo4 from '@apollo/client';
import { createPersistedQueryLink as persisted4 } from '@apollo/client/link/persisted-queries';
import * as apollo3 from '@apollo/client-3/core/index.js';
import { createPersistedQueryLink as persisted3 } from '@apollo/client-3/link/persisted-queries/index.js';
import { Client as URQLClient, fetchExchange, subscriptionExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { pipe, onEnd, subscribe } from 'wonka';
import { GraphQLClient, ClientError } from 'graphql-request';
import relay from 'relay-runtime';
import { createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';

const url = process.env.GRAFT_GRAPHQL_URL;
const wsUrl = url.replace(/^http/, 'ws');

const sha256 = (q) => createHash('sha256').update(q).digest('hex');
const room = (name) => `${name}-${Math.random().toString(36).slice(2)}`;

const MESSAGES = 'query Messages($room: String!) { messages(room: $room) { text author } }';
const POST = 'mutation Post($room: String!, $text: String!) { postMessage(room: $room, author: "e2e", text: $text) { text } }';
const BAD = 'query Bad { messages(room: "x") { nope } }';
const COUNTDOWN = 'subscription Countdown { countdown(from: 2) }';

// errorText gathers what a client's error says, wherever the client keeps
// the GraphQL errors.
function errorText(e) {
  const parts = [e?.message];
  for (const v of [e?.graphQLErrors, e?.errors, e?.networkError?.result, e?.result, e?.response, e?.cause]) {
    try { parts.push(JSON.stringify(v ?? null)); } catch { /* cyclic */ }
  }
  return parts.join(' ');
}

// recordingFetch returns a fetch that records each request's method,
// whether it carried the query text and a persisted-query hash, and the
// answer's status and Content-Type.
function recordingFetch(sent) {
  return async (input, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const reqURL = new URL(typeof input === 'string' ? input : input.url);
    let params;
    if (method === 'GET') {
      params = {
        query: reqURL.searchParams.get('query') ?? undefined,
        extensions: JSON.parse(reqURL.searchParams.get('extensions') ?? 'null'),
      };
    } else {
      params = JSON.parse(init.body);
    }
    const res = await fetch(input, init);
    sent.push({
      method,
      hasQuery: typeof params.query === 'string' && params.query !== '',
      hashed: Boolean(params.extensions?.persistedQuery?.sha256Hash),
      status: res.status,
      contentType: res.headers.get('content-type'),
    });
    return res;
  };
}

// apolloCountdown collects the values of the countdown subscription.
function apolloCountdown(client, gql) {
  return new Promise((resolve, reject) => {
    const values = [];
    client.subscribe({ query: gql(COUNTDOWN) }).subscribe({
      next: (r) => (r.errors ? reject(new Error(JSON.stringify(r.errors))) : values.push(r.data.countdown)),
      error: reject,
      complete: () => resolve(values),
    });
  });
}

for (const [name, ac, persistedLink] of [['Apollo Client 3', apollo3, persisted3], ['Apollo Client 4', apollo4, persisted4]]) {
  const { ApolloClient, HttpLink, InMemoryCache, gql } = ac;
  const newClient = (link) => new ApolloClient({ link, cache: new InMemoryCache() });

  test(`${name}: mutation, query with variables, error, multipart subscription`, async () => {
    const r = room(name.replace(/ /g, ''));
    const client = newClient(new HttpLink({ uri: url }));
    const m = await client.mutate({ mutation: gql(POST), variables: { room: r, text: 'hi' } });
    assert.equal(m.data.postMessage.text, 'hi');
    const q = await client.query({ query: gql(MESSAGES), variables: { room: r }, fetchPolicy: 'network-only' });
    assert.deepEqual(q.data.messages.map((x) => [x.text, x.author]), [['hi', 'e2e']]);
    await assert.rejects(client.query({ query: gql(BAD), fetchPolicy: 'network-only' }),
      (e) => /Cannot query field \\?"nope\\?"/.test(errorText(e)));
    assert.deepEqual(await apolloCountdown(client, gql), [2, 1, 0]);
  });

  test(`${name}: persisted queries over GET`, async () => {
    const r = room('pq');
    const query = `query Persisted${name.replace(/\W/g, '')} { messages(room: "${r}") { text } }`;
    const sent = [];
    const run = async () => {
      // The preflight header lets a GET through CSRF prevention.
      const link = persistedLink({ sha256, useGETForHashedQueries: true }).concat(
        new HttpLink({ uri: url, fetch: recordingFetch(sent), headers: { 'apollo-require-preflight': 'true' } }));
      const res = await newClient(link).query({ query: gql(query), fetchPolicy: 'network-only' });
      assert.deepEqual(res.data.messages, []);
    };
    await run(); // not found, then registered with its text
    await run(); // found by its hash alone
    // The hash alone over GET; the retry with the text over POST.
    assert.deepEqual(sent.map((s) => [s.method, s.hasQuery, s.hashed, s.status]), [
      ['GET', false, true, 200], ['POST', true, true, 200], ['GET', false, true, 200]]);
  });
}

test('urql: mutation, query with variables, error, subscription over fetch', async () => {
  const r = room('urql');
  const sent = [];
  // urql sends queries over GET when they fit in a URL: the preflight
  // header lets them through CSRF prevention.
  const client = new URQLClient({ url, exchanges: [fetchExchange], fetch: recordingFetch(sent),
    requestPolicy: 'network-only', fetchSubscriptions: true,
    fetchOptions: { headers: { 'client-require-preflight': '1' } } });
  const m = await client.mutation(POST, { room: r, text: 'hi' }).toPromise();
  assert.equal(m.error, undefined, errorText(m.error));
  assert.equal(m.data.postMessage.text, 'hi');
  const q = await client.query(MESSAGES, { room: r }).toPromise();
  assert.equal(q.error, undefined, errorText(q.error));
  assert.deepEqual(q.data.messages.map((x) => x.text), ['hi']);
  const bad = await client.query(BAD, {}).toPromise();
  assert.match(errorText(bad.error), /Cannot query field/);
  // Its Accept header names event streams too: single results still
  // come as one JSON response.
  for (const s of sent) assert.match(s.contentType, /^application\/graphql-response\+json/);
  // The stream ends by itself after 0: waiting for its end (rather than
  // unsubscribing) leaves no request to abort behind. urql repeats the
  // last result, marked hasNext: false, when the stream ends.
  const values = await new Promise((resolve, reject) => {
    const got = [];
    pipe(
      client.subscription(COUNTDOWN, {}),
      onEnd(() => resolve(got)),
      subscribe((res) => {
        if (res.error) reject(res.error);
        else if (res.hasNext !== false || got.at(-1) !== res.data.countdown) got.push(res.data.countdown);
      }),
    );
  });
  assert.deepEqual(values, [2, 1, 0]);
});

for (const preferGet of [true, false]) {
  test(`urql persisted-queries exchange over ${preferGet ? 'GET' : 'POST'}`, async () => {
    const r = room('urqlpq');
    const query = `query URQLPersisted${preferGet ? 'Get' : 'Post'} { messages(room: "${r}") { text } }`;
    const sent = [];
    const newClient = () => new URQLClient({
      url,
      exchanges: [persistedExchange({ preferGetForPersistedQueries: preferGet }), fetchExchange],
      fetch: recordingFetch(sent),
      requestPolicy: 'network-only',
      // The preflight header lets a GET through CSRF prevention.
      fetchOptions: { headers: { 'client-require-preflight': '1' } },
    });
    for (let i = 0; i < 2; i++) {
      const res = await newClient().query(query, {}).toPromise();
      assert.equal(res.error, undefined, errorText(res.error));
      assert.deepEqual(res.data.messages, []);
    }
    const method = preferGet ? 'GET' : 'POST';
    // Hash alone (not found), hash with the text (registered), hash alone (found).
    assert.deepEqual(sent.map((s) => [s.hasQuery, s.hashed, s.status]), [[false, true, 200], [true, true, 200], [false, true, 200]]);
    assert.equal(sent[0].method, method);
    assert.equal(sent[2].method, method);
    for (const s of sent) assert.match(s.contentType, /^application\/graphql-response\+json/);
  });
}

test('graphql-request: mutation, query with variables, error', async () => {
  const r = room('gqlrequest');
  const client = new GraphQLClient(url);
  const m = await client.request(POST, { room: r, text: 'hi' });
  assert.equal(m.postMessage.text, 'hi');
  const q = await client.request(MESSAGES, { room: r });
  assert.deepEqual(q.messages.map((x) => x.text), ['hi']);
  await assert.rejects(client.request(BAD),
    (e) => e instanceof ClientError && /Cannot query field/.test(JSON.stringify(e.response.errors)));
});

test('relay-runtime fetch network layer: mutation, query with variables, error', async () => {
  const r = room('relay');
  const fetchFn = async (params, variables) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: params.text, variables }),
    });
    return res.json();
  };
  const network = relay.Network.create(fetchFn);
  const op = (name, operationKind, text) => ({ id: null, cacheID: name, name, operationKind, text, metadata: {} });
  const m = await network.execute(op('Post', 'mutation', POST), { room: r, text: 'hi' }, {}).toPromise();
  assert.equal(m.data.postMessage.text, 'hi');
  const q = await network.execute(op('Messages', 'query', MESSAGES), { room: r }, {}).toPromise();
  assert.deepEqual(q.data.messages.map((x) => x.text), ['hi']);
  const bad = await network.execute(op('Bad', 'query', BAD), {}, {}).toPromise();
  assert.match(bad.errors[0].message, /Cannot query field/);
});

async function collect(iterable) {
  const out = [];
  for await (const result of iterable) out.push(result);
  return out;
}

test('graphql-ws: mutation, query with variables, subscription, error', async () => {
  const r = room('ws');
  const client = createWsClient({ url: wsUrl, retryAttempts: 0, lazy: true });
  try {
    const [m] = await collect(client.iterate({ query: POST, variables: { room: r, text: 'hi' } }));
    assert.equal(m.data.postMessage.text, 'hi');
    const [q] = await collect(client.iterate({ query: MESSAGES, variables: { room: r } }));
    assert.deepEqual(q.data.messages.map((x) => x.text), ['hi']);
    const values = (await collect(client.iterate({ query: COUNTDOWN }))).map((x) => x.data.countdown);
    assert.deepEqual(values, [2, 1, 0]);
    await assert.rejects(collect(client.iterate({ query: BAD })), (e) => /Cannot query field/.test(errorText(e) + JSON.stringify(e)));
  } finally {
    await client.dispose();
  }
});

test('urql over WebSocket (subscriptionExchange with graphql-ws): mutation, query with variables, error, subscription', async () => {
  const r = room('urqlws');
  const ws = createWsClient({ url: wsUrl, retryAttempts: 0, lazy: true });
  // Every operation goes over the socket, as urql's docs set it up.
  const client = new URQLClient({ url, requestPolicy: 'network-only', exchanges: [subscriptionExchange({
    enableAllOperations: true,
    forwardSubscription(request) {
      const input = { ...request, query: request.query || '' };
      return { subscribe: (sink) => ({ unsubscribe: ws.subscribe(input, sink) }) };
    },
  })] });
  try {
    const m = await client.mutation(POST, { room: r, text: 'hi' }).toPromise();
    assert.equal(m.error, undefined, errorText(m.error));
    assert.equal(m.data.postMessage.text, 'hi');
    const q = await client.query(MESSAGES, { room: r }).toPromise();
    assert.equal(q.error, undefined, errorText(q.error));
    assert.deepEqual(q.data.messages.map((x) => x.text), ['hi']);
    const bad = await client.query(BAD, {}).toPromise();
    assert.match(errorText(bad.error), /Cannot query field/);
    const values = await new Promise((resolve, reject) => {
      const got = [];
      pipe(
        client.subscription(COUNTDOWN, {}),
        onEnd(() => resolve(got)),
        subscribe((res) => {
          if (res.error) reject(res.error);
          else if (res.hasNext !== false || got.at(-1) !== res.data.countdown) got.push(res.data.countdown);
        }),
      );
    });
    assert.deepEqual(values, [2, 1, 0]);
  } finally {
    await ws.dispose();
  }
});

test('graphql-sse: mutation, query with variables, subscription', async () => {
  const r = room('sse');
  const client = createSseClient({ url, retryAttempts: 0 });
  try {
    const [m] = await collect(client.iterate({ query: POST, variables: { room: r, text: 'hi' } }));
    assert.equal(m.data.postMessage.text, 'hi');
    const [q] = await collect(client.iterate({ query: MESSAGES, variables: { room: r } }));
    assert.deepEqual(q.data.messages.map((x) => x.text), ['hi']);
    const values = (await collect(client.iterate({ query: COUNTDOWN }))).map((x) => x.data.countdown);
    assert.deepEqual(values, [2, 1, 0]);
    const [bad] = await collect(client.iterate({ query: BAD }));
    assert.match(JSON.stringify(bad.errors), /Cannot query field/);
  } finally {
    client.dispose();
  }
});
