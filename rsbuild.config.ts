import { defineConfig, type RsbuildPlugin, rspack } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { precompressDirectory } from './scripts/precompress.js';

/** Where `npm run serve` (the Fastify server) listens during development. */
const apiTarget = 'http://127.0.0.1:8080';

/** Path prefixes served by the API server rather than by the single-page app. */
const proxiedPrefixes = ['/api', '/clients', '/outlets', '/malls', '/healthz'] as const;

/**
 * After a production build, a brotli and a gzip copy beside each compressible file of the app (scripts/precompress.ts),
 * which the server sends as they are.
 */
const pluginPrecompress = (): RsbuildPlugin => ({
  name: 'mall:precompress',
  setup(api) {
    api.onAfterBuild(async ({ environments }) => {
      for (const environment of Object.values(environments)) {
        const { files, bytes, brotliBytes } = await precompressDirectory(environment.distPath);
        api.logger.info(
          `precompressed ${files} files: ${(bytes / 1024).toFixed(0)} kB, ${(brotliBytes / 1024).toFixed(0)} kB with brotli`,
        );
      }
    });
  },
});

export default defineConfig({
  plugins: [pluginReact(), pluginPrecompress()],
  source: {
    entry: { index: './src/main.tsx' },
  },
  html: {
    title: 'Mall Analytics',
  },
  output: {
    distPath: { root: 'dist' },
  },
  server: {
    historyApiFallback: true,
    proxy: Object.fromEntries(proxiedPrefixes.map((prefix) => [prefix, apiTarget])),
  },
  tools: {
    // The page's language (WCAG 3.1.1): the built-in template has no `lang` on <html>.
    htmlPlugin: (config) => {
      // Rsbuild injects the title, meta tags, scripts and styles into it.
      config.templateContent = '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>';
    },
    rspack: (_config, { appendPlugins }) => {
      // Blueprint's date inputs load their date-fns locale with a dynamic import
      // (`date-fns/locale/${code}/index.js`), which would put every locale in the bundle.
      appendPlugins(new rspack.ContextReplacementPlugin(/date-fns[\\/]locale$/, /^\.\/en-US\/index\.js$/));
    },
  },
});
