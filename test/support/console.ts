import type { Browser, BrowserContext, Page } from 'playwright-core';
import { standardOrgIds, startTestApp, STANDARD_SEED, type StandardOrg, type TestApp } from './app';

// The console under test: a fresh app with the standard org and an admin who can sign in, driven
// either through a real browser (controls found by role and label) or over HTTP with a cookie jar.

export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface ConsoleOrg extends StandardOrg {
  admin: { email: string; password: string };
}

/** Seeds the standard org plus an admin login (its password is hashed with the real scrypt) and staff. */
export async function seedConsoleOrg(app: TestApp, name = 'Test Café', email = `owner-${Math.random().toString(36).slice(2, 8)}@example.com`, extra: Record<string, unknown> = {}): Promise<ConsoleOrg> {
  const result = await app.seedWithAdmins({ orgs: [{ ...STANDARD_SEED.orgs[0], name, admins: [{ email, password: ADMIN_PASSWORD }], ...extra }] });
  return { ...standardOrgIds(result.orgs[0]!), admin: { email, password: ADMIN_PASSWORD } };
}

export { STANDARD_SEED, startTestApp };

/** Signs in through the form, as the owner would; lands on `next` (default: the console's start). */
export async function signIn(page: Page, app: TestApp, org: ConsoleOrg, next?: string): Promise<void> {
  await page.goto(`${app.url}/console/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email').fill(org.admin.email);
  await page.getByLabel('Password').fill(org.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
}

/** A fresh browser context (its own cookies) with a page, signed in. */
export async function signedInPage(browser: Browser, app: TestApp, org: ConsoleOrg, options: { width?: number; next?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, app, org, options.next);
  return { context, page };
}

/** A cookie jar over fetch, for the console's HTTP behaviour without a browser. */
export class ConsoleClient {
  private cookies = new Map<string, string>();
  constructor(private readonly app: TestApp) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async request(method: string, path: string, options: { form?: Record<string, string>; headers?: Record<string, string>; origin?: string | null } = {}): Promise<{ status: number; headers: Headers; text: string; setCookies: string[] }> {
    const headers: Record<string, string> = { ...options.headers };
    const jar = this.cookieHeader();
    if (jar) headers.Cookie = jar;
    let body: string | undefined;
    if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    // Stands in for the browser's Origin on a POST (`origin: null` leaves it out). What a real
    // browser sends depends on the page's Referrer-Policy, so every form a customer or the owner
    // posts is also pressed in Chromium with no added headers (e.g. signup/email-card-browser).
    if (method !== 'GET' && options.origin !== null) headers.Origin = options.origin ?? this.app.url;
    const res = await fetch(this.app.url + path, { method, headers, body, redirect: 'manual' });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), setCookies };
  }

  /** The hidden CSRF field of the page at `path`. */
  async csrfFrom(path: string): Promise<string> {
    const page = await this.request('GET', path);
    const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!match) throw new Error(`no CSRF field on ${path} (status ${page.status})`);
    return match[1]!;
  }

  async signIn(email: string, password: string): Promise<{ status: number; location: string | null; text: string }> {
    const csrf = await this.csrfFrom('/console/sign-in');
    const res = await this.request('POST', '/console/sign-in', { form: { _csrf: csrf, email, password, next: '/console/settings' } });
    return { status: res.status, location: res.headers.get('location'), text: res.text };
  }
}
