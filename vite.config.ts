import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@contract': path.resolve(import.meta.dirname, 'src/contract'),
      '@web': path.resolve(import.meta.dirname, 'src/web'),
    },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    // No preload lists for the lazy pages: each page's chunk names its own imports, which the browser then fetches
    // together (one round trip more on a page's first visit), while the lists of every page's chunks, and the
    // polyfill that no supported browser needs, cost the landing page's first JavaScript (issue 12's 150 KB budget).
    modulePreload: false,
    rolldownOptions: {
      // src/contract holds declarations only, and a zod schema built at the top of a module is never used for
      // its effect: so a page that imports a constant from a contract file does not also load every schema in
      // it, nor zod itself (issue 12: the landing page's first JavaScript stays under 150 KB gzip).
      treeshake: {
        manualPureFunctions: ['z'],
        moduleSideEffects: [{ test: /[\\/]src[\\/]contract[\\/]/, sideEffects: false }],
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:5000', '/socket.io': { target: 'ws://localhost:5000', ws: true } },
  },
});
