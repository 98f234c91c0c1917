// An esbuild plugin for what we compile (scripts/compile.ts: the API and the worker; compile-entry.mjs:
// the launchers): the packages that are CommonJS only — the Temporal SDK, Express, multer, pdf-lib, the
// canvas… — are loaded with require() rather than import. Node's ESM loader scans every CommonJS module
// it imports for the names it exports (cjs-module-lexer, following re-exports through the SDK's modules),
// some 0.2 s of CPU in each process at its start, which require() skips; the modules are the same ones,
// loaded once either way. Only where Node's import and require load the same file: a package with ESM of
// its own, or exports that tell import from require (zod, postgres, minio, sharp…), stays an import, so
// that no package is ever loaded twice. Plain JavaScript: compile-entry.mjs runs before any TypeScript.
import { builtinModules } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

/**
 * At the top of every output file: the require() the CommonJS packages are loaded with, resolving from
 * the output's place in the repository (.build/ resolves packages from the root's node_modules).
 */
export const REQUIRE_BANNER =
  "import { createRequire as __cjsCreateRequire } from 'node:module';\nconst __nodeRequire = " +
  '__cjsCreateRequire(import.meta.url);';

const builtins = new Set(builtinModules);

/** The esbuild plugin, for sources under `root` (whose node_modules the packages are resolved in). */
export function cjsPackages(root) {
  const require = createRequire(join(root, 'package.json'));
  const verdicts = new Map();
  const commonJsOnly = (specifier) => {
    if (!verdicts.has(specifier)) verdicts.set(specifier, loadsTheSameFileEitherWay(require, specifier));
    return verdicts.get(specifier);
  };
  return {
    name: 'cjs-packages',
    setup(build) {
      // Bare specifiers: packages (and Node's own modules, which stay imports). A static import only: an
      // import() stays one, whose namespace Node makes with every name (esbuild's would have only the
      // default) and which loads the package only when it runs, as before; Node's import of a CommonJS
      // module finds the instance require() loaded, if any.
      build.onResolve({ filter: /^[^./]/ }, ({ path, kind }) => {
        if (kind === 'import-statement' && !path.startsWith('node:') && !builtins.has(path) && commonJsOnly(path))
          return { path, namespace: 'cjs-package' };
        return { path, external: true };
      });
      // A CommonJS module of one line, which esbuild's interop turns into the imported names as Node
      // would (the default import is module.exports).
      build.onLoad({ filter: /.*/, namespace: 'cjs-package' }, ({ path }) => ({
        contents: `module.exports = __nodeRequire(${JSON.stringify(path)});`,
        loader: 'js',
      }));
    },
  };
}

/** Whether import and require load the same CommonJS file for `specifier`; false when in doubt. */
function loadsTheSameFileEitherWay(require, specifier) {
  let file;
  try {
    file = require.resolve(specifier);
  } catch {
    return false;
  }
  // .mjs is ESM, .json and .node are not imported as require loads them.
  if (!['.js', '.cjs'].includes(extname(file))) return false;
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  let packageJson;
  let typeModule;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, 'utf8'));
      // The nearest package.json says how a .js file is read.
      typeModule ??= manifest.type === 'module';
      if (dir.endsWith(join('node_modules', name))) {
        packageJson = manifest;
        break;
      }
    }
    if (dirname(dir) === dir) return false;
  }
  if (extname(file) === '.js' && typeModule) return false;
  // Exports that name conditions for import or require may send each to a file of its own.
  return !/"(import|require|module-sync)"\s*:/.test(JSON.stringify(packageJson.exports ?? null));
}
