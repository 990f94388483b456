// What other features (and the shell) may use of integrations: its other files are its own (lint rule in eslint.config.js).
export { IntegrationCard } from "./integration-card";
export { integrationsQuery } from "./queries";
