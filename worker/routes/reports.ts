// Placeholder sub-app; its issue fills it in.
import { Hono } from "hono";
import type { AppEnv } from "../context";

export const reportRoutes = new Hono<AppEnv>();
