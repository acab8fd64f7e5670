// Runs GraphQL Code Generator's client preset with persisted documents
// over the .graphql files of testdata/codegen and a schema file, writing
// the generated client, persisted-documents.json among it, to a directory.
//
// Usage: node codegen.mjs <schema.graphql> <output directory>
import { generate } from '@graphql-codegen/cli';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const [schema, out] = process.argv.slice(2);
if (!schema || !out) {
  console.error('usage: node codegen.mjs <schema.graphql> <output directory>');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
await generate(
  {
    schema,
    documents: path.join(here, 'testdata', 'codegen', '*.graphql'),
    silent: true,
    generates: {
      [out.endsWith('/') ? out : out + '/']: {
        preset: 'client',
        presetConfig: {
          fragmentMasking: false,
          persistedDocuments: { hashAlgorithm: 'sha256' },
        },
      },
    },
  },
  true,
);
