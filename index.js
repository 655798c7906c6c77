// Boots the wasm app. A file of its own (not an inline script) so that the
// Content-Security-Policy in index.html can forbid inline scripts.
import init from './lbscope-web.js';

await init({ module_or_path: new URL('./lbscope-web_bg.wasm', import.meta.url) });
