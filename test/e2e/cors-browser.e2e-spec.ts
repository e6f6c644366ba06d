import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { Browser, chromium, Page } from 'playwright-core';
import { freePort } from '../support/service-process';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/**
 * README "CORS", in a real browser: a page on an allowed origin creates, updates (PUT) and
 * deletes (DELETE) records of the service with an Authorization header, which makes Chromium
 * send a preflight before each; a page on another origin cannot, and its DELETE never arrives.
 * Needs Chromium like swagger-ui.e2e-spec.ts, with the same skip rule.
 */
const CHROMIUM = '/usr/bin/chromium';
const REQUIRED = process.env.INVENTORY_BROWSER_TESTS === 'required';

interface FetchOutcome {
  status?: number;
  requestId?: string | null;
  body?: unknown;
  error?: string;
}

if (!existsSync(CHROMIUM) && !REQUIRED) {
  describe('CORS in a browser', () => {
    it(`skipped: Chromium not found at ${CHROMIUM} (apt-get install chromium to run it)`, () => undefined);
  });
} else {
  describe.each(databaseKinds())('CORS in a browser (Chromium, %s)', (kind) => {
    let t: TestApp;
    let pages: Server;
    let pagePort: number;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      pagePort = await freePort();
      // 127.0.0.1 and localhost on the page server's port are two origins: only the first is allowed.
      t = await createTestApp(kind, { env: { INVENTORY_CORS_ORIGINS: `http://127.0.0.1:${pagePort}` } });
      pages = createServer((_, response) =>
        response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>another origin</title>'),
      );
      pages.listen(pagePort, '127.0.0.1');
      await once(pages, 'listening');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        timeout: 20_000,
        args: ['--headless', '--no-sandbox', '--disable-gpu'],
      });
      page = await browser.newPage();
    });
    afterAll(async () => {
      await browser?.close();
      pages?.close();
      await t?.close();
    });

    /** fetch() as the page's own script runs it. */
    function fetchFromPage(method: string, path: string, body?: unknown): Promise<FetchOutcome> {
      return page.evaluate(
        async ({ url, method, authorization, body }) => {
          try {
            const response = await fetch(url, {
              method,
              headers: { Authorization: authorization, 'Content-Type': 'application/json', 'X-Request-Id': 'from-the-page' },
              body: body === undefined ? undefined : JSON.stringify(body),
            });
            const text = await response.text();
            return { status: response.status, requestId: response.headers.get('X-Request-Id'), body: text ? JSON.parse(text) : undefined };
          } catch (error) {
            return { error: String(error) };
          }
        },
        { url: `${t.url}${path}`, method, authorization: bearer(), body },
      );
    }

    it('lets a page on an allowed origin POST, PUT and DELETE, and read the answers and X-Request-Id', async () => {
      await page.goto(`http://127.0.0.1:${pagePort}/`);
      const created = await fetchFromPage('POST', '/type/exec-env', { id: 'cors-vm', name: 'VM' });
      expect(created).toMatchObject({ status: 201, requestId: 'from-the-page' });
      const updated = await fetchFromPage('PUT', '/type/exec-env/cors-vm', { name: 'Virtual machine' });
      expect(updated).toMatchObject({ status: 200, body: [expect.objectContaining({ code: 200 })] });
      const deleted = await fetchFromPage('DELETE', '/type/exec-env/cors-vm');
      expect(deleted.status).toBe(205);
    });

    it('refuses a page on another origin: its DELETE fails in the browser and never reaches the service', async () => {
      await fetchFromPage('POST', '/type/exec-env', { id: 'cors-kept', name: 'kept' });
      await page.goto(`http://localhost:${pagePort}/`);
      const outcome = await fetchFromPage('DELETE', '/type/exec-env/cors-kept');
      expect(outcome.error).toMatch(/TypeError: Failed to fetch/);
      const stillThere = await fetch(`${t.url}/type/exec-env/cors-kept`, { headers: { Authorization: bearer() } });
      expect(stillThere.status).toBe(200);
    });
  });
}
