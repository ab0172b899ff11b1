/**
 * The layers of the code base (docs/ARCHITECTURE.md, "Layers"). Imports run one way, downwards:
 *
 *   server: main.ts, bootstrap.ts, app.ts, seed/, ops/, fuzz/ → features/ → shared/ → platform/, db/ → domain
 *   web:    main.tsx, App.tsx, FullApp.tsx, shell/ → features/ → components/, queries/, session/, api/ → offline/ → domain
 *
 * `npm run lint:deps` (part of `npm run lint`, so of `npm test`) fails on an import that runs back up a
 * layer, and on one that closes a cycle between two feature folders. Test files (*.test.ts, the test
 * helpers, packages/server/test/) sit on top of every layer and are not cruised.
 */

const server = '^packages/server/src/';
const web = '^packages/web/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The domain package is shared by both ends: it imports neither the server nor the web.',
      from: { path: '^packages/domain/' },
      to: { path: '^packages/(server|web)/' },
    },
    {
      name: 'platform-not-to-features',
      severity: 'error',
      comment:
        'platform/ is the layer below shared/ and the features: it never imports them. Move the piece into ' +
        'platform, or let the feature hand it in at app assembly (app.ts), as the active-user loader is.',
      from: { path: `${server}platform/` },
      to: { path: `${server}(features|shared)/` },
    },
    {
      name: 'shared-not-to-features',
      severity: 'error',
      comment: 'shared/ holds what several features need; it sits below them and never imports a feature.',
      from: { path: `${server}shared/` },
      to: { path: `${server}features/` },
    },
    {
      name: 'no-import-of-assembly',
      severity: 'error',
      comment:
        'app.ts, bootstrap.ts and main.ts assemble and start the server, seed/, ops/ and fuzz/ drive it; ' +
        'the features, shared/ and platform/ sit below them and never import them. Move what they need ' +
        'into platform/ or shared/.',
      from: { path: `${server}(platform|shared|features|db)/` },
      to: { path: `${server}((app|bootstrap|main)\\.ts$|(seed|ops|fuzz)/)` },
    },
    {
      name: 'web-lower-layers-not-to-shell-or-features',
      severity: 'error',
      comment:
        'components/, queries/, session/, offline/ and api/ are the layers below the features and the shell: pass in ' +
        'what they need, or move the piece into one of them (as session/currentUser.tsx was).',
      from: { path: `${web}(components|queries|session|api|offline)/` },
      to: { path: `${web}((shell|features)/|(App|FullApp|main)\\.tsx$)` },
    },
    {
      name: 'web-offline-below-api',
      severity: 'error',
      comment:
        "offline/'s device copy, network state and service worker's registration sit below the API client, which " +
        'imports them: they never import api/, components/, queries/ or session/. The queue of changes made ' +
        'offline (queue.ts, queueSync.ts, useQueueRunner.ts, QueueItems.tsx, messages.ts) sends through the API client and ' +
        "shows its list with the shared components, so it sits above them; the service worker's sender " +
        '(backgroundSync.ts) builds the same requests (api/activityChanges.ts).',
      from: {
        path: `${web}offline/`,
        pathNot: `${web}offline/(queue|queueSync|useQueueRunner|QueueItems|messages|backgroundSync)\\.tsx?$`,
      },
      to: { path: `${web}(api|components|queries|session)/` },
    },
    {
      name: 'no-cycle-between-features',
      severity: 'error',
      comment:
        'This import closes a cycle of modules through two feature folders. Move what both features need ' +
        'into platform/ or shared/ (server), queries/ or components/ (web), so the arrows run one way.',
      from: { path: '^(packages/(server|web)/src/features/[^/]+)/' },
      to: { circular: true, via: { pathNot: '^$1/' } },
    },
    {
      name: 'no-folder-cycle-between-features',
      severity: 'error',
      scope: 'folder',
      comment:
        'Two feature folders import each other (through any of their modules, directly or round other ' +
        'features). Decide which one is below, and move what the lower one takes from the upper one into ' +
        'platform/ or shared/ (server), queries/ or components/ (web), or hand it in at assembly.',
      from: { path: '^(packages/(server|web)/src/features/[^/]+)' },
      to: { circular: true, path: '^packages/(server|web)/src/features/', pathNot: '^$1(/|$)' },
    },
  ],
  options: {
    // The assembly and the shell import every feature; they are the top layer. Their own imports are not
    // followed, so the folder cycles between features are not closed through them (an import *of* them
    // is still seen, and refused by the rules above).
    doNotFollow: {
      path: ['node_modules', `${server}((app|main|bootstrap)\\.ts$|(seed|ops|fuzz)/)`, `${web}((App|FullApp|main)\\.tsx$|shell/)`],
    },
    exclude: {
      path: [
        '(^|/)(node_modules|dist)/',
        '\\.test\\.tsx?$',
        '^packages/server/test/',
        // Test helpers beside the code they test (activities/testing.ts, contracts/testDocuments.ts, …) and
        // the set-up a split test file's parts share (users/usersSetup.ts for users.*.test.ts, …).
        '(^|/)(testing|test[A-Z][A-Za-z]*|[a-z][A-Za-z]*Setup)\\.ts$',
      ],
    },
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    cache: false,
  },
};
