// Placeholder sub-app; its issue fills it in.
import { Hono } from "hono";
import type { AppEnv } from "../context";

export const adminUserRoutes = new Hono<AppEnv>();
