// relay-runtime against the bookstore example served by cmd/graft
// (GRAFT_EXAMPLE=bookstore): a connection paginated forward and backward
// through Relay's connection handler, which merges the pages in its store
// by their cursors, and a node refetched by its global id.
//
// The artifacts below are what relay-compiler generates for the queries
// in their params.text (a @connection(key: "BooksPage_books") on books,
// and node(id:)), written out so the test needs no compiler step.
//
// Environment:
//   GRAFT_GRAPHQL_URL   the GraphQL endpoint
import { test } from 'node:test';
import assert from 'node:assert/strict';
import relay from 'relay-runtime';

const { Environment, Network, RecordSource, Store, fetchQuery, createOperationDescriptor } = relay;
const url = process.env.GRAFT_GRAPHQL_URL;

function environment(log) {
  const network = Network.create(async (params, variables) => {
    log.push(variables);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: params.text, variables }),
    });
    assert.equal(res.status, 200, `status of ${params.name}`);
    return res.json();
  });
  return new Environment({ network, store: new Store(new RecordSource()) });
}

const scalar = (name) => ({ alias: null, args: null, kind: 'ScalarField', name, storageKey: null });
const pageArgs = ['first', 'after', 'last', 'before'];
const argumentDefinitions = pageArgs.map((name) => ({ defaultValue: null, kind: 'LocalArgument', name }));
const args = pageArgs.map((name) => ({ kind: 'Variable', name, variableName: name }));
const connectionSelections = [
  {
    alias: null, args: null, concreteType: 'BookEdge', kind: 'LinkedField', name: 'edges', plural: true, storageKey: null,
    selections: [
      scalar('cursor'),
      {
        alias: null, args: null, concreteType: 'Book', kind: 'LinkedField', name: 'node', plural: false, storageKey: null,
        selections: [scalar('id'), scalar('title'), scalar('__typename')],
      },
    ],
  },
  {
    alias: null, args: null, concreteType: 'PageInfo', kind: 'LinkedField', name: 'pageInfo', plural: false, storageKey: null,
    selections: [scalar('endCursor'), scalar('hasNextPage'), scalar('hasPreviousPage'), scalar('startCursor')],
  },
  scalar('totalCount'),
];

const BooksPageQuery = {
  kind: 'Request',
  fragment: {
    argumentDefinitions, kind: 'Fragment', metadata: null, name: 'BooksPageQuery', type: 'Query', abstractKey: null,
    selections: [{
      alias: 'books', args: null, concreteType: 'BookConnection', kind: 'LinkedField',
      name: '__BooksPage_books_connection', plural: false, selections: connectionSelections, storageKey: null,
    }],
  },
  operation: {
    argumentDefinitions, kind: 'Operation', name: 'BooksPageQuery',
    selections: [
      { alias: null, args, concreteType: 'BookConnection', kind: 'LinkedField', name: 'books', plural: false, selections: connectionSelections, storageKey: null },
      { alias: null, args, filters: null, handle: 'connection', key: 'BooksPage_books', kind: 'LinkedHandle', name: 'books' },
    ],
  },
  params: {
    cacheID: 'books-page', id: null, metadata: {}, name: 'BooksPageQuery', operationKind: 'query',
    text: `query BooksPageQuery($first: Int, $after: String, $last: Int, $before: String) {
  books(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id title __typename } }
    pageInfo { endCursor hasNextPage hasPreviousPage startCursor }
    totalCount
  }
}`,
  },
};

const nodeSelections = [
  scalar('__typename'),
  scalar('id'),
  { kind: 'InlineFragment', type: 'Book', abstractKey: null, selections: [scalar('title'), scalar('isbn'), scalar('copiesSold')] },
];
const NodeQuery = {
  kind: 'Request',
  fragment: {
    argumentDefinitions: [{ defaultValue: null, kind: 'LocalArgument', name: 'id' }],
    kind: 'Fragment', metadata: null, name: 'NodeQuery', type: 'Query', abstractKey: null,
    selections: [{ alias: null, args: [{ kind: 'Variable', name: 'id', variableName: 'id' }], concreteType: null, kind: 'LinkedField', name: 'node', plural: false, selections: nodeSelections, storageKey: null }],
  },
  operation: {
    argumentDefinitions: [{ defaultValue: null, kind: 'LocalArgument', name: 'id' }],
    kind: 'Operation', name: 'NodeQuery',
    selections: [{ alias: null, args: [{ kind: 'Variable', name: 'id', variableName: 'id' }], concreteType: null, kind: 'LinkedField', name: 'node', plural: false, selections: nodeSelections, storageKey: null }],
  },
  params: {
    cacheID: 'node', id: null, metadata: {}, name: 'NodeQuery', operationKind: 'query',
    text: 'query NodeQuery($id: ID!) { node(id: $id) { __typename id ... on Book { title isbn copiesSold } } }',
  },
};

// page fetches one page and returns the connection as the store holds it
// after Relay merged it: every page fetched so far, in order.
async function page(env, variables) {
  const vars = { first: null, after: null, last: null, before: null, ...variables };
  await fetchQuery(env, BooksPageQuery, vars).toPromise();
  const op = createOperationDescriptor(BooksPageQuery, vars);
  return env.lookup(op.fragment).data.books;
}

const titles = (conn) => conn.edges.map((e) => Number(e.node.title.replace('Book ', '')));
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('relay-runtime paginates forward, merging pages by cursor', async () => {
  assert.ok(url, 'GRAFT_GRAPHQL_URL must be set');
  const log = [];
  const env = environment(log);
  let conn = await page(env, { first: 20 });
  assert.deepEqual(titles(conn), range(1, 20));
  assert.equal(conn.totalCount, 50);
  while (conn.pageInfo.hasNextPage) {
    conn = await page(env, { first: 20, after: conn.pageInfo.endCursor });
  }
  assert.deepEqual(titles(conn), range(1, 50), 'the store holds every page in order');
  assert.equal(conn.pageInfo.hasNextPage, false);
  assert.equal(log.length, 3);
});

test('relay-runtime paginates backward, prepending pages', async () => {
  const log = [];
  const env = environment(log);
  let conn = await page(env, { last: 15 });
  assert.deepEqual(titles(conn), range(36, 50));
  assert.equal(conn.pageInfo.hasPreviousPage, true);
  while (conn.pageInfo.hasPreviousPage) {
    conn = await page(env, { last: 15, before: conn.pageInfo.startCursor });
  }
  assert.deepEqual(titles(conn), range(1, 50));
  assert.equal(log.length, 4);
});

test('relay-runtime refetches a node by its global id and updates the record', async () => {
  const env = environment([]);
  const conn = await page(env, { first: 3 });
  const id = conn.edges[2].node.id;
  const vars = { id };
  const result = await fetchQuery(env, NodeQuery, vars).toPromise();
  assert.deepEqual(result.node, { __typename: 'Book', id, title: 'Book 3', isbn: '9780000000003', copiesSold: '9007199254740996' });
  // The record is the one the connection's edge points to.
  const record = env.getStore().getSource().get(id);
  assert.equal(record.__typename, 'Book');
  assert.equal(record.isbn, '9780000000003');
  assert.equal(record.title, 'Book 3');
  // An unknown id is null, without an error.
  const missing = await fetchQuery(env, NodeQuery, { id: 'Qm9vazo5OTk' }).toPromise();
  assert.equal(missing.node, null);
});
