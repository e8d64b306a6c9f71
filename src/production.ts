/**
 * Imported first by the entry points (src/main.ts, the benchmarks): unless
 * NODE_ENV says otherwise, the gateway runs as in production. graphql-js reads
 * NODE_ENV once, when it is loaded, and in development mode checks every
 * `instanceof` of the schema's types for a second copy of itself, on every
 * field of every object (about 3% of a W1 request's CPU). Set
 * `NODE_ENV=development` to get those checks back. Nothing else of the
 * gateway reads NODE_ENV: Apollo's settings that default from it
 * (introspection, stack traces, the landing page, signal handling) are all
 * set explicitly in src/server.ts.
 */
if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';

export {};
