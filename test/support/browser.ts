// Headless Chromium for the browser tests, brought by npm: @sparticuz/chromium ships a
// Chromium binary inside the package (brotli-compressed), so `npm ci && npm test` needs no
// system browser and no download at test time (playwright's own browser download cannot
// reach its host here). CHROMIUM_PATH points at another Chromium instead (Debian's
// /usr/bin/chromium, say). Everything that would reach out to the internet is turned off.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import packagedChromium from '@sparticuz/chromium';
import { ROOT } from './cli.ts';

const PACKAGED_VERSION = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'lead-intake-chromium');

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (await unpackedChromium()),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * The package's binary, unpacked once per installed version. The package unpacks into
 * os.tmpdir() (the binary, its fonts and the SwiftShader libraries side by side), and
 * a test file running in parallel could launch a half-written binary; so each process
 * unpacks into a directory of its own and renames it into place, which is atomic: the
 * first one wins, the others drop their copy.
 */
async function unpackedChromium(): Promise<string> {
  const target = path.join(CACHE, PACKAGED_VERSION);
  const binary = path.join(target, 'chromium');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(CACHE, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(CACHE, 'unpacking-'));
  const previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  try {
    const unpacked = await packagedChromium.executablePath();
    if (path.dirname(unpacked) !== scratch)
      throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${scratch}`);
  } finally {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
  }
  try {
    fs.renameSync(scratch, target);
  } catch (error) {
    // Another process renamed its copy into place first.
    if (!fs.existsSync(binary)) throw error;
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}
