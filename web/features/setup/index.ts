// What other features (and the shell) may use of setup: its other files are its own (lint rule in eslint.config.js).
export { useCapabilities } from "./queries";
export { ActionError, SearchUnavailableNotice, UnavailableNotice } from "./unavailable-notice";
