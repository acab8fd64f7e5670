// Apollo Federation: the graft products and reviews subgraphs behind
// @apollo/gateway, with the two reference subgraphs of Apollo's subgraph
// compatibility suite (inventory and users) served here by
// @apollo/subgraph. The supergraph is composed with @apollo/composition
// from each subgraph's _service { sdl }, so composition itself checks the
// SDL graft prints.
//
// Environment:
//   GRAFT_PRODUCTS_URL  the products subgraph (GRAFT_EXAMPLE=federation-products)
//   GRAFT_REVIEWS_URL   the reviews subgraph (GRAFT_EXAMPLE=federation-reviews)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices } from '@apollo/composition';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import usageReporting from '@apollo/usage-reporting-protobuf';

const usersSDL = `
extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])

type User @key(fields: "email") {
  email: ID!
  name: String
  totalProductsCreated: Int @shareable
  yearsOfEmployment: Int!
}
`;

const user = { email: 'support@apollographql.com', name: 'Jane Smith', totalProductsCreated: 1337, yearsOfEmployment: 10 };

const usersResolvers = {
  User: {
    __resolveReference: (ref) => (ref.email === user.email ? user : null),
  },
};

const inventorySDL = `
extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@requires", "@shareable", "@provides", "@external", "@tag"])

extend type Product @key(fields: "id") {
  id: ID! @external
  dimensions: ProductDimension @external
  delivery(zip: String): DeliveryEstimates @requires(fields: "dimensions { size weight }")
}

type ProductDimension @shareable {
  size: String
  weight: Float
}

type DeliveryEstimates {
  estimatedDelivery: String
  fastestDelivery: String
}

interface Inventory @key(fields: "id") {
  id: ID!
  products: [Product!]!
}

type OpenSourceInventory implements Inventory @key(fields: "id") {
  id: ID!
  products: [Product!]!
}

type Query {
  inventory(id: ID!): Inventory
}
`;

const inventory = { __typename: 'OpenSourceInventory', id: 'apollo-oss', products: [{ id: 'apollo-federation' }, { id: 'apollo-studio' }] };

const inventoryResolvers = {
  Query: { inventory: (_, { id }) => (id === inventory.id ? inventory : null) },
  Inventory: {
    __resolveReference: (ref) => (ref.id === inventory.id ? inventory : null),
    __resolveType: (v) => v.__typename,
  },
  OpenSourceInventory: {
    __resolveReference: (ref) => (ref.id === inventory.id ? inventory : null),
  },
  Product: {
    delivery: (product) => ({
      // the @requires fields arrive from the products subgraph
      estimatedDelivery: `${product.dimensions.size} ${product.dimensions.weight}`,
      fastestDelivery: '1/1/2026',
    }),
  },
};

let servers = [];
let gatewayURL;
let supergraphSdl;

async function serveNode(typeDefs, resolvers) {
  const server = new ApolloServer({ schema: buildSubgraphSchema([{ typeDefs: parse(typeDefs), resolvers }]) });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
  servers.push(server);
  return url;
}

async function serviceSDL(url) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.errors, undefined);
  return body.data._service.sdl;
}

before(async () => {
  const subgraphs = [
    { name: 'products', url: process.env.GRAFT_PRODUCTS_URL, sdl: await serviceSDL(process.env.GRAFT_PRODUCTS_URL) },
    { name: 'reviews', url: process.env.GRAFT_REVIEWS_URL, sdl: await serviceSDL(process.env.GRAFT_REVIEWS_URL) },
    { name: 'users', url: await serveNode(usersSDL, usersResolvers), sdl: usersSDL },
    { name: 'inventory', url: await serveNode(inventorySDL, inventoryResolvers), sdl: inventorySDL },
  ];
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: s.url, typeDefs: parse(s.sdl) })));
  if (result.errors) {
    throw new Error('composition failed:\n' + result.errors.map((e) => e.message).join('\n'));
  }
  supergraphSdl = result.supergraphSdl;
  const gateway = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl }) });
  ({ url: gatewayURL } = await startStandaloneServer(gateway, { listen: { port: 0, host: '127.0.0.1' } }));
  servers.push(gateway);
});

after(async () => {
  for (const s of servers.reverse()) await s.stop();
});

async function query(q, variables) {
  const res = await fetch(gatewayURL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: q, variables }),
  });
  return res.json();
}

test('the supergraph keeps @custom (@composeDirective), @override, @tag and @inaccessible', () => {
  assert.match(supergraphSdl, /directive @custom on OBJECT/);
  assert.match(supergraphSdl, /@join__type\(graph: REVIEWS, key: "id"\)\n  @custom\n/);
  assert.match(supergraphSdl, /override: "users"/);
  assert.match(supergraphSdl, /@tag\(name: "internal"\)/);
  assert.match(supergraphSdl, /unit: String[^\n]*@inaccessible/);
});

test('a product across products, users (@requires, @override), inventory (@requires) and reviews', async () => {
  const body = await query(`{ product(id: "apollo-federation") {
    id sku package variation { id } dimensions { size weight } notes
    research { study { caseNumber description } outcome }
    createdBy { email name totalProductsCreated averageProductsCreatedPerYear }
    delivery(zip: "94111") { estimatedDelivery fastestDelivery }
    reviews { rating }
  } }`);
  assert.deepEqual(body, {
    data: {
      product: {
        id: 'apollo-federation', sku: 'federation', package: '@apollo/federation', variation: { id: 'OSS' },
        dimensions: { size: 'small', weight: 1 }, notes: null,
        research: [{ study: { caseNumber: '1234', description: 'Federation Study' }, outcome: null }],
        createdBy: { email: 'support@apollographql.com', name: 'Jane Smith', totalProductsCreated: 1337, averageProductsCreatedPerYear: 134 },
        delivery: { estimatedDelivery: 'small 1', fastestDelivery: '1/1/2026' },
        reviews: [{ rating: 5 }, { rating: 4 }],
      },
    },
  });
});

test('@interfaceObject: Inventory fields from products on the inventory subgraph\'s interface', async () => {
  const body = await query(`{ inventory(id: "apollo-oss") { id
    deprecatedProducts { sku package reason createdBy { email name } }
    products { id sku createdBy { name } } } }`);
  assert.deepEqual(body, {
    data: {
      inventory: {
        id: 'apollo-oss',
        deprecatedProducts: [{ sku: 'apollo-federation-v1', package: '@apollo/federation-v1', reason: 'Migrate to Federation V2',
          createdBy: { email: 'support@apollographql.com', name: 'Jane Smith' } }],
        products: [
          { id: 'apollo-federation', sku: 'federation', createdBy: { name: 'Jane Smith' } },
          { id: 'apollo-studio', sku: 'studio', createdBy: { name: 'Jane Smith' } },
        ],
      },
    },
  });
});

test('reviews resolve their products in the products subgraph', async () => {
  const body = await query(`{ latestReviews { body product { id sku package } } }`);
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  assert.deepEqual(body.data.latestReviews.map((r) => [r.product.id, r.product.sku]), [
    ['apollo-federation', 'federation'], ['apollo-federation', 'federation'], ['apollo-studio', 'studio'],
  ]);
});

test('deprecatedProduct and @provides', async () => {
  const body = await query(`{ deprecatedProduct(sku: "apollo-federation-v1", package: "@apollo/federation-v1") {
    sku reason createdBy { email totalProductsCreated } } }`);
  assert.deepEqual(body, { data: { deprecatedProduct: { sku: 'apollo-federation-v1', reason: 'Migrate to Federation V2',
    createdBy: { email: 'support@apollographql.com', totalProductsCreated: 1337 } } } });
});

test('@inaccessible fields are not in the API schema', async () => {
  const body = await query(`{ product(id: "apollo-federation") { dimensions { unit } } }`);
  assert.equal(body.data, undefined);
  assert.match(body.errors[0].message, /Cannot query field "unit"/);
});

test('ftv1: a subgraph answers apollo-federation-include-trace with an inline trace', async () => {
  const res = await fetch(process.env.GRAFT_PRODUCTS_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: '*/*', 'apollo-federation-include-trace': 'ftv1' },
    body: JSON.stringify({ query: '{ product(id: "apollo-federation") { id } }' }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^application\/(json|graphql-response\+json)/);
  const body = await res.json();
  assert.deepEqual(body.data, { product: { id: 'apollo-federation' } });
  assert.deepEqual(Object.keys(body.extensions), ['ftv1']);
  const trace = usageReporting.Trace.decode(Buffer.from(body.extensions.ftv1, 'base64'));
  assert.ok(Number(trace.durationNs) > 0);
  assert.ok(Number(trace.startTime.seconds) > 0);
  assert.ok(Number(trace.endTime.seconds) >= Number(trace.startTime.seconds));
  assert.ok(trace.root);
});
