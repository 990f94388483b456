// What other features (and the shell) may use of notifications: its other files are its own (lint rule in eslint.config.js).
export { NotificationBell } from "./notification-bell";
export { NotificationSettingsSection } from "./notification-settings";
