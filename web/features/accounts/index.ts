// What other features (and the shell) may use of accounts: its other files are its own (lint rule in eslint.config.js).
export { ConfirmEmailBanner } from "./confirm-email";
