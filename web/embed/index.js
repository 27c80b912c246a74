// attnx embed: the module a host page loads (built into dist/embed/attnx.js):
//   <script type="module" src="https://…/embed/attnx.js"></script>
//   <attnx-explorer pattern="window" l="128" w="2" d="2560"></attnx-explorer>
//   <attnx-lab preset="paper" autorun="1"></attnx-lab>
// Defines the elements once (loading it twice is harmless).
import { AttnxExplorer } from './explorer-element.js';
import { AttnxLab } from './lab-element.js';

if (!customElements.get('attnx-explorer')) customElements.define('attnx-explorer', AttnxExplorer);
if (!customElements.get('attnx-lab')) customElements.define('attnx-lab', AttnxLab);

export { AttnxExplorer, AttnxLab };
