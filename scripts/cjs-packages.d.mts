// Types of scripts/cjs-packages.mjs (plain JavaScript: scripts/compile-entry.mjs runs before any TypeScript).
import type { Plugin } from 'esbuild';

/** At the top of every output file: the require() the CommonJS packages are loaded with. */
export const REQUIRE_BANNER: string;

/** The esbuild plugin, for sources under `root` (whose node_modules the packages are resolved in). */
export function cjsPackages(root: string): Plugin;
