import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { closeAtTheEnd } from './leak-check.ts';

/** Debian's Chromium, which the browser suites drive headless. */
const CHROMIUM = '/usr/bin/chromium';

/** A browser suite's `skip`: false where Chromium is installed, else why the suite is skipped. */
export const CHROMIUM_SKIP: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install chromium): browser test skipped`;

let launched: Promise<Browser> | undefined;

/**
 * Headless Chromium, launched once a process (a launch costs about 1 s of CPU) and closed when
 * the run ends. Each `browser.newPage()` opens a context of its own, so tests share no cookies or
 * storage. npm test keeps the browser suites in one process (scripts/test-groups.ts).
 */
export function sharedBrowser(): Promise<Browser> {
  launched ??= chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return launched;
}

// Once every file of the process has finished, before the leak check looks.
closeAtTheEnd(async () => {
  await (await launched)?.close();
});
