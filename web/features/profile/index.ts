// What other features (and the shell) may use of profile: its other files are its own (lint rule in eslint.config.js).
export { profileQuery, useBusinessProfile } from "./queries";
export { useBusinessTimeZone } from "./use-time-zone";
