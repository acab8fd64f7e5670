// GraphQL Yoga on node:http serving the graft benchmark workload, started
// by `go run ./cmd/bench` as a child process:
//
//   node yoga.js --port N [--host H] [--upstream URL]
//
// Yoga's defaults (its parse and validation caches, graphql-js execution)
// with its automatic persisted queries plugin. Without --upstream it serves
// the data set from memory (q1 to q4); with it, it resolves Query.authors
// with one upstream call and Author.posts through a DataLoader made per
// request (one batch per distinct `first`), as Yoga documents for N+1. The
// schema comes from the BENCH_SDL environment variable. It prints "ready"
// once it accepts connections.
import { createServer } from 'node:http'
import { createSchema, createYoga } from 'graphql-yoga'
import { useAPQ } from '@graphql-yoga/plugin-apq'
import { args, sdl, resolvers, context, ready } from './workload.js'

const yoga = createYoga({
  schema: createSchema({ typeDefs: sdl, resolvers }),
  graphqlEndpoint: '/graphql',
  graphiql: false,
  logging: false,
  landingPage: false,
  plugins: [useAPQ()],
  context
})

const server = createServer(yoga)
await new Promise((resolve) => server.listen(Number(args.port), args.host, resolve))
ready(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
