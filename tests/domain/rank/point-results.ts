// The four outcomes of one grid search, as the rank tests write them: found at a rank, not found, failed, pending.
import type { PointResult } from "../../../worker/features/rank/rules/metrics";

export const found = (rank: number): PointResult => ({ status: "found", rank });
export const miss: PointResult = { status: "not_found" };
export const failed: PointResult = { status: "failed" };
export const pending: PointResult = { status: "pending" };
