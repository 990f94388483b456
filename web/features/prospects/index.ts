// What other features (and the shell) may use of prospects: its other files are its own (lint rule in eslint.config.js).
export { flattenPages, prospectKeys, prospectListQuery } from "./queries";
