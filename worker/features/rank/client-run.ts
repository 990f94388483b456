// "Run a grid" from the clients view (issue 41): the client's latest grid again (its keyword, size and radius), on their
// listing, paid from their allowance, as if they pressed "Run" themselves.
import type { ClientRunner } from "../../platform/client-runs";
import { ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { RankErrorCode } from "./business";
import { startGrid } from "./grid";
import { listGridScans } from "./queries";
import { gridEstimateMicro, gridSizeAllowed } from "./rules/grid";
import { businessFor } from "./service";

export const gridRun: ClientRunner = async (env, db, client) => {
  const [latest] = await listGridScans(db, { kind: "own", userId: client.id }, undefined, 1);
  if (!latest) return { ok: false, code: "no_grid_yet", message: "No grid yet: the first one is run from the client's Local Search Grid, with its keyword and size." };
  if (!gridSizeAllowed(latest.size, false)) return { ok: false, code: RankErrorCode.gridSizeNotAllowed, message: `Their last grid (${latest.size}×${latest.size}) is larger than a client's plan allows.` };
  const { keyword, size, radiusMiles } = latest;
  return {
    ok: true,
    micro: gridEstimateMicro(size),
    start: async () => {
      const resolved = await businessFor(env, db, { own: true }, client);
      if (!resolved.ok) return { ok: false, code: resolved.refusal.code, message: resolved.refusal.message };
      try {
        await startGrid(env, { resolved: resolved.value, keyword, size, radiusMiles, userId: client.id });
      } catch (error) {
        log.error("rank: bulk grid start failed", { userId: client.id }, error);
        return { ok: false, code: ErrorCode.unavailable, message: "The grid could not be started. Please try again." };
      }
      return { ok: true };
    },
  };
};
