// The engine worker (src/ui/worker.rs): this same wasm, without the page. The
// page hands it a job as JSON text (a compare run of a scenario that is heavy to
// replay) and draws the reply, answering input meanwhile.
import init, { engine_job } from './lbscope-web.js';

const ready = init({ module_or_path: new URL('./lbscope-web_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  await ready;
  self.postMessage(engine_job(e.data));
};
