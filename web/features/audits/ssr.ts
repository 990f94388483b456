// What the worker renders too (the shared report's server-side HTML): pure components, no CSS, queries or browser
// APIs. Other features' server-rendered views import these from here, not through index.ts (which the browser alone loads).
export { WhatWeFoundSection } from "./audit-findings";
