/**
 * The import structure of the service, checked from the code itself: by test/architecture.test.ts (part
 * of `npm test`) and by `npm run lint:deps` (the same rules from the command line).
 *
 * Layers, from the bottom: src/domain (pure rules) and src/lib (small helpers) import nothing else of
 * ours; src/config.ts, src/db and src/infra build on them; src/adapters (vendor ports) on the domain;
 * src/plugins (auth, context, errors) on those; src/modules (one folder per resource area) on all of
 * them; src/workers and src/app.ts compose the modules; src/server.ts, src/main.ts and src/demo sit on
 * top. Imports point down, never up; type-only imports count too (they are dependencies of the design
 * even when the compiler erases them).
 */

/** Test code: the tests themselves and what only they use. */
const TEST_CODE = ['\\.test\\.ts$', '^src/domain/hos/test-support/'];
/** Every file of a layer except its tests. */
const layer = (path) => ({ path, pathNot: TEST_CODE });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import one another (directly or round a loop, type-only imports included) cannot be understood, tested or moved apart. Give the shared part its own file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the cruiser cannot resolve is an import no other rule sees: fix the path (or teach the resolver here).',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'pdf-loaded-when-printing',
      severity: 'error',
      comment: 'PDFKit and what it brings (fontkit, a Brotli decoder, font metrics) cost an idle process ~10 MiB (issue 28): only the printed-log renderer imports it, and the renderer is imported with import() when a log is printed, never at start.',
      from: { path: '^src/', pathNot: ['^src/modules/logs/logs\\.print\\.ts$', '\\.test\\.ts$'] },
      to: { path: ['^node_modules/pdfkit/', '^src/modules/logs/logs\\.print\\.ts$'], dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'domain-imports-only-domain',
      severity: 'error',
      comment: 'src/domain is the pure core (no I/O, no framework, `now` passed in): it imports nothing from the rest of the service, not even in its tests.',
      from: { path: '^src/domain/' },
      to: { path: '^(src|test|web)/', pathNot: '^src/domain/' },
    },
    {
      name: 'domain-uses-only-pure-packages',
      severity: 'error',
      comment: 'The domain may use packages that do no I/O: tz-lookup (an offline table) and node:crypto (hashing). Adding one is a decision: add it here.',
      from: layer('^src/domain/'),
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown', 'core'],
        pathNot: ['^node_modules/@photostructure/tz-lookup/', '^(node:)?crypto$'],
      },
    },
    {
      name: 'lib-imports-only-lib',
      severity: 'error',
      comment: 'src/lib holds small helpers every layer uses (errors, ids, time, the Worker contract): it depends on no layer of ours.',
      from: layer('^src/lib/'),
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'config-imports-nothing-of-ours',
      severity: 'error',
      comment: 'src/config.ts is the one reader of process.env; every layer may read the Config, so it depends on none.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'db-below-the-services',
      severity: 'error',
      comment: 'src/db (client, migrations, transactions, outbox) is infrastructure the services use: it knows no service, plugin or worker.',
      from: layer('^src/db/'),
      to: { path: '^src/', pathNot: ['^src/(db|lib)/'] },
    },
    {
      name: 'infra-below-the-services',
      severity: 'error',
      comment: 'src/infra (mail, secrets, broadcast, rate limits, geocoding, webhook HTTP) is used by the services and knows none of them.',
      from: layer('^src/infra/'),
      to: { path: '^src/', pathNot: ['^src/(infra|lib|domain)/', '^src/config\\.ts$'] },
    },
    {
      name: 'adapters-build-on-the-domain-only',
      severity: 'error',
      comment: 'A vendor adapter implements a small port and normalises payloads with pure functions: it knows the domain and nothing of the service around it.',
      from: layer('^src/adapters/'),
      to: { path: '^src/', pathNot: ['^src/(adapters|domain|lib)/'] },
    },
    {
      name: 'plugins-not-to-modules',
      severity: 'error',
      comment: 'Every module builds on the plugins (request context, policies, errors), so a plugin must not depend on a module: what it needs from one is a port declared in src/plugins (see plugins/auth.port.ts) and handed in.',
      from: layer('^src/plugins/'),
      to: { path: '^src/(modules|workers|demo)/|^src/(app|server|main|deps)\\.ts$' },
    },
    {
      name: 'modules-not-to-workers',
      severity: 'error',
      comment: 'src/workers composes the modules into running loops; a module implements contracts that live below both (lib/worker.ts: Worker; db/outbox.ts: StreamEvent, OutboxSink).',
      from: { path: '^src/modules/' },
      to: { path: '^src/workers/' },
    },
    {
      name: 'nothing-below-the-composition-roots',
      severity: 'error',
      comment: 'app.ts builds the app, server.ts and main.ts run it, src/demo stages it: the layers they compose never import them back.',
      from: layer('^src/(domain|lib|db|infra|adapters|plugins|modules|workers)/|^src/(config|deps)\\.ts$'),
      to: { path: '^src/(app|server|main)\\.ts$|^src/demo/' },
    },
    {
      name: 'production-code-not-to-test-code',
      severity: 'error',
      comment: 'What ships must not load test helpers, fixtures, benchmarks or tests.',
      from: { path: '^src/', pathNot: TEST_CODE },
      to: { path: ['^(test|bench|soak|scripts)/', ...TEST_CODE] },
    },
    {
      name: 'nothing-imports-a-test-file',
      severity: 'error',
      comment: 'A test file is an entry point of the test runner; what two tests share goes into a helper (test/helpers, */test-support).',
      from: {},
      to: { path: '\\.test\\.tsx?$' },
    },
    {
      name: 'production-code-not-to-dev-dependencies',
      severity: 'error',
      comment: 'devDependencies are not installed in the production image (npm ci --omit=dev).',
      from: { path: '^src/', pathNot: TEST_CODE },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-not-to-dashboard',
      severity: 'error',
      comment: 'The dashboard (web/) is its own package and bundle; the service talks to it over HTTP only.',
      from: { path: '^src/' },
      to: { path: '^web/' },
    },
    {
      name: 'dashboard-not-to-server',
      severity: 'error',
      comment: 'Server code in the dashboard bundle would drag Node modules into the browser; only the dashboard tests may compare shared constants with the server.',
      from: { path: '^web/src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(src|test)/' },
    },
  ],
  options: {
    // Type-only imports are dependencies too (cycles and layering are about the design, not the emitted JS).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Build output, and what tests generate while the suites run (test/e2e/openapi-client.test.ts writes a
    // client under test/.generated and deletes it: a cruise that lists it then reads it can find it gone).
    exclude: { path: '^(dist|web/dist|test/\\.generated|test/\\.screenshots|\\.bench)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
