// attnx embed: the module a host page loads (built into dist/embed/attnx.js):
//   <script type="module" src="https://…/embed/attnx.js"></script>
//   <attnx-explorer pattern="window" l="128" w="2" d="1024"></attnx-explorer>
// Defines the elements once (loading it twice is harmless).
import { AttnxExplorer } from './explorer-element.js';

if (!customElements.get('attnx-explorer')) customElements.define('attnx-explorer', AttnxExplorer);

export { AttnxExplorer };
