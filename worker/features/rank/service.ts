// What the rank routes ask of the capability beyond its grid and tracker services: the 402 of a grid past the allowance.
import { RankErrorCode } from "./business";

/** The 402 of a grid whose searches do not fit what is left of the allowance. */
export function gridAllowanceRefusal(estimate: { searches: number; estimateUsd: number; allowanceLeftUsd: number | null }) {
  const left = estimate.allowanceLeftUsd === null ? "" : ` ($${estimate.allowanceLeftUsd.toFixed(2)})`;
  return {
    code: RankErrorCode.allowanceExceeded,
    message: `This grid needs ${estimate.searches} searches (about $${estimate.estimateUsd.toFixed(2)}), more than is left of your allowance this month${left}. Choose a smaller grid.`,
  };
}
