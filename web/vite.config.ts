import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The dashboard builds to web/dist, which the service serves at `/`. `npm run dev -w web` serves it with
 * hot reload on :5173 and forwards the API and Socket.IO to the service on :3000 (`npm run dev`).
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The map's state outlines are a JSON asset fetched at run time, not JavaScript in the bundle.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/docs': 'http://localhost:3000',
      '/socket.io': { target: 'ws://localhost:3000', ws: true },
    },
  },
});
