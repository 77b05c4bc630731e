// The robots-parser drop-in as an ECMAScript module: `import robotsParser from '…/compat'`.
import robotsParser from './compat.cjs';

export default robotsParser;
