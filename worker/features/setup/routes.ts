// /api/admin/setup (admins): which outside services are configured, what each unlocks, how to set it up (never a
// secret's value). /api/capabilities (users): what the customer's screens may offer, as booleans.
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { capabilities, setupStatus } from "./status";

export const adminSetupRoutes = new Hono<AppEnv>().use(requireUser, requireAdmin).get("/", (c) => c.json(setupStatus(c.env)));

export const capabilityRoutes = new Hono<AppEnv>().use(requireUser).get("/", (c) => c.json(capabilities(c.env)));
