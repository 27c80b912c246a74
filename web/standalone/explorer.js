// attnx one-file explorer (dist/attnx.html): the entry scripts/build-standalone.mjs bundles with
// the inline WebAssembly, workers and files (the virtual module attnx-standalone:resources). It
// says plainly what the browser lacks, or readies the page (runtime.js) and runs the explorer,
// the served page's own code (explorer/main.js), which reads a saved view if the file has one.
/* global __attnxRoot */
import resources from 'attnx-standalone:resources';
import { install, missing, showMissing } from './runtime.js';

const lacks = missing();
if (lacks) {
  showMissing(lacks);
} else {
  install({ ...resources, root: __attnxRoot });
  import('../explorer/main.js');
}
