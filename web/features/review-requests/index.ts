// What other features (and the shell) may use of review-requests: its other files are its own (lint rule in eslint.config.js).
export { ReviewRequestsPanel } from "./pages/review-requests";
