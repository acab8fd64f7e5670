// Apollo Client's BatchHttpLink against a running graft router with HTTP
// batching on (Config.MaxBatch of at least 3).
//
// Environment:
//   GRAFT_GRAPHQL_URL  the GraphQL endpoint
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';

const url = process.env.GRAFT_GRAPHQL_URL;

test('BatchHttpLink sends one batch and gets each result', async () => {
  assert.ok(url, 'GRAFT_GRAPHQL_URL must name the GraphQL endpoint');
  const bodies = [];
  const recordingFetch = async (input, init = {}) => {
    bodies.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  const link = new BatchHttpLink({ uri: url, fetch: recordingFetch, batchMax: 3, batchInterval: 20 });
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  const [hero, luke, artoo] = await Promise.all([
    client.query({ query: gql`query Hero { hero { name } }` }),
    client.query({ query: gql`query Human($id: String!) { human(id: $id) { name homePlanet } }`, variables: { id: '1000' } }),
    client.query({ query: gql`query Droid($id: String!) { droid(id: $id) { name } }`, variables: { id: '2001' } }),
  ]);
  assert.equal(bodies.length, 1, 'the three queries went in one request');
  assert.ok(Array.isArray(bodies[0]) && bodies[0].length === 3, JSON.stringify(bodies[0]));
  assert.equal(hero.data.hero.name, 'R2-D2');
  assert.deepEqual({ ...luke.data.human }, { __typename: 'Human', name: 'Luke Skywalker', homePlanet: 'Tatooine' });
  assert.equal(artoo.data.droid.name, 'R2-D2');

  // One operation failing validation fails alone; the others still get data.
  const results = await Promise.allSettled([
    client.query({ query: gql`query Ok { hero(episode: EMPIRE) { name } }` }),
    client.query({ query: gql`query Bad { hero { nope } }` }),
  ]);
  assert.equal(bodies.length, 2);
  assert.equal(results[0].status, 'fulfilled');
  assert.equal(results[0].value.data.hero.name, 'Luke Skywalker');
  const bad = results[1].status === 'rejected' ? results[1].reason : results[1].value.error;
  assert.ok(bad, 'the invalid operation reports an error');
  assert.match(String(bad.message ?? bad), /nope/);
});
