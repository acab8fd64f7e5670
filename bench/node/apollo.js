// Apollo Server 5 (its standalone node:http server) serving the graft
// benchmark workload, started by `go run ./cmd/bench` as a child process:
//
//   node apollo.js --port N [--host H] [--upstream URL]
//
// Apollo Server's defaults, automatic persisted queries included, with
// introspection on (q4) although NODE_ENV is production. Without --upstream
// it serves the data set from memory (q1 to q4); with it, it resolves
// Query.authors with one upstream call and Author.posts through a
// DataLoader made per request (one batch per distinct `first`), as Apollo
// documents for N+1. The schema comes from the BENCH_SDL environment
// variable. It prints "ready" once it accepts connections.
import { ApolloServer } from '@apollo/server'
import { startStandaloneServer } from '@apollo/server/standalone'
import { args, sdl, resolvers, context, ready } from './workload.js'

const server = new ApolloServer({ typeDefs: sdl, resolvers, introspection: true })
await startStandaloneServer(server, {
  listen: { port: Number(args.port), host: args.host },
  context: async () => context()
})
ready(() => server.stop())
