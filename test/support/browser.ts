// TEMPORARY (web-foundation branch): helper "fresh" builds the real launcher; this one is replaced at merge.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export async function launchBrowser(options: { args?: string[] } = {}): Promise<Browser> {
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...(options.args ?? [])];
  if (existsSync('/usr/bin/chromium')) return chromium.launch({ executablePath: '/usr/bin/chromium', args });
  const sparticuz = (await import('@sparticuz/chromium')).default;
  return chromium.launch({ executablePath: await sparticuz.executablePath(), args: [...args, '--no-zygote'] });
}
