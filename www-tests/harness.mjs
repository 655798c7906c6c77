// Shared helpers for the www-tests: a static server for dist/ on 127.0.0.1 and
// Debian's Chromium driven by playwright-core (never a downloaded browser).
import { createServer } from 'node:http';
import { readFile, mkdtemp, mkdir } from 'node:fs/promises';
import { extname, join, normalize, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

const here = dirname(fileURLToPath(import.meta.url));
export const DIST = process.env.LBSCOPE_DIST ?? join(here, '..', 'dist');
export const OUTPUT = join(here, 'output');
/** The project's root (where Cargo.toml is). */
export const ROOT = join(here, '..');

let targetDir;
/**
 * Where cargo puts what it builds: ./target, or wherever CARGO_TARGET_DIR (or a cargo
 * config) says, as `cargo metadata` reports it.
 */
export function cargoTargetDir() {
  targetDir ??= JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 })).target_directory;
  return targetDir;
}

/** The release CLI's path (`cargo build --release --bin lbscope` builds it). */
export const releaseCli = () => join(cargoTargetDir(), 'release', 'lbscope');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serve DIST on 127.0.0.1 (random port). Returns { url, close }. */
export async function serveDist() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const rel = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(DIST, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Launch Debian's Chromium headless with a fresh profile. */
export async function launch() {
  const userDataDir = await mkdtemp(join(tmpdir(), 'lbscope-chromium-'));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** Open the app; collects console errors and page errors into `errors`. */
export async function openApp(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  // The app is up when the active tab has rendered (whichever tab the autosave left open).
  await page.waitForSelector('main section.tab-body', { timeout: 20000 });
  return { page, errors };
}

/** Save a screenshot under www-tests/output/ (not committed). */
export async function screenshot(page, name) {
  await mkdir(OUTPUT, { recursive: true });
  await page.screenshot({ path: join(OUTPUT, `${name}.png`), fullPage: true });
}

/**
 * Register before/after hooks that start a server for dist/ and one browser
 * profile for the calling test file. Returns an object whose `server` and
 * `context` are set once the hooks ran.
 */
export function suite() {
  const env = { server: undefined, context: undefined };
  before(async () => {
    env.server = await serveDist();
    env.context = await launch();
  });
  after(async () => {
    await env.context?.close();
    await env.server?.close();
  });
  return env;
}

/** Unfold a folded section (a `<details>` matched by `selector`) if it is closed. */
export async function unfold(page, selector) {
  const details = page.locator(selector).first();
  if (!(await details.evaluate((d) => d.open))) await details.locator(':scope > summary').click();
}

/** The project's build tool (`make webbuild`, or any `make serve` / `make wasm-release`). */
export const WEBBUILD = process.env.LBSCOPE_WEBBUILD
  ?? join(cargoTargetDir(), 'webbuild', 'lbscope-webbuild');

/**
 * `lbscope-webbuild serve` of DIST on a port the system picks: the server `make serve` runs,
 * with its precompressed files, `Content-Encoding` and cache headers. Returns { url, close }.
 */
export async function projectServer() {
  const { access } = await import('node:fs/promises');
  const { spawn } = await import('node:child_process');
  await access(WEBBUILD).catch(() => {
    throw new Error(`${WEBBUILD} is missing: build it with \`make webbuild\``);
  });
  const child = spawn(WEBBUILD, ['serve', '--dir', DIST, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) ok(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`lbscope-webbuild serve exited (${code}): ${out}`)));
  });
  return { url, close: () => child.kill() };
}
