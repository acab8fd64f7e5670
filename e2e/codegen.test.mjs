// Runs the documents GraphQL Code Generator's client preset persisted
// (persisted-documents.json, written by codegen.mjs) against a graft
// router that loaded the same file as its safelist, by documentId only.
//
// Environment:
//   GRAFT_GRAPHQL_URL   the GraphQL endpoint
//   GRAFT_CODEGEN_DIR   the directory codegen.mjs wrote
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const url = process.env.GRAFT_GRAPHQL_URL;
const dir = process.env.GRAFT_CODEGEN_DIR;

// The variables and the expected data of each generated operation.
const runs = {
  HeroName: { variables: {}, data: { hero: { name: 'R2-D2' } } },
  HeroOfEpisode: { variables: { episode: 'EMPIRE' }, check: (d) => d.hero.name === 'Luke Skywalker' && d.hero.friends.length > 0 },
  HumanById: { variables: { id: '1000' }, data: { human: { homePlanet: 'Tatooine', name: 'Luke Skywalker' } } },
  DroidById: { variables: { id: '2001' }, data: { droid: { name: 'R2-D2', primaryFunction: 'Astromech' } } },
};

async function post(body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('the generated persisted documents run by documentId', async () => {
  assert.ok(url && dir, 'GRAFT_GRAPHQL_URL and GRAFT_CODEGEN_DIR must be set');
  const manifest = JSON.parse(await readFile(path.join(dir, 'persisted-documents.json'), 'utf8'));
  const ids = Object.keys(manifest);
  assert.equal(ids.length, Object.keys(runs).length, 'one persisted document per operation');
  // The generated client carries the same ids in the documents it sends.
  const client = await readFile(path.join(dir, 'graphql.ts'), 'utf8');
  for (const id of ids) {
    assert.ok(id.startsWith('sha256:'), `id ${id}`);
    assert.ok(client.includes(JSON.stringify(id)), `graphql.ts lacks ${id}`);
    const name = /^(?:.*\s)?query (\w+)/.exec(manifest[id])?.[1];
    const run = runs[name];
    assert.ok(run, `unexpected operation ${name}`);
    const { status, body } = await post({ documentId: id, variables: run.variables });
    assert.equal(status, 200, `${name}: ${JSON.stringify(body)}`);
    assert.equal(body.errors, undefined, `${name}: ${JSON.stringify(body)}`);
    if (run.data) assert.deepEqual(body.data, run.data, name);
    if (run.check) assert.ok(run.check(body.data), `${name}: ${JSON.stringify(body.data)}`);
  }
  // Over GET, and refusals: the document text itself, and an unknown id.
  const hero = ids.find((id) => manifest[id].includes('query HeroName'));
  const get = await fetch(`${url}?documentId=${encodeURIComponent(hero)}`, { headers: { 'client-require-preflight': '1' } });
  assert.equal(get.status, 200);
  assert.deepEqual((await get.json()).data, runs.HeroName.data);
  const text = await post({ query: '{ hero { id } }' });
  assert.equal(text.status, 403);
  assert.equal(text.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_ALLOWED');
  const unknown = await post({ documentId: 'sha256:' + '0'.repeat(64) });
  assert.equal(unknown.status, 403);
});
