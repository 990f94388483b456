// AI Visibility test fixtures: the env with a recording AI_VISIBILITY queue, and an owner whose profile names the
// business the engine fakes are asked about.
import type { AiVisibilityMessage, Env } from "../../../worker/platform/env";
import { expect } from "vitest";
import { queueEnv } from "../reports/reports-fixtures";
import { callWorker, signUp } from "../helpers";

export type AiEnv = { env: Env; sent: AiVisibilityMessage[] };

export const aiEnv = (overrides: Partial<Env> = {}): AiEnv => queueEnv<AiVisibilityMessage>("AI_VISIBILITY", overrides);
export const bind = (t: AiEnv) => t.env as unknown as Record<string, unknown>;

export const PROFILE = { company_name: "Joe's Plumbing", company_location: "Austin, TX 78701", company_phone: "+1 512-555-0142", company_website: "https://joesplumbing.test", company_category: "Plumbing" };

/** A new user with PROFILE saved. */
export async function owner(t: AiEnv) {
  const user = await signUp();
  const token = user.session.access_token;
  const put = await callWorker("/api/profile", { method: "PUT", token, json: PROFILE }, bind(t));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { token, userId: user.user.id };
}
