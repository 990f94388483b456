// One GET of a provider's JSON answer with a time-out, every failure an outcome in the provider's own words (a
// `ProviderFailure`), never a throw: the SerpAPI searches and PageSpeed Insights fetch, fail and read alike.
import { log, type LogFields } from "../log";

/** A provider failure: `retryable` when trying again later may work (429, 5xx, time-out, unreachable). */
export type ProviderFailure = { ok: false; reason: string; retryable: boolean };

/** How one provider is named in its failures and in the log, and which refusals are worth trying again. */
export type JsonProvider = {
  /** As the failures name it: "the search provider", "PageSpeed Insights". */
  name: string;
  /** The log's event for an unreachable provider and for a refusal ("pagespeed: refused"). */
  logUnreachable: string;
  logRefused: string;
  /** The failure for a 429. */
  busy: string;
  retryable: (status: number) => boolean;
  /** The failure when the answer is not JSON. */
  notJson: string;
};

export async function getProviderJson(
  provider: JsonProvider,
  url: URL,
  timeoutMs: number,
  logFields: LogFields = {},
): Promise<{ ok: true; body: Record<string, unknown> } | ProviderFailure> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
    text = await res.text();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { ok: false, reason: `${provider.name} did not answer within ${Math.round(timeoutMs / 1000)} s`, retryable: true };
    log.warn(provider.logUnreachable, logFields, error);
    return { ok: false, reason: `${provider.name} could not be reached`, retryable: true };
  }
  if (!res.ok) {
    log.warn(provider.logRefused, { ...logFields, status: res.status, detail: text.slice(0, 300) });
    return { ok: false, reason: res.status === 429 ? provider.busy : `${provider.name} answered ${res.status}`, retryable: provider.retryable(res.status) };
  }
  try {
    return { ok: true, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { ok: false, reason: provider.notJson, retryable: true };
  }
}
