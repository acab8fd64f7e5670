// Apollo Client's persisted-query link against a running graft router with
// automatic persisted queries on.
//
// Environment:
//   GRAFT_GRAPHQL_URL  the GraphQL endpoint, e.g. http://127.0.0.1:8080/graphql
//
// Each request carries an x-graft-e2e-step header naming its step, so the
// Go test that started the server can check what the server saw per step.
// The script itself checks what the client sent and the data it got back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';

const url = process.env.GRAFT_GRAPHQL_URL;

const sha256 = (query) => createHash('sha256').update(query).digest('hex');

// newClient returns a client with a fresh link and cache, and the list of
// requests it sends (what the client put on the wire).
function newClient(useGETForHashedQueries) {
  const sent = [];
  const recordingFetch = async (input, init = {}) => {
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
      hash: params.extensions?.persistedQuery?.sha256Hash,
      status: res.status,
      cacheControl: res.headers.get('cache-control'),
    });
    return res;
  };
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries }).concat(
    new HttpLink({ uri: url, fetch: recordingFetch }),
  );
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
}

async function run(client, query, variables, step) {
  const result = await client.query({
    query,
    variables,
    fetchPolicy: 'no-cache',
    context: { headers: { 'x-graft-e2e-step': step } },
  });
  assert.equal(result.error, undefined, `${step}: ${result.error}`);
  return result.data;
}

const heroQuery = gql`
  query HeroForEpisode($episode: Episode) {
    hero(episode: $episode) {
      name
    }
  }
`;

const humanQuery = gql`
  query HumanByID($id: String!) {
    human(id: $id) {
      name
      homePlanet
    }
  }
`;

test('APQ over POST: hash only, retry with the query, then hash-only hits', async () => {
  assert.ok(url, 'GRAFT_GRAPHQL_URL must name the GraphQL endpoint');
  const { client, sent } = newClient(false);

  assert.deepEqual(await run(client, heroQuery, { episode: 'EMPIRE' }, 'post-miss'), {
    hero: { __typename: 'Human', name: 'Luke Skywalker' },
  });
  assert.equal(sent.length, 2, JSON.stringify(sent));
  const hash = sent[0].hash;
  assert.match(hash ?? '', /^[0-9a-f]{64}$/);
  assert.deepEqual(sent, [
    { method: 'POST', hasQuery: false, hash, status: 200, cacheControl: sent[0].cacheControl },
    { method: 'POST', hasQuery: true, hash, status: 200, cacheControl: sent[1].cacheControl },
  ]);

  assert.deepEqual(await run(client, heroQuery, { episode: 'JEDI' }, 'post-hit'), {
    hero: { __typename: 'Droid', name: 'R2-D2' },
  });
  assert.equal(sent.length, 3);
  assert.deepEqual(sent[2], { method: 'POST', hasQuery: false, hash, status: 200, cacheControl: sent[2].cacheControl });

  // A second client knows nothing: its first hash-only request hits
  // because the server stored the query.
  const other = newClient(false);
  assert.deepEqual(await run(other.client, heroQuery, {}, 'post-hit-new-client'), {
    hero: { __typename: 'Droid', name: 'R2-D2' },
  });
  assert.equal(other.sent.length, 1, JSON.stringify(other.sent));
  assert.equal(other.sent[0].hasQuery, false);
  assert.equal(other.sent[0].hash, hash);
});

test('APQ with useGETForHashedQueries: GET hash only, POST retry, then GET hits', async () => {
  assert.ok(url, 'GRAFT_GRAPHQL_URL must name the GraphQL endpoint');
  const { client, sent } = newClient(true);

  assert.deepEqual(await run(client, humanQuery, { id: '1003' }, 'get-miss'), {
    human: { __typename: 'Human', name: 'Leia Organa', homePlanet: 'Alderaan' },
  });
  assert.equal(sent.length, 2, JSON.stringify(sent));
  const hash = sent[0].hash;
  assert.match(hash ?? '', /^[0-9a-f]{64}$/);
  assert.equal(sent[0].method, 'GET');
  assert.equal(sent[0].hasQuery, false);
  assert.match(sent[0].cacheControl ?? '', /no-cache/, 'a miss must not be cached');
  assert.equal(sent[1].method, 'POST');
  assert.equal(sent[1].hasQuery, true);
  assert.equal(sent[1].hash, hash);

  assert.deepEqual(await run(client, humanQuery, { id: '1000' }, 'get-hit'), {
    human: { __typename: 'Human', name: 'Luke Skywalker', homePlanet: 'Tatooine' },
  });
  assert.equal(sent.length, 3, JSON.stringify(sent));
  assert.equal(sent[2].method, 'GET');
  assert.equal(sent[2].hasQuery, false);
  assert.equal(sent[2].hash, hash);
  assert.equal(sent[2].status, 200);
  assert.match(sent[2].cacheControl ?? '', /max-age=\d+/, 'a GET hit carries a cacheable Cache-Control');
});
