// Native tesseract for OCR (src/qc/reading/tesseract-cli.ts), installed like PostgreSQL: Debian's
// packages through apt-get when we are root and it is absent. Without root the worker falls back to
// tesseract.js, about half as fast, and says so in its log.
import { probeNativeTesseract } from '../../src/qc/reading/tesseract-cli.js';
import { stopSpawner } from '../../src/runtime/spawner.js';
import { aptInstall } from './apt.js';

export const TESSERACT_PACKAGES = ['tesseract-ocr', 'tesseract-ocr-eng', 'tesseract-ocr-spa'];

/** Installs native tesseract when absent and we are root; otherwise only says what OCR will use. */
export async function ensureTesseract(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await installIfAbsent(env, log, signal);
  } finally {
    // The probes ran by way of the process helper (src/runtime/spawner.ts), of no more use to the launcher.
    // Stopped here and waited for: left to go when the launcher exits, it would be on its way out a moment
    // after the launcher is gone, which is a process of the stack outliving `npm start`.
    await stopSpawner();
  }
}

async function installIfAbsent(env: NodeJS.ProcessEnv, log: (line: string) => void, signal?: AbortSignal) {
  const found = await probeNativeTesseract(signal);
  if (found.usable) return;
  if (process.getuid?.() !== 0) {
    log(
      `native tesseract is not usable (${found.reason}) and we are not root to install it: OCR uses ` +
        `tesseract.js; install ${TESSERACT_PACKAGES.join(' ')}`,
    );
    return;
  }
  log(`installing tesseract from Debian packages (apt-get): ${found.reason}`);
  await aptInstall(env, TESSERACT_PACKAGES, signal);
  const installed = await probeNativeTesseract(signal);
  if (!installed.usable)
    throw new Error(
      `apt-get installed ${TESSERACT_PACKAGES.join(' ')} but tesseract is still not usable: ${installed.reason}`,
    );
}
