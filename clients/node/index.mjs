// The ES module entry point of synapsefake: the same objects as the
// CommonJS one (index.js), as named exports.
import cjs from './index.js';

export const { startFake, connect, findBinary, platformPackage, Fake, StartedFake, Platform, Control, ControlError, DEFAULT_START_TIME } = cjs;
export default cjs;
