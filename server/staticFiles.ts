import path from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

/** A year, the longest a cache is asked to keep a file. */
const YEAR_SECONDS = 365 * 24 * 60 * 60;
/** What rsbuild writes under static/ carries a hash of its content in its name: `index.295577026b.js`. */
const HASHED_NAME = /\.[0-9a-f]{8,}\.[A-Za-z0-9]+$/;

/**
 * How long a browser may keep a file of the built app: a file whose name carries its content's hash for a year,
 * unasked (`immutable`: a new build has new names); anything else, index.html first, is asked again every time
 * (`no-cache`), so that a new build is seen at once.
 */
export function cacheControlOf(root: string, file: string): string {
  const relative = path.relative(root, file).split(path.sep).join('/');
  const name = path.basename(relative).replace(/\.(?:br|gz)$/, '');
  return relative.startsWith('static/') && HASHED_NAME.test(name)
    ? `public, max-age=${YEAR_SECONDS}, immutable`
    : 'no-cache';
}

/**
 * @fastify/static's options for the built app in `root`: the brotli or gzip copy the build made beside a file
 * (scripts/precompress.ts) when the browser accepts it, with the cache rule of cacheControlOf.
 */
export function staticFileOptions(root: string): FastifyStaticOptions {
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      reply.header('cache-control', cacheControlOf(root, file));
    },
  };
}
