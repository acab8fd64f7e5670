// Real upload clients against cmd/graft serving GRAFT_EXAMPLE=uploads:
// apollo-upload-client's UploadHttpLink with Apollo Client, and urql's
// built-in multipart uploads (the GraphQL multipart request
// specification). CSRF prevention is on, so each client sends a preflight
// header, and a multipart request without one is refused.
//
// Environment:
//   GRAFT_GRAPHQL_URL  the GraphQL endpoint
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';
import { Client, fetchExchange, gql as urqlGql } from '@urql/core';

const url = process.env.GRAFT_GRAPHQL_URL;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// Every byte value, a few times over.
const everyByte = new Uint8Array(256 * 40).map((_, i) => i % 256);

const SINGLE = `mutation Single($file: Upload!) { singleUpload(file: $file) { filename mimetype encoding size sha256 } }`;
const MULTIPLE = `mutation Multiple($files: [Upload!]!) { multipleUpload(files: $files) { filename size sha256 } }`;
const TWICE = `mutation Twice($a: Upload!, $b: Upload!) { a: singleUpload(file: $a) { sha256 } b: singleUpload(file: $b) { sha256 } }`;

test('apollo-upload-client uploads files', async () => {
  assert.ok(url, 'GRAFT_GRAPHQL_URL must name the GraphQL endpoint');
  const client = new ApolloClient({
    cache: new InMemoryCache(),
    link: new UploadHttpLink({ uri: url, headers: { 'apollo-require-preflight': 'true' } }),
  });

  const file = new File([everyByte], 'données 東京.bin', { type: 'application/octet-stream' });
  const one = await client.mutate({ mutation: gql(SINGLE), variables: { file } });
  assert.deepEqual({ ...one.data.singleUpload, __typename: undefined }, {
    __typename: undefined, filename: 'données 東京.bin', mimetype: 'application/octet-stream',
    encoding: '7bit', size: everyByte.length, sha256: sha256(everyByte),
  });

  const texts = ['first', '', 'third file'];
  const files = texts.map((s, i) => new File([s], `f${i}.txt`, { type: 'text/plain' }));
  const many = await client.mutate({ mutation: gql(MULTIPLE), variables: { files } });
  assert.deepEqual(many.data.multipleUpload.map((f) => [f.filename, f.size, f.sha256]),
    texts.map((s, i) => [`f${i}.txt`, s.length, sha256(Buffer.from(s))]));

  // One File in two variables: the client sends it once, mapped twice.
  const shared = new File(['shared bytes'], 'shared.txt', { type: 'text/plain' });
  const twice = await client.mutate({ mutation: gql(TWICE), variables: { a: shared, b: shared } });
  assert.equal(twice.data.a.sha256, sha256(Buffer.from('shared bytes')));
  assert.equal(twice.data.b.sha256, sha256(Buffer.from('shared bytes')));
});

test('urql uploads files', async () => {
  const client = new Client({
    url,
    exchanges: [fetchExchange],
    fetchOptions: { headers: { 'graphql-preflight': '1' } },
  });
  const file = new File([everyByte], 'résumé.pdf', { type: 'application/pdf' });
  const one = await client.mutation(urqlGql(SINGLE), { file }).toPromise();
  assert.equal(one.error, undefined, String(one.error));
  assert.equal(one.data.singleUpload.filename, 'résumé.pdf');
  assert.equal(one.data.singleUpload.mimetype, 'application/pdf');
  assert.equal(one.data.singleUpload.sha256, sha256(everyByte));

  const big = new Uint8Array(3 << 20).map((_, i) => (i * 7) % 251);
  const files = [new File([big], 'big.bin'), new File([], 'empty.bin')];
  const many = await client.mutation(urqlGql(MULTIPLE), { files }).toPromise();
  assert.equal(many.error, undefined, String(many.error));
  assert.deepEqual(many.data.multipleUpload.map((f) => [f.filename, f.size, f.sha256]),
    [['big.bin', big.length, sha256(big)], ['empty.bin', 0, sha256(new Uint8Array())]]);
});

test('a multipart request without a preflight header is refused', async () => {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: SINGLE, variables: { file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new File(['x'], 'x.txt'));
  const res = await fetch(url, { method: 'POST', body: form });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.errors[0].extensions.code, 'CSRF_PREVENTION_BLOCKED');

  // With one, the server is still healthy and answers.
  const ok = await fetch(url, { method: 'POST', body: form, headers: { 'graphql-preflight': '1' } });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).data.singleUpload.size, 1);
});
