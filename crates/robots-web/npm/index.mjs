// The package's ECMAScript-module entry: the same objects as require() gives.
import cjs from './index.cjs';

export const { Robots, parse, fromResponse } = cjs;
export default Robots;
