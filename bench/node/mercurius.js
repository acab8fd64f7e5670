// Mercurius (Fastify) with graphql-jit serving the graft benchmark workload,
// started by `go run ./cmd/bench` as a child process:
//
//   node mercurius.js --port N [--host H] [--upstream URL]
//
// The schema comes from the BENCH_SDL environment variable. Without
// --upstream it serves the data set from memory (q1 to q4); with it, it
// resolves Query.authors with one upstream call and Author.posts through a
// Mercurius loader (one batch per distinct `first`), as Mercurius documents
// for N+1. It prints "ready" once it accepts connections.
import Fastify from 'fastify'
import mercurius from 'mercurius'
import { args, sdl, page, memoryResolvers, upstreamQuery, postsBatch, ready } from './workload.js'

const app = Fastify({ logger: false, bodyLimit: 1 << 20 })
app.register(mercurius, {
  schema: sdl,
  resolvers: args.upstream ? { Query: upstreamQuery } : memoryResolvers,
  loaders: args.upstream
    ? { Author: { posts: (queries) => postsBatch(queries.map(({ obj, params }) => ({ id: obj.id, first: page(params.first, 20) }))) } }
    : undefined,
  jit: 1,
  graphiql: false,
  persistedQueryProvider: mercurius.persistedQueryDefaults.automatic()
})

await app.listen({ port: Number(args.port), host: args.host })
ready(() => app.close())
