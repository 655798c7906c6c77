// Boots the wasm app. A file of its own (not an inline script) so that the
// Content-Security-Policy in index.html can forbid inline scripts.
//
// While the engine downloads, the loading frame of index.html says how far it is
// (the bytes read from the stream, against the decoded size tools/webbuild wrote
// into #boot-size); the module compiles while it streams (instantiateStreaming,
// as the server sends application/wasm). A failed download or start is said in
// the frame. The app replaces the frame when it mounts on #app.

const wasmUrl = new URL('./lbscope-web_bg.wasm', import.meta.url);
const $ = (id) => document.getElementById(id);
const total = Number($('boot-size')?.dataset.bytes) || 0;

/** Replace the loading line with `message` and a way to try again. */
function fail(message, error) {
  console.error('lbscope: the engine did not start:', error);
  const status = $('boot-status');
  if (!status) return;
  status.setAttribute('role', 'alert');
  status.replaceChildren();
  const text = document.createElement('span');
  text.textContent = message;
  const detail = document.createElement('code');
  detail.textContent = String(error?.message ?? error);
  const retry = document.createElement('a');
  retry.href = location.href;
  retry.textContent = 'Reload to try again';
  retry.style.color = 'inherit';
  status.append(text, detail, retry);
  // The app's error colours (app.css is in by the time a script runs), else readable defaults.
  Object.assign(status.style, {
    color: 'var(--error-fg, #8a1c0b)',
    background: 'var(--error-bg, #fde8e4)',
    padding: '0.5rem 0.8rem',
    borderRadius: '8px',
  });
}

let shown = -1;
function progress(done) {
  const bar = $('boot-progress');
  const percent = $('boot-percent');
  if (!bar || !percent) return;
  if (total > 0) {
    const pct = Math.min(100, Math.floor((done * 100) / total));
    if (pct === shown) return;
    shown = pct;
    bar.value = pct;
    percent.textContent = `${pct} %`;
  } else {
    percent.textContent = `${(done / 1e6).toFixed(1)} MB`;
  }
}

/** The wasm's response, its body counted as it streams through. */
async function fetchCounted() {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`${wasmUrl.pathname}: HTTP ${response.status} ${response.statusText}`);
  if (!response.body || typeof TransformStream !== 'function') return response;
  let done = 0;
  const counted = response.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      done += chunk.byteLength;
      progress(done);
      out.enqueue(chunk);
    },
    flush() {
      const text = $('boot-text');
      if (text) text.textContent = 'Starting the engine\u2026';
    },
  }));
  // The same type, so that the glue compiles while streaming (application/wasm).
  return new Response(counted, {
    status: response.status,
    headers: { 'content-type': response.headers.get('content-type') ?? 'application/wasm' },
  });
}

async function boot() {
  if (typeof WebAssembly !== 'object') {
    fail('This browser cannot run WebAssembly, which lbscope\u2019s engine needs.', 'WebAssembly is not available');
    return;
  }
  let init;
  try {
    ({ default: init } = await import('./lbscope-web.js'));
  } catch (e) {
    fail('The engine\u2019s loader could not be loaded.', e);
    return;
  }
  let response;
  try {
    response = await fetchCounted();
  } catch (e) {
    fail('The engine could not be downloaded.', e);
    return;
  }
  try {
    await init({ module_or_path: response });
  } catch (e) {
    // A panic while mounting shows the app's own crash panel; this is a module that
    // did not compile or a start that threw before the app was up.
    fail('The engine could not be started.', e);
    return;
  }
}

boot();

// A trap inside the engine (memory exhausted, an abort after a panic) surfaces
// here as a WebAssembly.RuntimeError, not through the panic hook: it gets the
// same crash panel (the autosave keeps the last scenario that displayed).
function crashPanel(error) {
  if (document.getElementById('crash')) return;
  console.error('lbscope: the engine stopped:', error);
  const panel = document.createElement('div');
  panel.id = 'crash';
  panel.setAttribute('role', 'alert');
  const h = document.createElement('h2');
  h.textContent = 'lbscope hit a bug';
  const p = document.createElement('p');
  p.textContent = 'The engine stopped (' + (error?.message ?? String(error)) + '). Your work is safe: '
    + 'the last scenario that displayed correctly is saved in this browser.';
  const pre = document.createElement('pre');
  pre.textContent = String(error?.stack ?? error);
  const restore = document.createElement('a');
  restore.href = './';
  restore.className = 'button primary';
  restore.textContent = 'Restore last good state';
  const fresh = document.createElement('a');
  fresh.href = './?fresh';
  fresh.className = 'button';
  fresh.textContent = 'Start fresh';
  panel.append(h, p, pre, restore, fresh);
  document.body.append(panel);
}
addEventListener('error', (e) => {
  if (e.error instanceof WebAssembly.RuntimeError) crashPanel(e.error);
});
addEventListener('unhandledrejection', (e) => {
  if (e.reason instanceof WebAssembly.RuntimeError) crashPanel(e.reason);
});
