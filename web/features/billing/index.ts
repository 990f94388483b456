// What other features (and the shell) may use of billing: its other files are its own (lint rule in eslint.config.js).
export { PlanBadge } from "./plan-badge";
