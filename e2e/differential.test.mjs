// A differential test: every case of testdata/differential.json is sent
// to a running graft router and run by graphql-js 16 over the same Star
// Wars schema (graft's SDL) and data, and the answers are compared:
// status, data, and each error's message, locations and path
// (extensions, graft's own vocabulary, are not compared).
//
// Environment:
//   GRAFT_GRAPHQL_URL  the endpoint of a graft router serving examples/starwars
//   GRAFT_SDL          a file holding that router's SDL
//   GRAFT_CASES        the cases file (default testdata/differential.json)
//   GRAFT_DIFF_DUMP    when set, print each unexpected difference as one
//                      JSON line (DIFF {...}), to update the cases file
//
// graphql-js has no HTTP layer; its status is derived as graft's default
// table says: 400 when the request fails before execution (syntax,
// validation, variable values, operation selection), 200 otherwise.
//
// A case with "accept" is a known difference, with its reason: the test
// asserts that it still differs, so the list cannot go stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  buildSchema, parse, validate, execute, GraphQLError,
} from 'graphql';
import { generate } from './differential-gen.mjs';

const url = process.env.GRAFT_GRAPHQL_URL;
const sdl = readFileSync(process.env.GRAFT_SDL, 'utf8');
const cases = JSON.parse(readFileSync(process.env.GRAFT_CASES ?? 'testdata/differential.json', 'utf8'));

// The data of examples/starwars (graphql-js's own Star Wars fixture).
const all = ['NEWHOPE', 'EMPIRE', 'JEDI'];
const humans = {
  1000: { id: '1000', name: 'Luke Skywalker', friends: ['1002', '1003', '2000', '2001'], appearsIn: all, homePlanet: 'Tatooine' },
  1001: { id: '1001', name: 'Darth Vader', friends: ['1004'], appearsIn: all, homePlanet: 'Tatooine' },
  1002: { id: '1002', name: 'Han Solo', friends: ['1000', '1003', '2001'], appearsIn: all, homePlanet: null },
  1003: { id: '1003', name: 'Leia Organa', friends: ['1000', '1002', '2000', '2001'], appearsIn: all, homePlanet: 'Alderaan' },
  1004: { id: '1004', name: 'Wilhuff Tarkin', friends: ['1001'], appearsIn: ['NEWHOPE'], homePlanet: null },
};
const droids = {
  2000: { id: '2000', name: 'C-3PO', friends: ['1000', '1002', '1003', '2001'], appearsIn: all, primaryFunction: 'Protocol' },
  2001: { id: '2001', name: 'R2-D2', friends: ['1000', '1002', '1003'], appearsIn: all, primaryFunction: 'Astromech' },
};
const character = (id) => humans[id] ?? droids[id] ?? null;

const schema = buildSchema(sdl);
const typeOf = (c) => (humans[c.id] ? 'Human' : 'Droid');
schema.getType('Character').resolveType = typeOf;
const q = schema.getQueryType().getFields();
q.hero.resolve = (_, { episode }) => (episode === 'EMPIRE' ? humans[1000] : droids[2001]);
q.human.resolve = (_, { id }) => humans[id] ?? null;
q.droid.resolve = (_, { id }) => droids[id] ?? null;
for (const t of ['Human', 'Droid']) {
  const f = schema.getType(t).getFields();
  f.friends.resolve = (c) => c.friends.map(character);
  f.secretBackstory.resolve = () => { throw new Error('secretBackstory is secret.'); };
}

// reference runs a request through graphql-js.
function reference({ query, variables, operationName }) {
  const failed = (errors) => ({ status: 400, body: { errors: errors.map(shape) } });
  let doc;
  try {
    doc = parse(query);
  } catch (e) {
    if (e instanceof GraphQLError) return failed([e]);
    throw e;
  }
  const verrs = validate(schema, doc);
  if (verrs.length > 0) return failed(verrs);
  const res = execute({ schema, document: doc, variableValues: variables, operationName });
  if (res.data === undefined) return failed(res.errors);
  const body = {};
  if (res.errors) body.errors = res.errors.map(shape);
  body.data = res.data;
  return { status: 200, body: JSON.parse(JSON.stringify(body)) };
}

// shape keeps the compared members of an error.
function shape(e) {
  const out = { message: e.message };
  if (e.locations) out.locations = e.locations.map(({ line, column }) => ({ line, column }));
  if (e.path) out.path = e.path;
  return out;
}

async function graft({ query, variables, operationName }) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables, operationName }),
  });
  const json = await res.json();
  const body = {};
  if (json.errors) body.errors = json.errors.map(shape);
  if ('data' in json) body.data = json.data;
  return { status: res.status, body };
}

test('at least 200 cases, a third of them invalid', () => {
  assert.ok(cases.length >= 200, `${cases.length} cases`);
  const invalid = cases.filter((c) => reference(c).status !== 200).length;
  assert.ok(invalid * 3 >= cases.length, `${invalid} invalid of ${cases.length}`);
});

for (const [i, c] of cases.entries()) {
  test(`${i}: ${c.name ?? c.query.slice(0, 60)}`, async () => {
    const want = reference(c);
    const got = await graft(c);
    if (process.env.GRAFT_DIFF_DUMP && !c.accept) {
      try { assert.deepEqual(got, want); } catch {
        console.log('DIFF ' + JSON.stringify({ i, query: c.query, variables: c.variables, got, want }));
      }
    }
    if (c.accept) {
      assert.notDeepEqual(got, want, `case now agrees with graphql-js: remove its "accept" (${c.accept})`);
      return;
    }
    assert.deepEqual(got, want);
  });
}

// unordered sorts an answer's errors: the order in which validation
// reports a document's several errors is not the spec's to say.
function unordered(a) {
  if (a.body.errors) a.body.errors = a.body.errors.map((e) => JSON.stringify(e)).sort().map((e) => JSON.parse(e));
  return a;
}

// known leaves out of an answer the known differences (see below): its
// conflict errors, and graphql-js's suggestion for a list given for an
// enum.
function known(a, c) {
  if (!a.body.errors) return;
  const conflict = (e) => e.message.startsWith('Fields "') && e.message.includes(' conflict because ');
  const operations = (c.query.match(/^(query|mutation|subscription)\b/gm) ?? []).length;
  a.body.errors = a.body.errors.filter((e) => !conflict(e)).map((e) => {
    const out = { ...e, message: e.message.replace(/(cannot represent non-enum value: \[.*\]\.) Did you mean .*$/, '$1') };
    if (operations > 1 && / used in position expecting type /.test(e.message)) out.locations = e.locations.slice(1);
    return out;
  });
}

// unconfigured reports whether graphql-js refused c for field conflicts
// alone in an operation of a type the schema lacks, which graft's rule
// does not look into: graft then answers (the operation selected, or
// "Schema is not configured" for that one).
function unconfigured(c, got, want) {
  const conflict = (e) => e.message.startsWith('Fields "') && e.message.includes(' conflict because ');
  return got.status === 200 && want.status === 400 && want.body.errors.every(conflict)
    && /^(mutation|subscription)\b/m.test(c.query);
}

// Generated documents (differential-gen.mjs), with fixed seeds: the same
// cases every run. GRAFT_GEN_SEED and GRAFT_GEN_CASES draw others. Mostly
// valid documents must answer as graphql-js does, errors and all, but
// for known differences in the errors of refused documents:
// - field conflicts (OverlappingFieldsCanBeMerged): graft's rule,
//   gqlparser's, reports them at other places and in other numbers where
//   several conflict, and not at all below an unknown type or in an
//   operation of a type the schema lacks (which graft then answers at
//   execution, 200 with data null, as it does any such operation);
// - graphql-js's "Did you mean" for a list given for an enum;
// - in a document of several operations declaring one variable, the
//   declaration a misplaced variable's error points at.
// In documents with many errors only which are refused, and what the
// others answer, must agree.
const genSeed = Number(process.env.GRAFT_GEN_SEED ?? 1);
const maxErrors = 100; // graft.Config's default MaxErrors
const genCases = Number(process.env.GRAFT_GEN_CASES ?? 1000);
for (const [bad, strict] of [[0.1, true], [1, false]]) {
  test(`${genCases} generated documents (seed ${genSeed}, invalid choices ${bad}) answer as graphql-js does`, async () => {
    const diffs = [];
    for (const [i, c] of generate(genSeed, genCases, bad).entries()) {
      const want = unordered(reference(c));
      const got = unordered(await graft(c));
      if (unconfigured(c, got, want)) continue;
      if (!strict) {
        want.body.errors = want.body.errors ? 'some' : undefined;
        got.body.errors = got.body.errors ? 'some' : undefined;
      } else if (want.status !== 200) {
        known(want, c);
        known(got, c);
      } else if (want.body.errors?.length > maxErrors) {
        // graft reports the first 100 field errors of an execution.
        const all = new Set(want.body.errors.map((e) => JSON.stringify(e)));
        const kept = got.body.errors ?? [];
        assert.equal(kept.length, maxErrors, `case ${i}: ${kept.length} errors, want the first ${maxErrors}`);
        for (const e of kept) assert.ok(all.has(JSON.stringify(e)), `case ${i}: error not graphql-js's: ${JSON.stringify(e)}`);
        want.body.errors = 'capped';
        got.body.errors = 'capped';
      }
      try {
        assert.deepEqual(got, want);
      } catch {
        diffs.push({ i, ...c, got, want });
      }
    }
    if (process.env.GRAFT_DIFF_DUMP) {
      for (const d of diffs) console.log('DIFF ' + JSON.stringify(d));
    }
    assert.equal(diffs.length, 0, `${diffs.length} of ${genCases} differ; the first:\n${JSON.stringify(diffs[0], null, 1)}`);
  });
}
