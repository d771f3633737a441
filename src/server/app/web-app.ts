import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isClientRoute } from '../../contract/client-routes.js';
import { AppError, errorBody } from '../http/errors.js';

// Vite names every file under assets/ by a hash of its content, so a changed file gets a new name: a browser may
// keep one for a year without asking again. Without this every page load asked again for each of its scripts and
// styles (a 304 each). index.html, favicon.svg and theme-init.js keep their names: asked again each time (no-cache).
const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const REVALIDATED_CACHE_CONTROL = 'no-cache';

/**
 * Serves the built React app; unknown /api paths answer the JSON error shape, other paths the SPA: with 200 on the
 * app's own routes, with 404 elsewhere (the SPA then shows its 404 page).
 */
export async function registerWebApp(
  app: FastifyInstance,
  webRoot: string,
  routes: { debugRoutes: boolean },
): Promise<void> {
  const webAssetsDir = path.join(webRoot, 'assets') + path.sep;
  const hasBuild = existsSync(path.join(webRoot, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.startsWith(webAssetsDir) ? HASHED_ASSET_CACHE_CONTROL : REVALIDATED_CACHE_CONTROL,
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      const notFound = new AppError('NOT_FOUND', `No API endpoint at ${request.method} ${request.url.split('?')[0]}`);
      return reply.status(404).send(errorBody(notFound));
    }
    // A missing asset (an old chunk after a deploy) must fail as a 404, not load the app's HTML as script.
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/assets/')) {
      return reply.status(404).send(errorBody(new AppError('NOT_FOUND', 'Not found')));
    }
    if (!hasBuild) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web`.');
    }
    // Client-side routes (and the 404 page) are rendered by the SPA; crawlers and monitors read the status.
    const isKnownPage = isClientRoute(request.url.split('?')[0] ?? '', routes);
    return reply
      .status(isKnownPage ? 200 : 404)
      .header('cache-control', REVALIDATED_CACHE_CONTROL)
      .sendFile('index.html');
  });
}
