// Types of scripts/compile-entry.mjs (plain JavaScript: scripts/run.mjs loads it before any TypeScript).
import type { BuildOptions } from 'esbuild';

/** Where the sources are (the paths the stamp lists are relative to it) and where the build goes. */
export interface EntryBuildPlace {
  root: string;
  outDir: string;
}

/** The compiled entry's path when the build in `outDir` is of today's sources, else undefined. */
export function currentBuild(source: string, place?: EntryBuildPlace): Promise<string | undefined>;

/** Compiles `source` (and what it imports of ours) into `outDir`; returns the entry's path. */
export function compile(source: string, place?: EntryBuildPlace): Promise<string>;

/** The esbuild options the launchers and the services are bundled with. */
export const BUNDLE_OPTIONS: BuildOptions;
